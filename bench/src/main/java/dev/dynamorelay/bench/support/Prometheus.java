package dev.dynamorelay.bench.support;

/** What the benchmark reads of a server's {@code /actuator/prometheus} text. */
public final class Prometheus {

	private Prometheus() {
	}

	/** The meter of that name, summed over its tags (0 when the text has none). */
	public static double sum(String text, String meter) {
		double sum = 0;
		for (String line : text.split("\n")) {
			if (line.startsWith(meter + "{") || line.startsWith(meter + " ")) {
				sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
			}
		}
		return sum;
	}

}
