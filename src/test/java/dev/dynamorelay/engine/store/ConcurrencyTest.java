package dev.dynamorelay.engine.store;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.Get;
import software.amazon.awssdk.services.dynamodb.model.ItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItem;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.Update;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

import dev.dynamorelay.engine.action.AwsError;

import static dev.dynamorelay.engine.store.Fixtures.item;
import static dev.dynamorelay.engine.store.Fixtures.n;
import static dev.dynamorelay.engine.store.Fixtures.s;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Jepsen-style bank: threads transfer money between accounts in transactions guarded by conditions, others
 * increment counters with conditional (compare-and-set) and unconditional updates, readers read all accounts
 * at once; for a few seconds. The total never changes in any read, no update is lost, no balance goes below
 * zero, and the commits the listener heard, replayed in order, make exactly the final table.
 */
class ConcurrencyTest {

	private static final int ACCOUNTS = 10;

	private static final long START = 100;

	private static final long RUN_MILLIS = 3000;

	private final Database database = Fixtures.database();


	@AfterEach
	void close() {
		this.database.close();
	}

	@Test
	void keepsTheBankBalancedAndLosesNoUpdate() throws Exception {
		Fixtures.hashTable(this.database, "bank", "S");
		Fixtures.hashTable(this.database, "counters", "S");
		Map<String, Map<String, AttributeValue>> initial = new HashMap<>();
		for (int i = 0; i < ACCOUNTS; i++) {
			Map<String, AttributeValue> account = item("pk", s("account" + i), "balance", n(START));
			this.database.putItem(PutItemRequest.builder().tableName("bank").item(account).build());
			initial.put("bank/account" + i, account);
		}
		Map<String, AttributeValue> counter = item("pk", s("counter"), "c", n(0));
		this.database.putItem(PutItemRequest.builder().tableName("counters").item(counter).build());
		initial.put("counters/counter", counter);
		List<ItemChange> heard = new ArrayList<>();
		this.database.addCommitListener(new CommitListener() {

			@Override
			public CompletableFuture<Void> committed(Instant time, List<ItemChange> changes) {
				// told under the writes' locks: two writes of one item are never told at once, but writes to other
				// tables may be: the list is the listener's own to guard
				synchronized (heard) {
					heard.addAll(changes);
				}
				return DONE;
			}

			@Override
			public CompletableFuture<Void> tableChanged(Instant time, TableDescription description, boolean deleted) {
				return DONE;
			}

		});
		long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(RUN_MILLIS);
		AtomicLong transfers = new AtomicLong();
		AtomicLong cancelled = new AtomicLong();
		AtomicLong increments = new AtomicLong();
		AtomicLong blindIncrements = new AtomicLong();
		AtomicLong reads = new AtomicLong();
		ExecutorService threads = Executors.newFixedThreadPool(10);
		List<Future<?>> running = new ArrayList<>();
		for (int t = 0; t < 4; t++) {
			Random random = new Random(t);
			running.add(threads.submit(() -> {
				while (System.nanoTime() < deadline) {
					int from = random.nextInt(ACCOUNTS);
					int to = (from + 1 + random.nextInt(ACCOUNTS - 1)) % ACCOUNTS;
					long amount = 1 + random.nextInt(60);
					try {
						this.database.transactWriteItems(TransactWriteItemsRequest.builder().transactItems(
								update("account" + from, "SET balance = balance - :amount", "balance >= :amount", amount),
								update("account" + to, "SET balance = balance + :amount", null, amount)).build());
						transfers.incrementAndGet();
					}
					catch (AwsError ex) {
						assertThat(ex.type()).isEqualTo("TransactionCanceledException");
						cancelled.incrementAndGet();
					}
				}
				return null;
			}));
		}
		for (int t = 0; t < 3; t++) {
			running.add(threads.submit(() -> {
				while (System.nanoTime() < deadline) {
					String current = this.database.getItem(GetItemRequest.builder().tableName("counters").key(item("pk", s("counter")))
						.consistentRead(true).build()).item().get("c").n();
					try {
						this.database.updateItem(UpdateItemRequest.builder().tableName("counters").key(item("pk", s("counter")))
							.updateExpression("SET c = :new").conditionExpression("c = :old")
							.expressionAttributeValues(Map.of(":old", n(current), ":new", n(Long.parseLong(current) + 1))).build());
						increments.incrementAndGet();
					}
					catch (AwsError ex) {
						assertThat(ex.type()).isEqualTo("ConditionalCheckFailedException");
					}
					this.database.updateItem(UpdateItemRequest.builder().tableName("counters").key(item("pk", s("blind")))
						.updateExpression("SET blind = if_not_exists(blind, :zero) + :one").expressionAttributeValues(Map.of(":one", n(1), ":zero", n(0))).build());
					blindIncrements.incrementAndGet();
				}
				return null;
			}));
		}
		for (int t = 0; t < 3; t++) {
			running.add(threads.submit(() -> {
				while (System.nanoTime() < deadline) {
					List<TransactGetItem> gets = new ArrayList<>();
					for (int i = 0; i < ACCOUNTS; i++) {
						gets.add(TransactGetItem.builder().get(Get.builder().tableName("bank").key(item("pk", s("account" + i))).build()).build());
					}
					long total = 0;
					for (ItemResponse response : this.database.transactGetItems(TransactGetItemsRequest.builder().transactItems(gets).build()).responses()) {
						long balance = Long.parseLong(response.item().get("balance").n());
						assertThat(balance).isNotNegative();
						total += balance;
					}
					assertThat(total).isEqualTo(ACCOUNTS * START);
					long scanned = 0;
					for (Map<String, AttributeValue> account : this.database.scan(ScanRequest.builder().tableName("bank").consistentRead(true).build()).items()) {
						scanned += Long.parseLong(account.get("balance").n());
					}
					assertThat(scanned).isEqualTo(ACCOUNTS * START);
					reads.incrementAndGet();
				}
				return null;
			}));
		}
		for (Future<?> future : running) {
			future.get(RUN_MILLIS + 60_000, TimeUnit.MILLISECONDS);
		}
		threads.shutdown();

		assertThat(transfers.get()).isPositive();
		assertThat(cancelled.get()).isPositive();
		assertThat(reads.get()).isPositive();
		assertThat(this.database.getItem(GetItemRequest.builder().tableName("counters").key(item("pk", s("counter"))).build()).item().get("c").n())
			.isEqualTo(Long.toString(increments.get()));
		assertThat(this.database.getItem(GetItemRequest.builder().tableName("counters").key(item("pk", s("blind"))).build()).item().get("blind").n())
			.isEqualTo(Long.toString(blindIncrements.get()));
		// the commits in the order the listener heard them rebuild the final tables exactly
		Map<String, Map<String, AttributeValue>> replayed = new HashMap<>(initial);
		for (ItemChange change : heard) {
			String key = change.table() + "/" + change.key().get("pk").s();
			assertThat(replayed.get(key)).as("the old image of %s is what the previous commit left", key).isEqualTo(change.oldImage());
			if (change.newImage() == null) {
				replayed.remove(key);
			}
			else {
				replayed.put(key, change.newImage());
			}
		}
		Map<String, Map<String, AttributeValue>> actual = new HashMap<>();
		for (String table : List.of("bank", "counters")) {
			for (Map<String, AttributeValue> stored : this.database.scan(ScanRequest.builder().tableName(table).build()).items()) {
				actual.put(table + "/" + stored.get("pk").s(), stored);
			}
		}
		assertThat(replayed).isEqualTo(actual);
		System.out.printf("ConcurrencyTest: %d transfers, %d cancelled, %d compare-and-set increments, %d blind increments, %d whole-bank reads in %d ms%n",
				transfers.get(), cancelled.get(), increments.get(), blindIncrements.get(), reads.get(), RUN_MILLIS);
	}

