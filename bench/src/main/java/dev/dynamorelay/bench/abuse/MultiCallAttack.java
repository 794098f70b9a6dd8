package dev.dynamorelay.bench.abuse;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.dynamorelay.bench.fairness.Hostile;
import dev.dynamorelay.bench.support.Bench;
import dev.dynamorelay.bench.support.BenchData;
import dev.dynamorelay.bench.support.Clients;
import dev.dynamorelay.bench.support.GraphQl;
import dev.dynamorelay.bench.support.Stats;

/**
 * Attack 3 of issue 31: requests of many DynamoDB calls beside steady one-page traffic. The four multi-call requests
 * {@value #MULTI_CALL_ROUNDS} times alone, in turns, then in turns again while the normal page runs on
 * {@value Abuse#NORMAL_CLIENTS} connections; each request's p50 beside against alone, its failures and its longest
 * answer, and the normal page's p50 beside the four against alone.
 */
final class MultiCallAttack {

	/** Rounds of the four multi-call requests, alone and beside the normal connections (at most). */
	private static final int MULTI_CALL_ROUNDS = 10;

	/** The most the four multi-call requests' rounds beside the normal connections may take. */
	private static final Duration MULTI_CALL_WINDOW = Duration.ofSeconds(90);

	/**
	 * The four requests of issue 31's finding 3, on the benchmark's data: legitimate requests of several to a
	 * couple of hundred DynamoDB calls, which the order by calls started alone starved beside steady one-page
	 * requests.
	 */
	enum MultiCall {

		USERS_PURCHASES("users(first: 20) -> purchases(first: 10): a Scan and 20 Queries", """
				{ users(first: 20) { edges { node { userId name purchases(first: 10) { edges { node { id product amount } } } } } } }"""),

		INFINITE_SCROLL("the infinite-scroll page's first request: a user, 20 of their 100 purchases, totalCount", """
				{ user(userId: "%s") { id userId name purchases(first: 20, order: ASC) { totalCount
				  edges { cursor node { id purchasedAt product category amount } } pageInfo { hasNextPage endCursor } } } }"""
			.formatted(BenchData.userId(7))),

		COUNTED_PAGE("a page of 20 movies with totalCount (the 100 titles of a prefix)", """
				{ movies(year: %d, titlePrefix: "m00012", first: 20) { totalCount edges { cursor node { title rating } }
				  pageInfo { hasNextPage endCursor } } }""".formatted(BenchData.MOVIE_YEAR)),

		/** The fairness section's "100 users x 100 purchases x user", which the cost limits let through. */
		README_EXAMPLE("README's 20,100-item example (docs/limits.md): 100 users x 100 purchases x their user",
				Hostile.NESTED.body);

		final String description;

		final byte[] body;

		MultiCall(String description, String document) {
			this(description, GraphQl.body(document, Map.of()));
		}

		MultiCall(String description, byte[] body) {
			this.description = description;
			this.body = body;
		}

	}

	/** One multi-call request's answers: seconds each took, and how each failed (none if served). */
	private record MultiCallAnswers(List<Double> seconds, List<String> failures) {

		MultiCallAnswers() {
			this(Collections.synchronizedList(new ArrayList<>()), Collections.synchronizedList(new ArrayList<>()));
		}

		double p50Millis() {
			return Stats.percentile(this.seconds.stream().mapToDouble(Double::doubleValue).toArray(), 50) * 1000;
		}

		double longest() {
			return this.seconds.stream().mapToDouble(Double::doubleValue).max().orElse(0);
		}

	}

	/** Attack 3's figures: each request alone and beside the normal page's connections, and those pages. */
	private record Results(Map<MultiCall, MultiCallAnswers> alone, Map<MultiCall, MultiCallAnswers> beside,
			Normal pages) {

	}

	private final Bench bench;

	private final Attacker attacker;

	/** {@code dynamo-relay.dynamodb.timeout}: the deadline of a request's reads. */
	private final Duration deadline;

	private Results results;

	MultiCallAttack(Bench bench, Attacker attacker, Duration deadline) {
		this.bench = bench;
		this.attacker = attacker;
		this.deadline = deadline;
	}

	/**
	 * Attack 3: each of the four multi-call requests {@value #MULTI_CALL_ROUNDS} times alone, in turns, then in
	 * turns again while the normal page runs on {@value Abuse#NORMAL_CLIENTS} connections (for at most
	 * {@link #MULTI_CALL_WINDOW}); the one-page requests keep calls of requests that have started none waiting
	 * for DynamoDB's places all the while.
	 */
	void run(List<byte[]> bodies) throws Exception {
		System.out.printf("Abuse: attack 3, %d requests of many calls, %d rounds alone ...%n", MultiCall.values().length,
				MULTI_CALL_ROUNDS);
		Map<MultiCall, MultiCallAnswers> alone = new EnumMap<>(MultiCall.class);
		Map<MultiCall, MultiCallAnswers> beside = new EnumMap<>(MultiCall.class);
		for (MultiCall request : MultiCall.values()) {
			alone.put(request, new MultiCallAnswers());
			beside.put(request, new MultiCallAnswers());
		}
		for (int round = 0; round < MULTI_CALL_ROUNDS; round++) {
			for (MultiCall request : MultiCall.values()) {
				multiCall(request, alone.get(request));
			}
		}
		System.out.printf("Abuse: attack 3, the same beside the normal page on %d connections ...%n", Abuse.NORMAL_CLIENTS);
		AtomicBoolean stop = new AtomicBoolean();
		List<List<Double>> latencies = new ArrayList<>();
		for (int c = 0; c < Abuse.NORMAL_CLIENTS; c++) {
			latencies.add(new ArrayList<>());
		}
		int failed;
		try (Clients<Integer> clients = Clients.start(Abuse.NORMAL_CLIENTS,
				(client) -> () -> pagesUntil(stop, bodies, latencies.get(client)))) {
			// The connections reach their pace, then the four go in turns beside them.
			Thread.sleep(2_000);
			long end = System.nanoTime() + MULTI_CALL_WINDOW.toNanos();
			for (int round = 0; round < MULTI_CALL_ROUNDS && System.nanoTime() < end; round++) {
				for (MultiCall request : MultiCall.values()) {
					multiCall(request, beside.get(request));
				}
			}
			stop.set(true);
			failed = clients.join().stream().mapToInt(Integer::intValue).sum();
		}
		this.results = new Results(alone, beside,
				new Normal(latencies.stream().flatMap(List::stream).mapToDouble(Double::doubleValue).toArray(), failed));
	}

