package dev.dynamorelay.engine.journal;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteTableRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeStreamRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeTimeToLiveRequest;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsRequest;
import software.amazon.awssdk.services.dynamodb.model.GetShardIteratorRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexUpdate;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ListStreamsRequest;
import software.amazon.awssdk.services.dynamodb.model.ListTablesRequest;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateTimeToLiveRequest;

import dev.dynamorelay.engine.store.Database;
import dev.dynamorelay.engine.store.DatabaseOptions;
import dev.dynamorelay.engine.streams.Streams;
import dev.dynamorelay.engine.streams.StreamsOptions;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The journal of the engine's own database: everything DynamoDB's operations change comes back after a restart,
 * from the log, from a snapshot and the log, and from snapshots taken while writers write.
 */
class DatabaseJournalTest {

	@TempDir
	Path directory;

	private final List<Engine> engines = new ArrayList<>();

	private final class Engine {

		final Database database = new Database(DatabaseOptions.defaults().withTimeToLiveSweep(Duration.ZERO));

		final Streams streams = new Streams(StreamsOptions.defaults().withShards(25, Duration.ofHours(4)));

		final Journal journal;

		Engine(long snapshotBytes) throws IOException {
			this.journal = DatabaseJournal.open(DatabaseJournalTest.this.directory, new JournalOptions(true, snapshotBytes),
					this.database, this.streams);
			DatabaseJournalTest.this.engines.add(this);
		}

		Engine() throws IOException {
			this(64L << 20);
		}

		Engine restart() throws IOException {
			close();
			return new Engine();
		}

		void close() throws IOException {
			this.journal.close();
			this.database.close();
		}

		/** What a client sees of it: tables described, Time to Live, every item, every index, every stream record. */
		Map<String, Object> seen() {
			Map<String, Object> seen = new TreeMap<>();
			for (String table : this.database.listTables(ListTablesRequest.builder().build()).tableNames()) {
				var description = this.database.describeTable(DescribeTableRequest.builder().tableName(table).build()).table();
				seen.put(table + " description", description);
				seen.put(table + " ttl", this.database.describeTimeToLive(DescribeTimeToLiveRequest.builder().tableName(table).build()));
				seen.put(table + " items", scan(ScanRequest.builder().tableName(table)));
				if (description.hasGlobalSecondaryIndexes()) {
					for (var index : description.globalSecondaryIndexes()) {
						seen.put(table + " " + index.indexName(), scan(ScanRequest.builder().tableName(table).indexName(index.indexName())));
					}
				}
			}
			for (var stream : this.streams.listStreams(ListStreamsRequest.builder().build()).streams()) {
				seen.put("stream " + stream.streamArn(), records(stream.streamArn()));
			}
			return seen;
		}

		private List<Map<String, AttributeValue>> scan(ScanRequest.Builder request) {
			List<Map<String, AttributeValue>> items = new ArrayList<>();
			Map<String, AttributeValue> after = null;
			do {
				ScanResponse page = this.database.scan(request.exclusiveStartKey(after).build());
				items.addAll(page.items());
				after = page.hasLastEvaluatedKey() ? page.lastEvaluatedKey() : null;
			}
			while (after != null);
			return items;
		}

		private List<Record> records(String arn) {
			List<Record> records = new ArrayList<>();
			for (var shard : this.streams.describeStream(DescribeStreamRequest.builder().streamArn(arn).build()).streamDescription().shards()) {
				String iterator = this.streams.getShardIterator(GetShardIteratorRequest.builder()
					.streamArn(arn)
					.shardId(shard.shardId())
					.shardIteratorType(ShardIteratorType.TRIM_HORIZON)
					.build()).shardIterator();
				while (iterator != null) {
					var page = this.streams.getRecords(GetRecordsRequest.builder().shardIterator(iterator).build());
					records.addAll(page.records());
					iterator = page.records().isEmpty() ? null : page.nextShardIterator();
				}
			}
			return records;
		}

	}

	@AfterEach
	void close() throws IOException {
		for (Engine engine : this.engines) {
			engine.close();
		}
	}

	private static AttributeValue s(String value) {
		return AttributeValue.fromS(value);
	}

