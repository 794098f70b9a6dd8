package dev.dynamorelay.bench.abuse;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.dynamorelay.bench.support.Bench;
import dev.dynamorelay.bench.support.Stats;

/**
 * The abuse section's rows: the normal page beside the attacks against alone, every attack's answers by kind against
 * its target, the deadline requests' longest answer, the scrapes, the server's own refusal and error counters, what
 * it logged, and the figures for results.json.
 */
final class AbuseReport {

	private final Bench bench;

	private final Answers answers;

	/** The attacked window's length. */
	private final Duration window;

	private final Duration deadline;

	private final Duration bodyTimeout;

	AbuseReport(Bench bench, Answers answers, Duration window, Duration deadline, Duration bodyTimeout) {
		this.bench = bench;
		this.answers = answers;
		this.window = window;
		this.deadline = deadline;
		this.bodyTimeout = bodyTimeout;
	}

	/** The body time's margin: Tomcat looks for timed-out asynchronous requests once a second. */
	private static final Duration BODY_MARGIN = Duration.ofSeconds(2);

	void normal(Normal alone, Normal attacked, Normal again, double attackSeconds) {
		double ratio = attacked.p(50) / alone.p(50);
		this.bench.row("abuse: normal 20-edge page, %d clients, beside the attacks vs alone: p50".formatted(Abuse.NORMAL_CLIENTS),
				Stats.ms(attacked.p(50)), Stats.ms(alone.p(50)), "%.2fx".formatted(ratio), "<= 2x", ratio <= 2);
		this.bench.row("... p99", Stats.ms(attacked.p(99)), Stats.ms(alone.p(99)),
				"%.2fx".formatted(attacked.p(99) / alone.p(99)), "-", null);
		this.bench.row("... normal pages served / failed (beside | alone)",
				"%,d / %d".formatted(attacked.latencies().length, attacked.failed()),
				"%,d / %d".formatted(alone.latencies().length, alone.failed()),
				"%.0f | %.0f pages/s".formatted(attacked.latencies().length / (double) this.window.toSeconds(),
						alone.latencies().length / (double) Abuse.ALONE.toSeconds()),
				"0 failed", attacked.failed() == 0 && alone.failed() == 0);
		List<String> failures;
		synchronized (this.bench.failures) {
			failures = List.copyOf(this.bench.failures);
		}
		for (String failure : failures.subList(0, Math.min(5, failures.size()))) {
			System.out.println("  a normal page failed: " + failure);
		}
		this.bench.row("... alone again after the attacks vs alone before: p50", Stats.ms(again.p(50)),
				Stats.ms(alone.p(50)), "%.2fx (p99 %s, %d failed)".formatted(again.p(50) / alone.p(50),
						Stats.ms(again.p(99)), again.failed()),
				"-", null);
		for (Kind kind : Kind.values()) {
			kindRow(kind, attackSeconds);
		}
		deadlineRow();
	}