	@Test
	void makesReadsWaitForATransactionBeingCommittedAndThenSeeAllOfIt() throws Exception {
		Fixtures.hashTable(this.database, "bank", "S");
		for (int i = 0; i < 2; i++) {
			this.database.putItem(PutItemRequest.builder().tableName("bank").item(item("pk", s("account" + i), "balance", n(START))).build());
		}
		java.util.concurrent.CountDownLatch committing = new java.util.concurrent.CountDownLatch(1);
		java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
		this.database.addCommitListener(new CommitListener() {

			@Override
			public CompletableFuture<Void> committed(Instant time, List<ItemChange> changes) {
				// called under the transaction's locks, before its writes are applied: hold them there
				committing.countDown();
				try {
					release.await();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				return DONE;
			}

			@Override
			public CompletableFuture<Void> tableChanged(Instant time, TableDescription description, boolean deleted) {
				return DONE;
			}

		});
		ExecutorService threads = Executors.newFixedThreadPool(3);
		try {
			Future<?> transfer = threads.submit(() -> this.database.transactWriteItems(TransactWriteItemsRequest.builder().transactItems(
					update("account0", "SET balance = balance - :amount", "balance >= :amount", 30),
					update("account1", "SET balance = balance + :amount", null, 30)).build()));
			committing.await();
			StoredTable bank = this.database.tables.get("bank");
			Future<List<ItemResponse>> together = threads.submit(() -> this.database.transactGetItems(TransactGetItemsRequest.builder().transactItems(
					TransactGetItem.builder().get(Get.builder().tableName("bank").key(item("pk", s("account0"))).build()).build(),
					TransactGetItem.builder().get(Get.builder().tableName("bank").key(item("pk", s("account1"))).build()).build()).build()).responses());
			awaitQueued(bank, 1);
			Future<List<Map<String, AttributeValue>>> scanned = threads.submit(() -> this.database.scan(ScanRequest.builder().tableName("bank").build()).items());
			awaitQueued(bank, 2);
			assertThat(together.isDone()).isFalse();
			assertThat(scanned.isDone()).isFalse();

			release.countDown();
			transfer.get(60, TimeUnit.SECONDS);
			assertThat(together.get(60, TimeUnit.SECONDS)).extracting((response) -> response.item().get("balance").n()).containsExactly("70", "130");
			assertThat(scanned.get(60, TimeUnit.SECONDS)).extracting((account) -> account.get("balance").n()).containsExactlyInAnyOrder("70", "130");
		}
		finally {
			release.countDown();
			threads.shutdownNow();
		}
	}

	/** Waits until {@code count} threads wait for the table's lock (a condition, not a delay); fails after 30 s. */
	private static void awaitQueued(StoredTable table, int count) {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
		while (table.lock.getQueueLength() < count) {
			if (System.nanoTime() > deadline) {
				throw new AssertionError("no read waited for the table's lock: " + table.lock.getQueueLength() + " waiting");
			}
			Thread.yield();
		}
	}

	private static TransactWriteItem update(String account, String expression, String condition, long amount) {
		return TransactWriteItem.builder().update(Update.builder().tableName("bank").key(item("pk", s(account))).updateExpression(expression)
			.conditionExpression(condition).expressionAttributeValues(Map.of(":amount", n(amount))).build()).build();
	}

}