	private static AttributeValue n(long value) {
		return AttributeValue.fromN(Long.toString(value));
	}

	private static Map<String, AttributeValue> item(Object... namesAndValues) {
		Map<String, AttributeValue> item = new LinkedHashMap<>();
		for (int i = 0; i < namesAndValues.length; i += 2) {
			item.put((String) namesAndValues[i], (AttributeValue) namesAndValues[i + 1]);
		}
		return item;
	}

	private static AttributeDefinition definition(String name, String type) {
		return AttributeDefinition.builder().attributeName(name).attributeType(type).build();
	}

	private static KeySchemaElement key(String name, KeyType type) {
		return KeySchemaElement.builder().attributeName(name).keyType(type).build();
	}

	/** Orders: pk (S) and sk (N), an LSI by status, a GSI by category, a stream of both images. */
	private static void createOrders(Database database) {
		database.createTable(CreateTableRequest.builder()
			.tableName("Orders")
			.billingMode(BillingMode.PAY_PER_REQUEST)
			.attributeDefinitions(definition("pk", "S"), definition("sk", "N"), definition("status", "S"), definition("category", "S"))
			.keySchema(key("pk", KeyType.HASH), key("sk", KeyType.RANGE))
			.localSecondaryIndexes(LocalSecondaryIndex.builder()
				.indexName("ByStatus")
				.keySchema(key("pk", KeyType.HASH), key("status", KeyType.RANGE))
				.projection(Projection.builder().projectionType(ProjectionType.KEYS_ONLY).build())
				.build())
			.globalSecondaryIndexes(GlobalSecondaryIndex.builder()
				.indexName("ByCategory")
				.keySchema(key("category", KeyType.HASH), key("sk", KeyType.RANGE))
				.projection(Projection.builder().projectionType(ProjectionType.ALL).build())
				.build())
			.streamSpecification((stream) -> stream.streamEnabled(true).streamViewType(StreamViewType.NEW_AND_OLD_IMAGES))
			.build());
	}

	/** Every kind of change DynamoDB's operations make, to the Orders table and others. */
	private static void change(Database database) {
		for (int i = 0; i < 40; i++) {
			database.putItem(PutItemRequest.builder()
				.tableName("Orders")
				.item(item("pk", s("c" + (i % 5)), "sk", n(i), "status", s((i % 3 == 0) ? "open" : "shipped"), "category",
						s("cat" + (i % 4)), "amount", n(i * 10)))
				.build());
		}
		// An UpdateItem of a key alone makes an item of its key (the expression language is not on main yet).
		database.updateItem(UpdateItemRequest.builder().tableName("Orders").key(item("pk", s("bare"), "sk", n(9))).build());
		database.putItem(PutItemRequest.builder()
			.tableName("Orders")
			.item(item("pk", s("c1"), "sk", n(1), "status", s("shipped"), "amount", n(15)))
			.build());
		database.deleteItem(DeleteItemRequest.builder().tableName("Orders").key(item("pk", s("c2"), "sk", n(2))).build());
		database.transactWriteItems(TransactWriteItemsRequest.builder()
			.transactItems(TransactWriteItem.builder()
				.put((put) -> put.tableName("Orders").item(item("pk", s("t"), "sk", n(1), "status", s("new"))))
				.build(),
					TransactWriteItem.builder()
						.delete((delete) -> delete.tableName("Orders").key(item("pk", s("c3"), "sk", n(3))))
						.build())
			.build());
		database.updateTimeToLive(UpdateTimeToLiveRequest.builder()
			.tableName("Orders")
			.timeToLiveSpecification((ttl) -> ttl.enabled(true).attributeName("expires"))
			.build());
		database.updateTable(UpdateTableRequest.builder()
			.tableName("Orders")
			.attributeDefinitions(definition("pk", "S"), definition("sk", "N"), definition("status", "S"),
					definition("category", "S"), definition("amount", "N"))
			.globalSecondaryIndexUpdates(GlobalSecondaryIndexUpdate.builder()
				.create((create) -> create.indexName("ByAmount")
					.keySchema(key("amount", KeyType.HASH))
					.projection(Projection.builder().projectionType(ProjectionType.KEYS_ONLY).build()))
				.build())
			.build());
		// The stream disabled and enabled again: a second stream, the first kept for the retention.
		database.updateTable(UpdateTableRequest.builder().tableName("Orders").streamSpecification((stream) -> stream.streamEnabled(false)).build());
		database.putItem(PutItemRequest.builder().tableName("Orders").item(item("pk", s("quiet"), "sk", n(0))).build());
		database.updateTable(UpdateTableRequest.builder()
			.tableName("Orders")
			.streamSpecification((stream) -> stream.streamEnabled(true).streamViewType(StreamViewType.KEYS_ONLY))
			.build());
		database.putItem(PutItemRequest.builder().tableName("Orders").item(item("pk", s("loud"), "sk", n(0))).build());
		// A table made and dropped, and one made again under the name.
		database.createTable(CreateTableRequest.builder()
			.tableName("Scratch")
			.billingMode(BillingMode.PAY_PER_REQUEST)
			.attributeDefinitions(definition("id", "S"))
			.keySchema(key("id", KeyType.HASH))
			.build());
		database.putItem(PutItemRequest.builder().tableName("Scratch").item(item("id", s("old"))).build());
		database.deleteTable(DeleteTableRequest.builder().tableName("Scratch").build());
		database.createTable(CreateTableRequest.builder()
			.tableName("Scratch")
			.billingMode(BillingMode.PROVISIONED)
			.provisionedThroughput((throughput) -> throughput.readCapacityUnits(3L).writeCapacityUnits(4L))
			.attributeDefinitions(definition("id", "S"))
			.keySchema(key("id", KeyType.HASH))
			.build());
		database.putItem(PutItemRequest.builder().tableName("Scratch").item(item("id", s("new"))).build());
	}

