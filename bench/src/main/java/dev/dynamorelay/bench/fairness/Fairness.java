package dev.dynamorelay.bench.fairness;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;

import dev.dynamorelay.bench.support.Bench;
import dev.dynamorelay.bench.support.BenchData;
import dev.dynamorelay.bench.support.Clients;

import static dev.dynamorelay.bench.support.GraphQl.body;
import static dev.dynamorelay.bench.support.GraphQl.indexOf;
import static dev.dynamorelay.bench.support.GraphQl.vars;
import static dev.dynamorelay.bench.support.Stats.ms;
import static dev.dynamorelay.bench.support.Stats.percentile;

/**
 * Fairness: a normal client's 20-edge page alone and beside {@value #HOSTILE_CLIENTS} hostile clients, in turns
 * (alone 10 s, beside 10 s, twice over), its p50 and p99 beside against alone and its failures, and what became of
 * the hostile requests per second by kind ({@link Hostile}). Part of the main section, or alone after a warm-up
 * ({@code BENCH_ONLY=fairness}).
 */
public final class Fairness {

	private static final byte[] ERRORS = "\"errors\"".getBytes(StandardCharsets.UTF_8);

	private static final byte[] TOO_COMPLEX = "\"QUERY_TOO_COMPLEX\"".getBytes(StandardCharsets.UTF_8);

	private static final byte[] SCANNED = "\"scannedCount\":".getBytes(StandardCharsets.UTF_8);

	/** Hostile clients, beside the normal one in the fairness section. */
	private static final int HOSTILE_CLIENTS = 8;

	private final Bench bench;

	public Fairness(Bench bench) {
		this.bench = bench;
	}

	/** The fairness section alone ({@code BENCH_ONLY=fairness}), after the same warm-up as the full run. */
	public void runAlone() throws Exception {
		System.out.println("Warming up under load ...");
		List<String> cursors = this.bench.walkCursors(BenchData.category(5), 100);
		this.bench.warmUp(cursors, BenchData.category(5), Bench.rawPage(BenchData.category(3)));
		// The full run has measured for minutes before its fairness section: as long again of 8 clients' pages.
		List<byte[]> bodies = cursors.stream()
			.map((cursor) -> body(Bench.PAGE_20, vars("c", BenchData.category(5), "a", cursor)))
			.toList();
		long end = System.nanoTime() + Duration.ofSeconds(120).toNanos();
		try (Clients<Integer> clients = Clients.start(8, (client) -> () -> {
			ThreadLocalRandom random = ThreadLocalRandom.current();
			while (System.nanoTime() < end) {
				this.bench.postPage(bodies.get(random.nextInt(bodies.size())));
			}
			return 0;
		})) {
			clients.join();
		}
		run(cursors, BenchData.category(5));
	}

	/**
	 * A normal client's 20-edge page alone and beside the hostile clients, and what became of the hostile requests.
	 * The hostile clients loop over the kinds of {@link Hostile}: the ones the cost limits refuse before reading, and
	 * the heaviest they let through, which the request's read budget cuts and its cap on calls in flight keeps to a
	 * share of DynamoDB.
	 */
	public void run(List<String> cursors, String category) throws Exception {
		System.out.printf("Fairness: a 20-edge page alone and beside %d hostile clients ...%n", HOSTILE_CLIENTS);
		for (Hostile kind : Hostile.values()) {
			Outcome outcome = hostile(kind.body);
			if (outcome != kind.expected) {
				throw new IllegalStateException("hostile request %s: expected %s, got %s".formatted(kind, kind.expected,
						outcome));
			}
		}
		List<byte[]> bodies = cursors.stream().map((cursor) -> body(Bench.PAGE_20, vars("c", category, "a", cursor))).toList();
		this.bench.normalWindow(bodies, Duration.ofSeconds(3), new ArrayList<>());
		Windows windows = new Windows();
		this.bench.failures.clear();
		for (int round = 0; round < 2; round++) {
			round(bodies, windows);
		}
		rows(windows);
	}

	/** The normal client's latencies and failures alone and beside, and the hostile outcomes and their seconds. */
	private static final class Windows {

		final List<Double> alone = new ArrayList<>();

		final List<Double> beside = new ArrayList<>();

		final int[] errors = new int[2];

		final long[][] outcomes = new long[Hostile.values().length][Outcome.values().length];

		double hostileSeconds;

	}

