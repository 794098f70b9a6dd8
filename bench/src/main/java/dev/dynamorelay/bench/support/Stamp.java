package dev.dynamorelay.bench.support;

/**
 * The stamp of a write the live sections time: its sequence number and the {@link System#nanoTime()} it was sent
 * at, carried in the purchase's {@code product} as {@code live <sequence> <nanoTime>}, so that a subscriber or the
 * raw stream reader that receives the change knows which write it was and how long it took.
 */
public record Stamp(long sequence, long sent) {

	/** What a stamped {@code product} starts with. */
	public static final String PREFIX = "live ";

	/** A stamped {@code product} as it appears in a change's JSON. */
	public static final String IN_JSON = "\"product\":\"" + PREFIX;

	/** A stamp for write {@code sequence} sent now. */
	public static Stamp now(long sequence) {
		return new Stamp(sequence, System.nanoTime());
	}

	/** The {@code product} that carries it. */
	public String product() {
		return PREFIX + this.sequence + " " + this.sent;
	}

	/** The stamp in {@code text} from {@code from}, just after a {@link #PREFIX}. */
	public static Stamp parse(CharSequence text, int from) {
		int space = from;
		while (text.charAt(space) != ' ') {
			space++;
		}
		int end = space + 1;
		while (end < text.length() && (Character.isDigit(text.charAt(end)) || text.charAt(end) == '-')) {
			end++;
		}
		return new Stamp(Long.parseLong(text, from, space, 10), Long.parseLong(text, space + 1, end, 10));
	}

}
