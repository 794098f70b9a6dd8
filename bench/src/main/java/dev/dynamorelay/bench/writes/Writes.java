package dev.dynamorelay.bench.writes;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionCheck;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import tools.jackson.databind.JsonNode;

import dev.dynamorelay.bench.support.Bench;
import dev.dynamorelay.bench.support.BenchData;
import dev.dynamorelay.bench.support.Clients;
import dev.dynamorelay.bench.support.GraphQl;
import dev.dynamorelay.bench.support.Processes;
import dev.dynamorelay.bench.support.Settings;
import dev.dynamorelay.bench.support.Stats;

/**
 * The benchmark's write section ({@code BENCH_ONLY=write}): the sample's declared mutations over HTTP side by
 * side with the raw DynamoDB calls they make, on the same DynamoDB (the engine on its own), in one run.
 *
 * <p>Each raw call is the request the server sends, built here by hand: {@code createPurchase} is a
 * TransactWriteItems of a Put (the item, {@code attribute_not_exists} of its partition key) and a ConditionCheck
 * (the user exists), measured against that transaction and against the Put alone as a PutItem;
 * {@code updatePurchase} with an expected version is an UpdateItem with the same SET, version increment and
 * conditions; {@code createPurchases} of 10 ({@code bench/write-schema.graphqls}, served beside the sample) is a
 * TransactWriteItems of 10 Puts. Latencies are sampled in turns (the order rotating every round), so both sides
 * see the same machine at the same time; writes/s are measured with 8 clients, each writing its own user's
 * purchases, in windows A B B A. {@code BENCH_SECONDS} (30) sets each measurement's length,
 * {@code BENCH_WARMUP_SECONDS} (60) the warm-up's.
 */
public final class Writes {

	/** The bench's list mutation, served beside the sample's schema. */
	static final String SCHEMA = "bench/write-schema.graphqls";

	private static final String CREATE = """
			mutation($input: CreatePurchaseInput!) { createPurchase(input: $input) { id purchasedAt amount version } }""";

	private static final String UPDATE = """
			mutation($input: UpdatePurchaseInput!) { updatePurchase(input: $input) { id amount version } }""";

	private static final String CREATE_MANY = """
			mutation($input: [BenchPurchaseInput!]!) { createPurchases(input: $input) { id } }""";

	private static final byte[] CREATED = "{\"data\":{\"createPurchase\":{".getBytes(StandardCharsets.UTF_8);

	private static final byte[] ERRORS = "\"errors\"".getBytes(StandardCharsets.UTF_8);

	/** Items in the list mutation's transaction. */
	private static final int MANY = 10;

	private static final int CLIENTS = 8;

	/** The target of the issue: what the server adds at p50 over the raw call. */
	private static final double ADDED_MS = 1.5;

	private final Bench bench;

	private final DynamoDbAsyncClient dynamoDb;

	private final long serverPid;

	private final Duration window = Settings.seconds("BENCH_SECONDS", 30);

	private final Duration warmUp = Settings.seconds("BENCH_WARMUP_SECONDS", 60);

	/** Every purchase written here has its own {@code purchasedAt}: one millisecond after the last one. */
	private final AtomicLong clock = new AtomicLong(BenchData.T0 + 100L * 365 * 24 * 3_600_000L);

	public Writes(Bench bench, DynamoDbAsyncClient dynamoDb, long serverPid) {
		this.bench = bench;
		this.dynamoDb = dynamoDb;
		this.serverPid = serverPid;
	}

	/** The server's arguments for this section: the sample's schema and the bench's list mutation. */
	public static List<String> serverArguments() {
		return List.of("--dynamo-relay.schema.locations=classpath:sample-schema/,file:" + SCHEMA);
	}

