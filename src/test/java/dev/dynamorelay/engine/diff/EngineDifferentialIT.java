package dev.dynamorelay.engine.diff;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.dynamorelay.engine.DynamoDbEngine;
import dev.dynamorelay.engine.EngineOptions;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The engine against an independent implementation, answer by answer: seeded random sequences of tables, items and
 * calls, valid and refused ({@link Workload}), sent as they are to dynalite and to the engine, and every pair of
 * answers compared ({@link Answers}): status, error type and message, items and their order, LastEvaluatedKey,
 * Count, ScannedCount, consumed capacity and returned attributes. A difference is a failure unless
 * {@link KnownDifferences} names it, with the documentation that says which side is right.
 *
 * <p>{@code -Ddiff.seeds=N} and {@code -Ddiff.calls=M} run more (defaults 12 and 400); {@code -Ddiff.seed=S} one seed.
 */
class EngineDifferentialIT {

	private static Dynalite dynalite;

	private static DynamoDbEngine engine;

	@BeforeAll
	static void start() {
		dynalite = Dynalite.start();
		engine = DynamoDbEngine.start(EngineOptions.defaults());
	}

	@AfterAll
	static void stop() {
		if (dynalite != null) {
			dynalite.close();
		}
		if (engine != null) {
			engine.close();
		}
	}

	@Test
	void answersAsDynaliteDoesOrAsTheDocumentationSays() {
		RawDynamoDb reference = new RawDynamoDb(dynalite.endpoint());
		RawDynamoDb tested = new RawDynamoDb(engineEndpoint());
		List<Long> seeds = seeds();
		int calls = Integer.getInteger("diff.calls", 400);
		Map<String, int[]> byOperation = new TreeMap<>();
		Map<String, Integer> excused = new TreeMap<>();
		List<String> unexplained = new ArrayList<>();
		Map<String, Integer> refusals = new TreeMap<>();
		for (long seed : seeds) {
			Workload workload = new Workload(seed, "s" + seed);
			for (int i = 0; i < calls; i++) {
				Workload.Call call = workload.next();
				String body = call.body().toString();
				RawDynamoDb.Answer expected = reference.call(call.target(), body);
				RawDynamoDb.Answer answered = tested.call(call.target(), body);
				if (("" + seed + ":" + i).equals(System.getProperty("diff.show"))) {
					System.out.println("CALL " + call.target() + " " + body + "\nDYNALITE " + expected.status() + " "
							+ expected.text() + "\nENGINE " + answered.status() + " " + answered.text());
				}
				workload.observe(call, expected);
				if (call.operation().equals("CreateTable") && expected.status() == 200) {
					String table = call.body().get("TableName").asString();
					awaitActive(reference, table);
					awaitActive(tested, table);
				}
				int[] counts = byOperation.computeIfAbsent(call.operation(), (key) -> new int[2]);
				counts[0]++;
				if (expected.type() != null) {
					counts[1]++;
					if (Boolean.getBoolean("diff.verbose")) {
						String message = String.valueOf(expected.message());
						refusals.merge(call.operation() + (call.label().contains("refused") ? " (spoiled) " : " ")
								+ message.substring(0, Math.min(110, message.length())), 1, Integer::sum);
					}
				}
				for (Answers.Difference difference : Answers.compare(expected, answered)) {
					String known = KnownDifferences.explain(workload, call, expected, answered, difference);
					if (known != null) {
						excused.merge(known, 1, Integer::sum);
					}
					else if (unexplained.size() < 40) {
						unexplained.add("seed " + seed + " call " + i + " (" + call.label() + "): " + difference + "\n    "
								+ call.target() + " " + body);
					}
				}
			}
		}
		StringBuilder report = new StringBuilder("Differential run: seeds " + seeds + ", " + calls + " calls each\n");
		byOperation.forEach((operation, counts) -> report.append("  %-16s %5d calls, %4d refused by dynalite%n"
			.formatted(operation, counts[0], counts[1])));
		excused.forEach((why, count) -> report.append("  excused %4d x %s%n".formatted(count, why)));
		refusals.forEach((message, count) -> report.append("  refused %4d x %s%n".formatted(count, message)));
		System.out.println(report);
		assertThat(unexplained).as(report.toString()).isEmpty();
	}

	/** Waits (uncompared) until the table is ACTIVE: dynalite makes it so on its next turn, not at once. */
	private static void awaitActive(RawDynamoDb side, String table) {
		for (int i = 0; i < 200; i++) {
			RawDynamoDb.Answer answer = side.call("DynamoDB_20120810.DescribeTable", "{\"TableName\":\"" + table + "\"}");
			if (answer.body() != null && "ACTIVE".equals(answer.body().path("Table").path("TableStatus").asString())) {
				return;
			}
			try {
				Thread.sleep(5);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
		}
		throw new IllegalStateException(table + " did not become ACTIVE");
	}

	private static URI engineEndpoint() {
		return engine.endpoint();
	}

	private static List<Long> seeds() {
		String one = System.getProperty("diff.seed");
		if (one != null) {
			return List.of(Long.parseLong(one));
		}
		List<Long> seeds = new ArrayList<>();
		for (long seed = 1; seed <= Integer.getInteger("diff.seeds", 12); seed++) {
			seeds.add(seed);
		}
		return seeds;
	}

}
