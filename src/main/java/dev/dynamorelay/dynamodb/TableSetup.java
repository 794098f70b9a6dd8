package dev.dynamorelay.dynamodb;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateGlobalSecondaryIndexAction;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.IndexStatus;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ListTablesRequest;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;

/**
 * Creates the contract's three tables and the {@code ByCategory} index where they are missing.
 *
 * <p>Tables are created on demand (PAY_PER_REQUEST). An existing {@code UserPurchases} without the
 * index gets it added. Creation racing with another instance is fine: whoever loses waits for the
 * table to become active.
 */
public final class TableSetup {

	private static final Logger logger = LoggerFactory.getLogger(TableSetup.class);

	private static final Duration WAIT = Duration.ofMinutes(5);

	private final DynamoDbAsyncClient dynamoDb;

	private final Tables tables;

	public TableSetup(DynamoDbAsyncClient dynamoDb, Tables tables) {
		this.dynamoDb = dynamoDb;
		this.tables = tables;
	}

	/** Creates what is missing and waits until every table and the index are active. */
	public void createMissing() throws Exception {
		Set<String> existing = listTables();
		CompletableFuture.allOf(
				ensure(existing, this.tables.users(), List.of(attribute("userId", ScalarAttributeType.S)),
						List.of(key("userId", KeyType.HASH)), null),
				ensure(existing, this.tables.purchases(),
						List.of(attribute("userId", ScalarAttributeType.S),
								attribute("purchasedAt", ScalarAttributeType.N),
								attribute("category", ScalarAttributeType.S)),
						List.of(key("userId", KeyType.HASH), key("purchasedAt", KeyType.RANGE)), byCategory()),
				ensure(existing, this.tables.movies(),
						List.of(attribute("year", ScalarAttributeType.N), attribute("title", ScalarAttributeType.S)),
						List.of(key("year", KeyType.HASH), key("title", KeyType.RANGE)), null))
			.get(WAIT.toSeconds(), TimeUnit.SECONDS);
		ensureIndex().get(WAIT.toSeconds(), TimeUnit.SECONDS);
	}

	private Set<String> listTables() throws Exception {
		Set<String> names = ConcurrentHashMap.newKeySet();
		this.dynamoDb.listTablesPaginator(ListTablesRequest.builder().build())
			.tableNames()
			.subscribe(names::add)
			.get(WAIT.toSeconds(), TimeUnit.SECONDS);
		return names;
	}

	private CompletableFuture<Void> ensure(Set<String> existing, String table, List<AttributeDefinition> attributes,
			List<KeySchemaElement> keys, GlobalSecondaryIndex index) {
		if (existing.contains(table)) {
			return waitUntilActive(table);
		}
		logger.info("Creating table {}", table);
		return this.dynamoDb.createTable((create) -> {
			create.tableName(table)
				.attributeDefinitions(attributes)
				.keySchema(keys)
				.billingMode(BillingMode.PAY_PER_REQUEST);
			if (index != null) {
				create.globalSecondaryIndexes(index);
			}
		}).handle((created, failure) -> {
			if (failure != null && !(unwrap(failure) instanceof ResourceInUseException)) {
				throw new IllegalStateException("Creating table " + table + " failed: " + unwrap(failure).getMessage(),
						unwrap(failure));
			}
			return null;
		}).thenCompose((ignored) -> waitUntilActive(table));
	}

	private CompletableFuture<Void> ensureIndex() {
		return describe(this.tables.purchases()).thenCompose((table) -> {
			boolean present = table.hasGlobalSecondaryIndexes() && table.globalSecondaryIndexes()
				.stream()
				.anyMatch((index) -> Tables.BY_CATEGORY.equals(index.indexName()));
			if (present) {
				return waitUntilIndexActive();
			}
			logger.info("Adding index {} to table {}", Tables.BY_CATEGORY, this.tables.purchases());
			GlobalSecondaryIndex index = byCategory();
			return this.dynamoDb
				.updateTable((update) -> update.tableName(this.tables.purchases())
					.attributeDefinitions(attribute("category", ScalarAttributeType.S),
							attribute("purchasedAt", ScalarAttributeType.N))
					.globalSecondaryIndexUpdates((gsi) -> gsi.create(CreateGlobalSecondaryIndexAction.builder()
						.indexName(index.indexName())
						.keySchema(index.keySchema())
						.projection(index.projection())
						.build())))
				.thenCompose((updated) -> waitUntilIndexActive());
		});
	}

	private CompletableFuture<Void> waitUntilActive(String table) {
		return poll(() -> describe(table).thenApply((description) -> description.tableStatus() == TableStatus.ACTIVE),
				System.nanoTime() + WAIT.toNanos(), "table " + table);
	}

	private CompletableFuture<Void> waitUntilIndexActive() {
		return poll(() -> describe(this.tables.purchases()).thenApply((description) -> description.hasGlobalSecondaryIndexes()
				&& description.globalSecondaryIndexes()
					.stream()
					.anyMatch((index) -> Tables.BY_CATEGORY.equals(index.indexName())
							&& index.indexStatus() == IndexStatus.ACTIVE)),
				System.nanoTime() + WAIT.toNanos(), "index " + Tables.BY_CATEGORY);
	}

	private CompletableFuture<Void> poll(java.util.function.Supplier<CompletableFuture<Boolean>> ready, long deadline,
			String what) {
		return ready.get().thenCompose((done) -> {
			if (done) {
				return CompletableFuture.completedFuture(null);
			}
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException(what + " did not become active within " + WAIT);
			}
			return CompletableFuture
				.supplyAsync(() -> null, CompletableFuture.delayedExecutor(500, TimeUnit.MILLISECONDS))
				.thenCompose((ignored) -> poll(ready, deadline, what));
		});
	}

	private CompletableFuture<TableDescription> describe(String table) {
		return this.dynamoDb.describeTable((describe) -> describe.tableName(table))
			.thenApply((response) -> response.table());
	}

	private static GlobalSecondaryIndex byCategory() {
		return GlobalSecondaryIndex.builder()
			.indexName(Tables.BY_CATEGORY)
			.keySchema(key("category", KeyType.HASH), key("purchasedAt", KeyType.RANGE))
			.projection(Projection.builder().projectionType(ProjectionType.ALL).build())
			.build();
	}

	private static AttributeDefinition attribute(String name, ScalarAttributeType type) {
		return AttributeDefinition.builder().attributeName(name).attributeType(type).build();
	}

	private static KeySchemaElement key(String name, KeyType type) {
		return KeySchemaElement.builder().attributeName(name).keyType(type).build();
	}

	private static Throwable unwrap(Throwable failure) {
		return DynamoDbFailures.unwrap(failure);
	}

}