	public void run() throws Exception {
		System.out.printf("Writes: %d s of warm-up, %d s a measurement ...%n", this.warmUp.toSeconds(),
				this.window.toSeconds());
		String user = BenchData.userId(0);
		sameItems(user);
		warmUp();
		Map<String, Long> calls = new LinkedHashMap<>();

		System.out.println("Measuring createPurchase against a raw TransactWriteItems (Put + ConditionCheck) and PutItem ...");
		double[][] create = interleaved(this.window, () -> createPurchase(user, calls),
				() -> this.dynamoDb.transactWriteItems(rawCreate(user, this.clock.incrementAndGet())).join(),
				() -> this.dynamoDb.putItem(rawPut(user, this.clock.incrementAndGet())).join());
		added("createPurchase over HTTP vs raw TransactWriteItems (Put + ConditionCheck of the user)", create[0], create[1],
				true);
		added("createPurchase over HTTP vs raw PutItem (attribute_not_exists), no user check", create[0], create[2], false);

		System.out.println("Measuring updatePurchase against a raw UpdateItem ...");
		JsonNode created = createPurchase(user, calls);
		String id = created.get("id").asString();
		long[] version = { created.get("version").asLong() };
		long rawAt = this.clock.incrementAndGet();
		this.dynamoDb.putItem(rawPut(user, rawAt)).join();
		long[] rawVersion = { 1 };
		double[][] update = interleaved(this.window, () -> {
			JsonNode updated = mutate(UPDATE, "updatePurchase", GraphQl.vars("input",
					GraphQl.vars("id", id, "amount", amount(), "expectedVersion", version[0])), calls);
			long now = updated.get("version").asLong();
			if (now != version[0] + 1) {
				throw new IllegalStateException("updatePurchase answered version " + now + " after " + version[0]);
			}
			version[0] = now;
		}, () -> {
			long now = Long.parseLong(this.dynamoDb.updateItem(rawUpdate(user, rawAt, rawVersion[0])).join()
				.attributes()
				.get("version")
				.n());
			rawVersion[0] = now;
		});
		added("updatePurchase (expectedVersion) over HTTP vs raw UpdateItem (SET, version + 1, conditions)", update[0],
				update[1], true);

		System.out.printf("Measuring createPurchases of %d against a raw TransactWriteItems of %d Puts ...%n", MANY, MANY);
		double[][] many = interleaved(this.window, () -> createPurchases(user, calls),
				() -> this.dynamoDb.transactWriteItems(rawCreateMany(user)).join());
		added("createPurchases of %d (one transaction) over HTTP vs raw TransactWriteItems of %d Puts".formatted(MANY, MANY),
				many[0], many[1], true);

		throughput();

		this.bench.row("DynamoDB requests per createPurchase / updatePurchase / createPurchases of %d".formatted(MANY),
				"%d / %d / %d".formatted(calls.get("createPurchase"), calls.get("updatePurchase"),
						calls.get("createPurchases")),
				"-", "-", "1 / 1 / 1", calls.values().stream().allMatch((each) -> each == 1));
	}

	/**
	 * Checks that the raw PutItem writes the item {@code createPurchase} writes: the same attributes, so that
	 * both sides write as much.
	 */
	private void sameItems(String user) {
		JsonNode created = createPurchase(user, new LinkedHashMap<>());
		long at = Instant.parse(created.get("purchasedAt").asString()).toEpochMilli();
		long rawAt = this.clock.incrementAndGet();
		this.dynamoDb.putItem(rawPut(user, rawAt)).join();
		TreeSet<String> relay = new TreeSet<>(stored(user, at).keySet());
		TreeSet<String> raw = new TreeSet<>(stored(user, rawAt).keySet());
		if (!relay.equals(raw)) {
			throw new IllegalStateException("createPurchase writes " + relay + ", the raw PutItem " + raw);
		}
		System.out.println("  both write the attributes " + relay);
	}

	private Map<String, AttributeValue> stored(String user, long at) {
		return this.dynamoDb.getItem((get) -> get.tableName("UserPurchases").key(key(user, at)).consistentRead(true))
			.join()
			.item();
	}