	/** A kind's row: its answers, each against the kind's target. */
	private void kindRow(Kind kind, double attackSeconds) {
		Map<String, LongAdder> counts = this.answers.answers.getOrDefault(kind, Map.of());
		long sent = 0;
		boolean expected = !counts.isEmpty();
		for (Map.Entry<String, LongAdder> each : counts.entrySet()) {
			String answer = each.getKey().substring(each.getKey().indexOf(" -> ") + 4);
			if (kind == Kind.SLOW && each.getKey().startsWith("open at the end")) {
				continue;
			}
			sent += each.getValue().sum();
			expected &= kind.expected.test(answer);
		}
		String relay = "%,d answered (%.1f/s)".formatted(sent, sent / attackSeconds);
		String figure = this.answers.of(kind);
		String target = switch (kind) {
			case LABELS -> "200 with data";
			case OVERSIZED -> "413 INVALID_ARGUMENT";
			case SLOW -> "408 INVALID_ARGUMENT within %d s + %d s".formatted(this.bodyTimeout.toSeconds(),
					BODY_MARGIN.toSeconds());
			case DEADLINE -> "200 (served, cut or UNAVAILABLE)";
			case FORGED_IDS -> "200 INVALID_ARGUMENT before any read";
			case URLS -> "400 INVALID_ARGUMENT";
			case TYPES -> "400 INVALID_ARGUMENT; 405 with the path's Allow";
			case PUBLIC_ACTUATOR -> "404 NOT_FOUND";
		};
		boolean met = expected;
		if (kind == Kind.SLOW) {
			double longest = this.answers.longest(Kind.SLOW);
			figure += "; refused after %.1f s at most".formatted(longest);
			met &= longest <= (this.bodyTimeout.plus(BODY_MARGIN).toMillis() / 1000.0);
		}
		if (kind == Kind.OVERSIZED) {
			figure += "; the client had sent at most " + this.answers.sentBeforeRefusal.entrySet()
				.stream()
				.map((e) -> "%s %.1f MB".formatted(e.getKey(), e.getValue().get() / 1024.0 / 1024.0))
				.sorted()
				.reduce((a, b) -> a + ", " + b)
				.orElse("-");
		}
		this.bench.row("... attack: " + kind.description, relay, "-", figure, target, met);
	}

	/** The longest answer of the requests that run into the deadline, against the timeout and its margin. */
	private void deadlineRow() {
		double longest = this.answers.longest(Kind.DEADLINE);
		double limit = this.deadline.plus(Attacker.DEADLINE_MARGIN).toMillis() / 1000.0;
		ConcurrentLinkedQueue<Double> times = this.answers.seconds.getOrDefault(Kind.DEADLINE, new ConcurrentLinkedQueue<>());
		double[] sorted = times.stream().mapToDouble(Double::doubleValue).toArray();
		this.bench.row("... deadline attacks: longest answer", "%.2f s".formatted(longest), "-",
				(sorted.length == 0) ? "-" : "p50 %.2f s, p99 %.2f s, timeout %s".formatted(Stats.percentile(sorted, 50),
						Stats.percentile(sorted, 99), this.deadline.toSeconds() + " s"),
				"<= timeout + %d s (%.0f s)".formatted(Attacker.DEADLINE_MARGIN.toSeconds(), limit),
				sorted.length > 0 && longest <= limit);
		this.answers.late.stream().limit(10).forEach((late) -> System.out.println("  a deadline attack answered late: " + late));
	}

	void scrapes(List<Monitoring.Scrape> scrapes, Monitoring.Scrape first, Monitoring.Scrape last) {
		long answered = scrapes.stream().filter(Monitoring.Scrape::answered).count();
		double slowest = scrapes.stream().mapToDouble(Monitoring.Scrape::millis).max().orElse(0);
		int largest = scrapes.stream().mapToInt((scrape) -> scrape.text().length()).max().orElse(0);
		Set<String> operations = new HashSet<>();
		int longestLabel = 0;
		Matcher labels = Pattern.compile("operation=\"([^\"]*)\"").matcher(last.text());
		while (labels.find()) {
			operations.add(labels.group(1));
			longestLabel = Math.max(longestLabel, labels.group(1).length());
		}
		this.bench.row("abuse: /actuator/prometheus on the management port every 10 s",
				"%d of %d answered".formatted(answered, scrapes.size()), "-",
				"slowest %s, largest %,d chars (%,d before the attacks); %d operation labels, the longest %d chars"
					.formatted(Stats.ms(slowest), largest, first.text().length(), operations.size(), longestLabel),
				"each answers 200 within 10 s; labels <= 100 chars", answered == scrapes.size() && !scrapes.isEmpty()
						&& longestLabel <= 100);
	}

