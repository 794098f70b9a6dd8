package dev.dynamorelay.engine.journal;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ListTablesRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.DescribeStreamRequest;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsRequest;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.GetShardIteratorRequest;
import software.amazon.awssdk.services.dynamodb.model.ListStreamsRequest;
import software.amazon.awssdk.services.dynamodb.model.OperationType;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.StreamDescription;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;

import dev.dynamorelay.engine.store.Database;
import dev.dynamorelay.engine.store.DatabaseOptions;
import dev.dynamorelay.engine.streams.Streams;
import dev.dynamorelay.engine.streams.StreamsOptions;

/**
 * The process {@link JournalCrashIT} kills: it opens the journal in the directory it is given (recovering what an
 * earlier one wrote), prints what it recovered, then writes until it is killed, printing each write once it is
 * acknowledged. It writes into the engine's own {@link Database} (second argument {@code database}) or into the
 * journal's test model.
 *
 * <p>Writers own their items: writer {@code w} writes items {@code w-0} to {@code w-9} in turn, one write at a
 * time, each the next version of its item: version {@code v} deletes the item when {@code v} is a multiple of 7,
 * and puts it with {@code v} otherwise. Its output, a line each:
 * <ul>
 * <li>{@code item <pk> <v>} for each item recovered; {@code stream <pk> <v>} for each item's last version in the
 * stream, whose records for it must be its versions 1, 2, ... each once, in order ({@code broken <why>} if
 * not); then {@code ready};</li>
 * <li>{@code ack <pk> <v>} for each write acknowledged.</li>
 * </ul>
 */
public final class JournalCrashChild {

	static final int WRITERS = 4;

	static final int ITEMS = 10;

	private JournalCrashChild() {
	}

	/** What the child writes into: the journal's test model, or the engine's own database. */
	private interface Target {

		void ensureTable();

		void write(String pk, int version);

		void forEachItem(java.util.function.BiConsumer<String, String> pkAndVersion);

	}

	public static void main(String[] args) throws Exception {
		PrintStream out = new PrintStream(System.out, false);
		Path directory = Path.of(args[0]);
		boolean database = args.length > 1 && args[1].equals("database");
		Streams streams = new Streams(StreamsOptions.defaults().withShards(100, Duration.ofHours(4)));
		// Small snapshots: kills land in them too.
		JournalOptions options = new JournalOptions(true, 32 << 10);
		Target target = database ? database(directory, options, streams) : model(directory, options, streams);
		target.ensureTable();
		Map<String, Integer> versions = new TreeMap<>();
		target.forEachItem((pk, version) -> out.println("item " + pk + " " + version));
		Map<String, Integer> streamed = streamed(streams, out);
		streamed.forEach((pk, version) -> out.println("stream " + pk + " " + version));
		versions.putAll(streamed);
		out.println("ready");
		out.flush();
		List<Thread> writers = new ArrayList<>();
		for (int w = 0; w < WRITERS; w++) {
			int writer = w;
			Thread thread = new Thread(() -> {
				for (long n = 0;; n++) {
					String pk = writer + "-" + (n % ITEMS);
					int version;
					synchronized (versions) {
						version = versions.getOrDefault(pk, 0) + 1;
						versions.put(pk, version);
					}
					target.write(pk, version);
					synchronized (out) {
						out.println("ack " + pk + " " + version);
						out.flush();
					}
				}
			});
			thread.start();
			writers.add(thread);
		}
		for (Thread writer : writers) {
			writer.join();
		}
	}

	/** Version {@code v} deletes the item when it is a multiple of 7, and puts it with {@code v} otherwise. */
	private static Map<String, AttributeValue> version(String pk, int version) {
		return (version % 7 == 0) ? null : ModelStore.item(pk, Integer.toString(version));
	}