	/**
	 * Every write of the section on 8 clients (each its own user), beside 2 clients of the raw calls, for
	 * {@code BENCH_WARMUP_SECONDS}: the JIT compiles the write path of the server and of this JVM's SDK client.
	 */
	private void warmUp() throws Exception {
		long end = System.nanoTime() + this.warmUp.toNanos();
		try (Clients<Integer> clients = Clients.start(CLIENTS + 2, (client) -> () -> {
			String user = BenchData.userId(1 + client);
			Map<String, Long> calls = new LinkedHashMap<>();
			int written = 0;
			long rawAt = this.clock.incrementAndGet();
			this.dynamoDb.putItem(rawPut(user, rawAt)).join();
			long rawVersion = 1;
			JsonNode created = createPurchase(user, calls);
			long version = created.get("version").asLong();
			while (System.nanoTime() < end) {
				if (client >= CLIENTS) {
					this.dynamoDb.transactWriteItems(rawCreate(user, this.clock.incrementAndGet())).join();
					this.dynamoDb.putItem(rawPut(user, this.clock.incrementAndGet())).join();
					rawVersion = Long.parseLong(this.dynamoDb.updateItem(rawUpdate(user, rawAt, rawVersion)).join()
						.attributes()
						.get("version")
						.n());
					this.dynamoDb.transactWriteItems(rawCreateMany(user)).join();
				}
				else {
					createPurchase(user, calls);
					version = mutate(UPDATE, "updatePurchase", GraphQl.vars("input", GraphQl.vars("id",
							created.get("id").asString(), "amount", amount(), "expectedVersion", version)), calls)
						.get("version")
						.asLong();
					if (written % 5 == 0) {
						createPurchases(user, calls);
					}
				}
				written++;
			}
			return written;
		})) {
			clients.join();
		}
	}

	/**
	 * createPurchase on 8 clients against the raw TransactWriteItems it sends on 8 clients, in windows A B B A of
	 * half the measurement each; the server's CPU per write beside.
	 */
	private void throughput() throws Exception {
		System.out.printf("Writes/s: createPurchase on %d clients against the raw TransactWriteItems on %d ...%n", CLIENTS,
				CLIENTS);
		Duration half = this.window.dividedBy(2);
		List<Double> relayLatencies = new ArrayList<>();
		List<Double> rawLatencies = new ArrayList<>();
		long relayWrites = 0;
		long rawWrites = 0;
		long serverCpu = 0;
		for (boolean relay : new boolean[] { true, false, false, true }) {
			long cpu = Processes.processCpuNanos(this.serverPid);
			List<Double> latencies = clients(half, relay);
			if (relay) {
				serverCpu += Processes.processCpuNanos(this.serverPid) - cpu;
				relayLatencies.addAll(latencies);
				relayWrites += latencies.size();
			}
			else {
				rawLatencies.addAll(latencies);
				rawWrites += latencies.size();
			}
		}
		double seconds = this.window.toNanos() / 1e9;
		double relayRate = relayWrites / seconds;
		double rawRate = rawWrites / seconds;
		double[] relay = relayLatencies.stream().mapToDouble(Double::doubleValue).toArray();
		double[] raw = rawLatencies.stream().mapToDouble(Double::doubleValue).toArray();
		this.bench.row("createPurchase on %d clients (each its own user and purchasedAt) vs the raw TransactWriteItems on %d: writes/s"
			.formatted(CLIENTS, CLIENTS), "%.0f writes/s".formatted(relayRate), "%.0f writes/s".formatted(rawRate),
				"%.2fx".formatted(relayRate / rawRate), "-", null);
		this.bench.row("... p99 at %d clients".formatted(CLIENTS), Stats.ms(Stats.percentile(relay, 99)),
				Stats.ms(Stats.percentile(raw, 99)),
				"%+.2f ms".formatted(Stats.percentile(relay, 99) - Stats.percentile(raw, 99)), "-", null);
		this.bench.row("... server CPU per createPurchase at %d clients".formatted(CLIENTS),
				"%.2f ms".formatted(serverCpu / 1e6 / relayWrites), "-", "-", "-", null);
		this.bench.figures.put("writeCreatePerSecond", relayRate);
		this.bench.figures.put("writeRawTransactPerSecond", rawRate);
		this.bench.figures.put("writeServerCpuMsPerCreate", serverCpu / 1e6 / relayWrites);
	}

