package dev.dynamorelay.bench.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;

import static dev.dynamorelay.bench.engine.EngineData.ITEMS;
import static dev.dynamorelay.bench.engine.EngineData.ITEM_COUNT;
import static dev.dynamorelay.bench.engine.EngineData.PAGE;
import static dev.dynamorelay.bench.engine.EngineData.PARTITIONS;
import static dev.dynamorelay.bench.engine.EngineData.TRANSACTION_PARTS;
import static dev.dynamorelay.bench.engine.EngineData.item;
import static dev.dynamorelay.bench.engine.EngineData.itemKey;
import static dev.dynamorelay.bench.engine.EngineData.load;
import static dev.dynamorelay.bench.engine.EngineData.query;

/**
 * The engine section's measured calls (PutItem, GetItem, a 50-item Query and Scan page, a 10-part transaction), each
 * with its requests built beforehand so that the load generator only sends them, and the check that both servers
 * answer them alike before they are measured.
 */
final class Calls {

	/** A measured call: its name, whether dynalite lacks it, and one call of it. */
	record Call(String name, boolean engineOnly, Action action) {
	}

	@FunctionalInterface
	interface Action {

		void call(Side side, ThreadLocalRandom random);

	}

	private Calls() {
	}

	/** The measured calls, each with its requests built beforehand so that the load generator only sends them. */
	static List<Call> all() {
		PutItemRequest[] puts = new PutItemRequest[2 * ITEM_COUNT];
		for (int i = 0; i < puts.length; i++) {
			// Another content than the item's (loaded with 'a'), so that most puts change the item.
			puts[i] = PutItemRequest.builder().tableName(ITEMS).item(item(i % ITEM_COUNT, (i < ITEM_COUNT) ? 'b' : 'c')).build();
		}
		GetItemRequest[] gets = new GetItemRequest[ITEM_COUNT];
		for (int i = 0; i < gets.length; i++) {
			gets[i] = GetItemRequest.builder().tableName(ITEMS).key(Map.of("pk", itemKey(i))).build();
		}
		QueryRequest[] queries = new QueryRequest[PARTITIONS];
		for (int i = 0; i < queries.length; i++) {
			queries[i] = query(i);
		}
		TransactWriteItemsRequest[] transactions = new TransactWriteItemsRequest[1000];
		for (int i = 0; i < transactions.length; i++) {
			List<TransactWriteItem> parts = new ArrayList<>();
			// Ten distinct items, spread over the table.
			for (int part = 0; part < TRANSACTION_PARTS; part++) {
				int item = (i * 7 + part * (ITEM_COUNT / TRANSACTION_PARTS)) % ITEM_COUNT;
				parts.add(TransactWriteItem.builder().put(Put.builder().tableName(ITEMS).item(item(item, 'd')).build()).build());
			}
			transactions[i] = TransactWriteItemsRequest.builder().transactItems(parts).build();
		}
		return List.of(
				new Call("PutItem", false, (side, random) -> side.client().putItem(puts[random.nextInt(puts.length)])),
				new Call("GetItem", false, (side, random) -> {
					if (!side.client().getItem(gets[random.nextInt(gets.length)]).hasItem()) {
						throw new IllegalStateException("GetItem found no item");
					}
				}),
				new Call("Query (50 items)", false, (side, random) -> {
					int count = side.client().query(queries[random.nextInt(queries.length)]).count();
					if (count != PAGE) {
						throw new IllegalStateException("a Query page of " + count);
					}
				}),
				new Call("Scan (50 items)", false, (side, random) -> {
					int count = side.client().scan(side.scan(random.nextInt(ITEM_COUNT - PAGE))).count();
					if (count != PAGE) {
						throw new IllegalStateException("a Scan page of " + count);
					}
				}),
				new Call("TransactWriteItems (10 puts)", true,
						(side, random) -> side.client().transactWriteItems(transactions[random.nextInt(transactions.length)])));
	}

	/** The two servers answer the measured calls alike before they are measured. */
	static void compareAnswers(Side engine, Side dynalite, boolean sameOrder) {
		for (int i = 0; i < 3; i++) {
			GetItemRequest get = GetItemRequest.builder().tableName(ITEMS).key(Map.of("pk", itemKey(i * 977))).build();
			same("GetItem", engine.client().getItem(get).item(), dynalite.client().getItem(get).item());
			QueryRequest query = query(i * 31);
			QueryResponse engineQuery = engine.client().query(query);
			QueryResponse dynaliteQuery = dynalite.client().query(query);
			same("Query", engineQuery.items(), dynaliteQuery.items());
			same("Query's LastEvaluatedKey", engineQuery.lastEvaluatedKey(), dynaliteQuery.lastEvaluatedKey());
			if (engineQuery.count() != PAGE) {
				throw new IllegalStateException("a Query page of " + engineQuery.count());
			}
			if (sameOrder) {
				ScanRequest scan = engine.scan(i * 1000);
				same("Scan", engine.client().scan(scan).items(), dynalite.client().scan(scan).items());
			}
		}
		System.out.println("  the same answers from both" + (sameOrder ? ", and the same Scan order" : "; the Scan orders DIFFER"));
	}

	private static void same(String what, Object engine, Object dynalite) {
		if (!engine.equals(dynalite)) {
			throw new IllegalStateException(what + " answered differently:\n  engine   " + engine + "\n  dynalite " + dynalite);
		}
	}

}