	private static Target model(Path directory, JournalOptions options, Streams streams) throws java.io.IOException {
		ModelStore store = new ModelStore();
		Journal journal = Journal.open(directory, options, store, streams);
		store.listener(journal);
		return new Target() {

			@Override
			public void ensureTable() {
				if (store.tables().isEmpty()) {
					store.describe(ModelStore.table("Items", StreamViewType.NEW_AND_OLD_IMAGES));
				}
			}

			@Override
			public void write(String pk, int version) {
				store.write("Items", pk, version(pk, version));
			}

			@Override
			public void forEachItem(java.util.function.BiConsumer<String, String> pkAndVersion) {
				store.forEachItem("Items", (item) -> pkAndVersion.accept(item.get("pk").s(), item.get("v").s()));
			}

		};
	}

	private static Target database(Path directory, JournalOptions options, Streams streams) throws java.io.IOException {
		Database database = new Database(DatabaseOptions.defaults().withTimeToLiveSweep(Duration.ZERO));
		DatabaseJournal.open(directory, options, database, streams);
		return new Target() {

			@Override
			public void ensureTable() {
				if (database.listTables(ListTablesRequest.builder().build()).tableNames().isEmpty()) {
					database.createTable(CreateTableRequest.builder()
						.tableName("Items")
						.billingMode(BillingMode.PAY_PER_REQUEST)
						.attributeDefinitions(AttributeDefinition.builder().attributeName("pk").attributeType("S").build())
						.keySchema(KeySchemaElement.builder().attributeName("pk").keyType(KeyType.HASH).build())
						.streamSpecification((stream) -> stream.streamEnabled(true).streamViewType(StreamViewType.NEW_AND_OLD_IMAGES))
						.build());
				}
			}

			@Override
			public void write(String pk, int version) {
				Map<String, AttributeValue> item = version(pk, version);
				if (item == null) {
					database.deleteItem(DeleteItemRequest.builder().tableName("Items").key(Map.of("pk", AttributeValue.fromS(pk))).build());
				}
				else {
					database.putItem(PutItemRequest.builder().tableName("Items").item(item).build());
				}
			}

			@Override
			public void forEachItem(java.util.function.BiConsumer<String, String> pkAndVersion) {
				Map<String, AttributeValue> after = null;
				do {
					ScanResponse page = database.scan(ScanRequest.builder().tableName("Items").exclusiveStartKey(after).build());
					page.items().forEach((item) -> pkAndVersion.accept(item.get("pk").s(), item.get("v").s()));
					after = page.hasLastEvaluatedKey() ? page.lastEvaluatedKey() : null;
				}
				while (after != null);
			}

		};
	}

	/** Each item's last version in the stream, having checked that its records are its versions in order. */
	private static Map<String, Integer> streamed(Streams streams, PrintStream out) {
		Map<String, Integer> last = new HashMap<>();
		String arn = streams.listStreams(ListStreamsRequest.builder().tableName("Items").build()).streams().get(0).streamArn();
		List<Shard> shards = new ArrayList<>();
		String after = null;
		do {
			StreamDescription page = streams
				.describeStream(DescribeStreamRequest.builder().streamArn(arn).exclusiveStartShardId(after).build())
				.streamDescription();
			shards.addAll(page.shards());
			after = page.lastEvaluatedShardId();
		}
		while (after != null);
		for (Shard shard : shards) {
			String iterator = streams.getShardIterator(GetShardIteratorRequest.builder()
				.streamArn(arn)
				.shardId(shard.shardId())
				.shardIteratorType(ShardIteratorType.TRIM_HORIZON)
				.build()).shardIterator();
			while (iterator != null) {
				GetRecordsResponse page = streams.getRecords(GetRecordsRequest.builder().shardIterator(iterator).build());
				for (Record record : page.records()) {
					String pk = record.dynamodb().keys().get("pk").s();
					int version = (record.eventName() == OperationType.REMOVE)
							? Integer.parseInt(record.dynamodb().oldImage().get("v").s()) + 1
							: Integer.parseInt(record.dynamodb().newImage().get("v").s());
					int expected = last.getOrDefault(pk, 0) + 1;
					if (version != expected) {
						out.println("broken " + pk + " has version " + version + " where " + expected + " was due");
					}
					last.put(pk, version);
				}
				iterator = page.records().isEmpty() ? null : page.nextShardIterator();
			}
		}
		return last;
	}

}