	/** 10 s alone, then the hostile clients for 12 s, the normal client measuring beside them after their first 2. */
	private void round(List<byte[]> bodies, Windows windows) throws Exception {
		windows.errors[0] += this.bench.normalWindow(bodies, Duration.ofSeconds(10), windows.alone);
		long started = System.nanoTime();
		long end = started + Duration.ofSeconds(12).toNanos();
		try (Clients<long[][]> hostile = Clients.start(HOSTILE_CLIENTS, (client) -> () -> {
			long[][] counts = new long[Hostile.values().length][Outcome.values().length];
			for (int i = client; System.nanoTime() < end; i++) {
				Hostile kind = Hostile.values()[i % Hostile.values().length];
				counts[kind.ordinal()][hostile(kind.body).ordinal()]++;
			}
			return counts;
		})) {
			// The hostile clients reach their pace, then the normal client measures beside them.
			Thread.sleep(2_000);
			windows.errors[1] += this.bench.normalWindow(bodies, Duration.ofSeconds(10), windows.beside);
			for (long[][] counts : hostile.join()) {
				for (int k = 0; k < counts.length; k++) {
					for (int o = 0; o < counts[k].length; o++) {
						windows.outcomes[k][o] += counts[k][o];
					}
				}
			}
		}
		windows.hostileSeconds += (System.nanoTime() - started) / 1e9;
	}

	private void rows(Windows windows) {
		double[] a = windows.alone.stream().mapToDouble(Double::doubleValue).toArray();
		double[] b = windows.beside.stream().mapToDouble(Double::doubleValue).toArray();
		int[] errors = windows.errors;
		double ratio = percentile(b, 50) / percentile(a, 50);
		this.bench.row("normal 20-edge page beside %d hostile clients vs alone: p50".formatted(HOSTILE_CLIENTS),
				ms(percentile(b, 50)), ms(percentile(a, 50)), "%.2fx".formatted(ratio), "<= 2x", ratio <= 2);
		this.bench.row("... p99", ms(percentile(b, 99)), ms(percentile(a, 99)),
				"%.2fx".formatted(percentile(b, 99) / percentile(a, 99)), "-", null);
		this.bench.row("... normal pages served / failed (beside | alone)", "%d / %d".formatted(b.length, errors[1]),
				"%d / %d".formatted(a.length, errors[0]), "-", "0 failed", errors[0] == 0 && errors[1] == 0);
		for (String failure : this.bench.failures) {
			System.out.println("  a normal page failed: " + failure);
		}
		long[] totals = new long[Outcome.values().length];
		for (Hostile kind : Hostile.values()) {
			long[] counts = windows.outcomes[kind.ordinal()];
			for (int o = 0; o < counts.length; o++) {
				totals[o] += counts[o];
			}
			this.bench.row("... hostile: %s: refused / cut / served / failed per s".formatted(kind.description),
					perSecond(counts, windows.hostileSeconds), "-", "-", kind.expected.name().toLowerCase(Locale.ROOT),
					counts[Outcome.FAILED.ordinal()] == 0 && counts[kind.expected.ordinal()] == sum(counts));
			this.bench.figures.put("hostile" + kind.name(), counts);
		}
		this.bench.row("... hostile, all kinds: refused / cut / served / failed per s",
				perSecond(totals, windows.hostileSeconds), "-", "-", "-", null);
		this.bench.figures.put("fairnessP50AloneMs", percentile(a, 50));
		this.bench.figures.put("fairnessP50BesideMs", percentile(b, 50));
		this.bench.figures.put("fairnessNormalErrors", errors);
	}

	private static String perSecond(long[] counts, double seconds) {
		return "%.1f / %.1f / %.1f / %.1f".formatted(counts[0] / seconds, counts[1] / seconds, counts[2] / seconds,
				counts[3] / seconds);
	}

	private static long sum(long[] counts) {
		long sum = 0;
		for (long count : counts) {
			sum += count;
		}
		return sum;
	}

	/**
	 * Sends a hostile request and tells what became of it, reading only the end of the answer (where
	 * {@code extensions.dynamodb} is): refused by the cost limits, cut (it scanned the whole request
	 * budget), served, or failed (any other error or status).
	 */
	private Outcome hostile(byte[] body) {
		return this.bench.graphQl().exchange(body, (status, bytes) -> {
			if (status != 200) {
				return Outcome.FAILED;
			}
			if (indexOf(bytes, TOO_COMPLEX) >= 0) {
				return Outcome.REFUSED;
			}
			int from = Math.max(0, bytes.length - 400);
			byte[] tail = Arrays.copyOfRange(bytes, from, bytes.length);
			if (indexOf(tail, ERRORS) >= 0 || (from > 0 && indexOf(bytes, ERRORS) >= 0)) {
				return Outcome.FAILED;
			}
			int at = indexOf(tail, SCANNED);
			if (at < 0) {
				return Outcome.FAILED;
			}
			long scanned = 0;
			for (int i = at + SCANNED.length; i < tail.length && Character.isDigit(tail[i]); i++) {
				scanned = scanned * 10 + (tail[i] - '0');
			}
			return (scanned >= Bench.REQUEST_BUDGET) ? Outcome.CUT : Outcome.SERVED;
		}, Outcome.FAILED);
	}

}