	/** The server's own count of its refusals over the window (docs/limits.md's "the operator sees"). */
	void refusals(Monitoring.Scrape before, Monitoring.Scrape after) {
		Map<String, Double> start = counters(before.text());
		Map<String, Double> end = counters(after.text());
		StringBuilder figure = new StringBuilder();
		double unexpected = 0;
		for (Map.Entry<String, Double> each : end.entrySet()) {
			double delta = each.getValue() - start.getOrDefault(each.getKey(), 0.0);
			if (delta > 0) {
				figure.append((figure.length() == 0) ? "" : ", ").append(each.getKey()).append(" +%,.0f".formatted(delta));
				if (each.getKey().equals("errors{INTERNAL}") || each.getKey().equals("errors{OTHER}")) {
					unexpected += delta;
				}
			}
		}
		// Every attack is the client's fault: an operator alerting on INTERNAL should not hear of it.
		this.bench.row("... the server's counters over the window (dynamorelay_http_refusals_total, _errors_total, "
				+ "_cost_limit_refusals_total)", figure.toString(), "-", "-", "no errors{INTERNAL} or {OTHER}",
				unexpected == 0);
	}

	private static Map<String, Double> counters(String scrape) {
		Map<String, Double> counters = new TreeMap<>();
		Matcher line = Pattern
			.compile("^(dynamorelay_(?:http_refusals|errors|cost_limit_refusals)_total)\\{([^}]*)\\} (\\S+)$",
					Pattern.MULTILINE)
			.matcher(scrape);
		while (line.find()) {
			String name = line.group(1).replace("dynamorelay_", "").replace("_total", "");
			Matcher label = Pattern.compile("(reason|code|limit)=\"([^\"]*)\"").matcher(line.group(2));
			String key = label.find() ? name + "{" + label.group(2) + "}" : name;
			counters.merge(key, Double.parseDouble(line.group(3)), Double::sum);
		}
		return counters;
	}

	/** What the server logged while attacked: one WARN per request answered UNAVAILABLE, and nothing else. */
	void logLines(List<String> logged) {
		long unavailable = logged.stream().filter((line) -> line.contains("DynamoDB unavailable for request")).count();
		long backstop = logged.stream().filter((line) -> line.contains("was not answered within")).count();
		List<String> others = logged.stream()
			.filter((line) -> !line.contains("DynamoDB unavailable for request") && !line.contains("was not answered within"))
			.toList();
		this.bench.row("... server.log lines written during the attacks",
				"%,d".formatted(logged.size()), "-",
				"%,d 'DynamoDB unavailable for request', %d backstop, %d other".formatted(unavailable, backstop,
						others.size()),
				"none per refused request", others.isEmpty());
		for (String line : others.subList(0, Math.min(5, others.size()))) {
			System.out.println("  logged: " + line.substring(0, Math.min(line.length(), 300)));
		}
	}

	void figures(Normal alone, Normal attacked, Memory start, Memory end, int missed) {
		this.bench.figures.put("abuseSeconds", this.window.toSeconds());
		this.bench.figures.put("abuseP50AloneMs", alone.p(50));
		this.bench.figures.put("abuseP50BesideMs", attacked.p(50));
		this.bench.figures.put("abuseP99AloneMs", alone.p(99));
		this.bench.figures.put("abuseP99BesideMs", attacked.p(99));
		this.bench.figures.put("abuseNormalFailed", attacked.failed() + alone.failed());
		this.bench.figures.put("abuseHeapStartBytes", start.heap());
		this.bench.figures.put("abuseHeapEndBytes", end.heap());
		this.bench.figures.put("abuseRssStartBytes", start.rss());
		this.bench.figures.put("abuseRssEndBytes", end.rss());
		this.bench.figures.put("abuseProbeSecondsMissed", missed);
		this.bench.figures.put("abuseDeadlineLongestSeconds", this.answers.longest(Kind.DEADLINE));
		this.bench.figures.put("abuseAnswers", this.answers.counts());
	}

}