	/** 8 clients writing for {@code duration}, each its own user's purchases: the latencies of their writes. */
	private List<Double> clients(Duration duration, boolean relay) throws Exception {
		long end = System.nanoTime() + duration.toNanos();
		List<Double> all = new ArrayList<>();
		try (Clients<List<Double>> clients = Clients.start(CLIENTS, (client) -> () -> {
			String user = BenchData.userId(1 + client);
			List<Double> latencies = new ArrayList<>();
			while (true) {
				long start = System.nanoTime();
				if (start > end) {
					return latencies;
				}
				long at = this.clock.incrementAndGet();
				if (relay) {
					byte[] body = GraphQl.body(CREATE, GraphQl.vars("input", input(user, at)));
					this.bench.send(body, (bytes) -> GraphQl.startsWith(bytes, CREATED)
							&& GraphQl.indexOf(bytes, ERRORS) < 0 ? bytes : null);
				}
				else {
					this.dynamoDb.transactWriteItems(rawCreate(user, at)).join();
				}
				latencies.add((System.nanoTime() - start) / 1e6);
			}
		})) {
			clients.join().forEach(all::addAll);
		}
		return all;
	}

	/** A row of p50 and one of p99, the server's against the raw call's; the p50 with the target. */
	private void added(String measure, double[] relay, double[] raw, boolean target) {
		double p50 = Stats.percentile(relay, 50);
		double rawP50 = Stats.percentile(raw, 50);
		double p99 = Stats.percentile(relay, 99);
		double rawP99 = Stats.percentile(raw, 99);
		this.bench.row(measure + ": p50", Stats.ms(p50), Stats.ms(rawP50),
				"%+.2f ms (%.2fx)".formatted(p50 - rawP50, p50 / rawP50),
				target ? "added <= %.1f ms".formatted(ADDED_MS) : "-", target ? p50 - rawP50 <= ADDED_MS : null);
		this.bench.row("... p99 (%d samples each)".formatted(relay.length), Stats.ms(p99), Stats.ms(rawP99),
				"%+.2f ms (%.2fx)".formatted(p99 - rawP99, p99 / rawP99), "-", null);
	}

	private JsonNode createPurchase(String user, Map<String, Long> calls) {
		return mutate(CREATE, "createPurchase", GraphQl.vars("input", input(user, this.clock.incrementAndGet())), calls);
	}

	private void createPurchases(String user, Map<String, Long> calls) {
		List<Map<String, Object>> inputs = new ArrayList<>(MANY);
		for (int i = 0; i < MANY; i++) {
			inputs.add(input(user, this.clock.incrementAndGet()));
		}
		JsonNode created = mutate(CREATE_MANY, "createPurchases", GraphQl.vars("input", inputs), calls);
		if (created.size() != MANY) {
			throw new IllegalStateException("createPurchases answered " + created);
		}
	}

	/** A mutation over HTTP: its field's answer; the DynamoDB requests it made are kept in {@code calls}. */
	private JsonNode mutate(String document, String field, Map<String, Object> variables, Map<String, Long> calls) {
		JsonNode answer = this.bench.post(document, variables);
		JsonNode requests = answer.path("extensions").path("dynamodb").path("requests");
		if (!requests.isMissingNode()) {
			calls.put(field, requests.asLong());
		}
		return answer.get("data").get(field);
	}

	private static Map<String, Object> input(String user, long at) {
		return GraphQl.vars("userId", user, "purchasedAt", Instant.ofEpochMilli(at).toString(), "product",
				"Product of a bench write, a typical name", "category", BenchData.category((int) (at % BenchData.CATEGORIES)),
				"amount", amount());
	}

	private static long amount() {
		return 1 + java.util.concurrent.ThreadLocalRandom.current().nextInt(500);
	}

	/** The item {@code createPurchase} writes for {@link #input}: its fields and version 1. */
	private static Map<String, AttributeValue> item(String user, long at) {
		Map<String, AttributeValue> item = new LinkedHashMap<>(key(user, at));
		item.put("product", AttributeValue.fromS("Product of a bench write, a typical name"));
		item.put("category", AttributeValue.fromS(BenchData.category((int) (at % BenchData.CATEGORIES))));
		item.put("amount", AttributeValue.fromN(Long.toString(amount())));
		item.put("version", AttributeValue.fromN("1"));
		return item;
	}