	@Test
	void everyChangeOfTheDatabaseComesBackFromTheLog() throws IOException {
		Engine engine = new Engine();
		createOrders(engine.database);
		change(engine.database);
		Map<String, Object> before = engine.seen();

		Engine restarted = engine.restart();

		assertThat(restarted.seen()).isEqualTo(before);
		assertThat(((List<?>) before.get("Orders ByCategory"))).hasSize(37);
		assertThat(((List<?>) before.get("Orders ByAmount"))).hasSize(38);
	}

	@Test
	void everyChangeComesBackFromASnapshotAndTheLogAfterIt() throws IOException {
		Engine engine = new Engine();
		createOrders(engine.database);
		engine.database.putItem(PutItemRequest.builder().tableName("Orders").item(item("pk", s("early"), "sk", n(0))).build());
		engine.journal.snapshot().join();
		change(engine.database);
		Map<String, Object> before = engine.seen();

		Engine restarted = engine.restart();

		assertThat(restarted.seen()).isEqualTo(before);
	}

	@Test
	void snapshotsTakenWhileWritersWriteLoseNothing() throws Exception {
		Engine engine = new Engine(8_192);
		createOrders(engine.database);
		ExecutorService pool = Executors.newFixedThreadPool(4);
		try {
			List<CompletableFuture<Void>> writers = new ArrayList<>();
			for (int w = 0; w < 4; w++) {
				writers.add(CompletableFuture.runAsync(() -> {
					for (int n = 0; n < 300; n++) {
						int k = ThreadLocalRandom.current().nextInt(50);
						if (ThreadLocalRandom.current().nextInt(8) == 0) {
							engine.database.deleteItem(DeleteItemRequest.builder().tableName("Orders").key(item("pk", s("k" + k), "sk", n(k))).build());
						}
						else {
							engine.database.putItem(PutItemRequest.builder()
								.tableName("Orders")
								.item(item("pk", s("k" + k), "sk", n(k), "category", s("c" + (n % 3)), "amount", n(n)))
								.build());
						}
					}
				}, pool));
			}
			CompletableFuture.allOf(writers.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
		}
		finally {
			pool.shutdown();
		}
		Map<String, Object> before = engine.seen();

		Engine restarted = engine.restart();

		assertThat(restarted.seen()).isEqualTo(before);
	}

}