	/** One multi-call request on the attacks' client: served is 200 with no error in it. */
	private void multiCall(MultiCall request, MultiCallAnswers answers) {
		Exchange answer = this.attacker.exchange(this.attacker.post("/graphql", request.body));
		answers.seconds.add(answer.seconds());
		if (answer.status() != 200 || answer.body() == null || GraphQl.indexOf(answer.body(), Attacker.ERRORS) >= 0) {
			answers.failures.add((answer.body() != null && GraphQl.indexOf(answer.body(), Attacker.UNAVAILABLE) >= 0)
					? "%d UNAVAILABLE".formatted(answer.status()) : answer.describe());
		}
	}

	/** A normal client until {@code stop}: the page's latencies; returns how many pages failed. */
	private int pagesUntil(AtomicBoolean stop, List<byte[]> bodies, List<Double> latencies) {
		ThreadLocalRandom random = ThreadLocalRandom.current();
		int failed = 0;
		while (!stop.get()) {
			long start = System.nanoTime();
			try {
				this.bench.postPage(bodies.get(random.nextInt(bodies.size())));
				latencies.add((System.nanoTime() - start) / 1e6);
			}
			catch (RuntimeException ex) {
				failed++;
				if (this.bench.failures.size() < 5) {
					String message = String.valueOf(ex.getMessage());
					this.bench.failures.add(message.substring(0, Math.min(message.length(), 400)));
				}
			}
		}
		return failed;
	}

	/**
	 * Attack 3's rows: each request's p50 beside the normal connections against alone, its failures, its longest
	 * answer; and the normal page's p50 beside the four against the normal page alone.
	 */
	void report(Normal pagesAlone) {
		Results multiCalls = this.results;
		double limit = this.deadline.plus(Attacker.DEADLINE_MARGIN).toMillis() / 1000.0;
		Map<String, Map<String, Object>> figures = new LinkedHashMap<>();
		for (MultiCall request : MultiCall.values()) {
			MultiCallAnswers alone = multiCalls.alone.get(request);
			MultiCallAnswers beside = multiCalls.beside.get(request);
			double longest = beside.longest();
			Map<String, Long> how = new TreeMap<>();
			beside.failures.forEach((failure) -> how.merge(failure, 1L, Long::sum));
			this.bench.row("abuse: attack 3: %s, beside the normal page on %d connections vs alone: p50"
				.formatted(request.description, Abuse.NORMAL_CLIENTS), Stats.ms(beside.p50Millis()),
					Stats.ms(alone.p50Millis()),
					"%.1fx; failed %d of %d beside%s, %d of %d alone; longest %.2f s".formatted(
							beside.p50Millis() / alone.p50Millis(), beside.failures.size(), beside.seconds.size(),
							how.isEmpty() ? "" : " " + how, alone.failures.size(), alone.seconds.size(), longest),
					"0 failed; within the timeout + %d s".formatted(Attacker.DEADLINE_MARGIN.toSeconds()),
					beside.failures.isEmpty() && alone.failures.isEmpty() && !beside.seconds.isEmpty() && longest <= limit);
			Map<String, Object> each = new LinkedHashMap<>();
			each.put("aloneP50Ms", alone.p50Millis());
			each.put("besideP50Ms", beside.p50Millis());
			each.put("aloneFailed", alone.failures.size());
			each.put("aloneSent", alone.seconds.size());
			each.put("besideFailed", beside.failures.size());
			each.put("besideSent", beside.seconds.size());
			each.put("besideLongestSeconds", longest);
			figures.put(request.name(), each);
		}
		Normal pages = multiCalls.pages;
		this.bench.row("... attack 3: the normal page on %d connections beside the four vs alone: p50".formatted(
				Abuse.NORMAL_CLIENTS), Stats.ms(pages.p(50)), Stats.ms(pagesAlone.p(50)),
				"%.2fx; p99 %s; %,d served, %d failed".formatted(pages.p(50) / pagesAlone.p(50), Stats.ms(pages.p(99)),
						pages.latencies().length, pages.failed()),
				"0 failed", pages.failed() == 0);
		figures.put("normalPage", Map.of("besideP50Ms", pages.p(50), "aloneP50Ms", pagesAlone.p(50), "failed",
				pages.failed()));
		this.bench.figures.put("abuseMultiCall", figures);
	}

}