	private static Map<String, AttributeValue> key(String user, long at) {
		return Map.of("userId", AttributeValue.fromS(user), "purchasedAt", AttributeValue.fromN(Long.toString(at)));
	}

	/** The Put of a create, as the server sends it: never over an item with the same key. */
	private static Put put(String user, long at) {
		return Put.builder()
			.tableName("UserPurchases")
			.item(item(user, at))
			.conditionExpression("attribute_not_exists(#a0)")
			.expressionAttributeNames(Map.of("#a0", "userId"))
			.returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
			.build();
	}

	private static PutItemRequest rawPut(String user, long at) {
		Put put = put(user, at);
		return PutItemRequest.builder()
			.tableName(put.tableName())
			.item(put.item())
			.conditionExpression(put.conditionExpression())
			.expressionAttributeNames(put.expressionAttributeNames())
			.returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
			.returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
			.build();
	}

	/** createPurchase's transaction: the Put, and the check that the user exists. */
	private static TransactWriteItemsRequest rawCreate(String user, long at) {
		ConditionCheck check = ConditionCheck.builder()
			.tableName("Users")
			.key(Map.of("userId", AttributeValue.fromS(user)))
			.conditionExpression("attribute_exists(#a0)")
			.expressionAttributeNames(Map.of("#a0", "userId"))
			.build();
		return TransactWriteItemsRequest.builder()
			.transactItems(TransactWriteItem.builder().put(put(user, at)).build(),
					TransactWriteItem.builder().conditionCheck(check).build())
			.returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
			.build();
	}

	/** createPurchases' transaction of {@link #MANY}: their Puts. */
	private TransactWriteItemsRequest rawCreateMany(String user) {
		List<TransactWriteItem> puts = new ArrayList<>(MANY);
		for (int i = 0; i < MANY; i++) {
			puts.add(TransactWriteItem.builder().put(put(user, this.clock.incrementAndGet())).build());
		}
		return TransactWriteItemsRequest.builder()
			.transactItems(puts)
			.returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
			.build();
	}

	/**
	 * updatePurchase's UpdateItem for an amount and an expected version: the new amount, the version + 1, the item
	 * exists and holds the version expected; the new image answered.
	 */
	private static UpdateItemRequest rawUpdate(String user, long at, long expected) {
		return UpdateItemRequest.builder()
			.tableName("UserPurchases")
			.key(key(user, at))
			.updateExpression("SET #a0 = :v0, #a1 = if_not_exists(#a1, :v1) + :v2")
			.conditionExpression("attribute_exists(#a2) AND #a1 = :v3")
			.expressionAttributeNames(Map.of("#a0", "amount", "#a1", "version", "#a2", "userId"))
			.expressionAttributeValues(Map.of(":v0", AttributeValue.fromN(Long.toString(amount())), ":v1",
					AttributeValue.fromN("0"), ":v2", AttributeValue.fromN("1"), ":v3",
					AttributeValue.fromN(Long.toString(expected))))
			.returnValues(ReturnValue.ALL_NEW)
			.returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
			.returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
			.build();
	}

	/**
	 * Samples of each action for {@code duration}, taken in turns: one of each a round, the order rotating from
	 * round to round, so that no action always follows the same one.
	 */
	static double[][] interleaved(Duration duration, Runnable... actions) {
		List<List<Double>> samples = new ArrayList<>();
		for (int i = 0; i < actions.length; i++) {
			samples.add(new ArrayList<>());
		}
		long end = System.nanoTime() + duration.toNanos();
		for (int round = 0; System.nanoTime() < end; round++) {
			for (int i = 0; i < actions.length; i++) {
				int each = (round + i) % actions.length;
				long start = System.nanoTime();
				actions[each].run();
				samples.get(each).add((System.nanoTime() - start) / 1e6);
			}
		}
		return samples.stream().map((each) -> each.stream().mapToDouble(Double::doubleValue).toArray()).toArray(double[][]::new);
	}

}
