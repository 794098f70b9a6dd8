package dev.dynamorelay.dynamodb.tables;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateGlobalSecondaryIndexAction;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.IndexStatus;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ListTablesRequest;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;

import dev.dynamorelay.declaration.Declarations;
import dev.dynamorelay.declaration.DeclaredConnection;
import dev.dynamorelay.dynamodb.DynamoDbFailures;
import dev.dynamorelay.dynamodb.StartupCalls;
import dev.dynamorelay.model.KeyAttribute;
import dev.dynamorelay.model.Table.Index;
import dev.dynamorelay.model.Table;
import dev.dynamorelay.schema.DeclarationException;
import dev.dynamorelay.schema.Location;
import dev.dynamorelay.schema.Problem.TableMismatch;
import dev.dynamorelay.schema.Problem;

/**
 * Makes the declared tables real and checks them: creates missing tables and global indexes (when
 * allowed), then compares every declared table, key and index with what DescribeTable says.
 *
 * <p>Tables are created on demand (PAY_PER_REQUEST) with indexes that project all attributes.
 * Creation racing with another instance is fine: whoever loses waits for the table to become active.
 * Every mismatch is reported at once, each at its declaration, and the server does not start.
 *
 * <p>Its calls are the start's own ({@link StartupCalls}): each may take the start-up call timeout and is
 * made again while DynamoDB does not answer, and all of them, waiting for tables and indexes to become
 * active included, end within the start-up bound.
 */
public final class TableSetup {

	private static final Logger logger = LoggerFactory.getLogger(TableSetup.class);

	private final DynamoDbAsyncClient dynamoDb;

	private final Declarations declarations;

	private final StartupCalls calls;

	public TableSetup(DynamoDbAsyncClient dynamoDb, Declarations declarations, StartupCalls calls) {
		this.dynamoDb = dynamoDb;
		this.declarations = declarations;
		this.calls = calls;
	}

	/** Creates what is missing and waits until every declared table and index is active. */
	public void createMissing() throws Exception {
		Set<String> existing = listTables();
		List<CompletableFuture<Void>> tables = new ArrayList<>();
		for (Table table : this.declarations.tables().values()) {
			tables.add(existing.contains(table.physicalName()) ? addMissingIndexes(table) : create(table));
		}
		await(CompletableFuture.allOf(tables.toArray(CompletableFuture[]::new)));
	}

	/**
	 * Compares each declared table with DynamoDB's, and returns the global indexes that hold only part
	 * of their items (projection KEYS_ONLY or INCLUDE), as {@link #indexKey} values, each with the
	 * attributes it holds (its keys, the table's keys and its projected attributes). It changes nothing: what
	 * is missing is reported with the {@code aws dynamodb} command that adds it.
	 * @param endpoint where DynamoDB is, as the problems name it: its URL, or {@code AWS} for AWS's own
	 * @throws DeclarationException listing every mismatch
	 */
	public Map<String, Set<String>> check(String endpoint) throws Exception {
		AwsCli cli = new AwsCli(endpoint.startsWith("http") ? Optional.of(endpoint) : Optional.empty());
		Set<String> existing = listTables();
		List<Problem> problems = new ArrayList<>();
		Map<String, Set<String>> partial = new java.util.TreeMap<>();
		for (Table table : this.declarations.tables().values()) {
			if (!existing.contains(table.physicalName())) {
				problems.add(new TableMismatch(table.location(), ("table `%s` does not exist at %s: create it (%s), or start "
						+ "with dynamo-relay.tables.create=true to have it created from the declarations.")
					.formatted(table.physicalName(), endpoint, cli.createTable(table, this.declarations.live(table)))));
				continue;
			}
			TableDescription described = await(describe(table.physicalName()));
			compare(table, described, cli, problems);
			stream(table, described, cli, problems);
			projections(table, described, partial, problems);
		}
		if (!problems.isEmpty()) {
			throw new DeclarationException("The declarations do not match the tables at " + endpoint, problems);
		}
		return partial;
	}

	/** A table a live connection reads needs a stream of new and old images: the changes are judged on both. */
	private void stream(Table table, TableDescription described, AwsCli cli, List<Problem> problems) {
		if (!this.declarations.live(table)) {
			return;
		}
		StreamSpecification stream = described.streamSpecification();
		boolean enabled = stream != null && Boolean.TRUE.equals(stream.streamEnabled());
		if (enabled && stream.streamViewType() == StreamViewType.NEW_AND_OLD_IMAGES) {
			return;
		}
		String fields = this.declarations.subscriptions()
			.stream()
			.filter((subscription) -> subscription.connection().definition().table().equals(table.physicalName()))
			.map((subscription) -> "`" + subscription.name() + "`")
			.collect(java.util.stream.Collectors.joining(", "));
		// A stream of another view type is never replaced here: others may read it, and a new one has a new ARN.
		String fix = enabled ? ("disable it and enable one of new and old images (aws dynamodb update-table --table-name "
				+ "%s --stream-specification StreamEnabled=false, then StreamEnabled=true,StreamViewType=NEW_AND_OLD_IMAGES; "
				+ "whoever reads the present stream then reads the new one)").formatted(table.physicalName())
				: ("enable one (%s), or start with dynamo-relay.tables.create=true to have it enabled")
					.formatted(cli.enableStream(table.physicalName()));
		problems.add(new TableMismatch(table.location(), "table `%s` has %s, and %s keep%s it live from a stream of new and old images: %s."
			.formatted(table.physicalName(), enabled ? "a stream of " + stream.streamViewType() : "no stream", fields,
					fields.contains(",") ? "" : "s", fix)));
	}

	private static StreamSpecification newAndOldImages() {
		return StreamSpecification.builder().streamEnabled(true).streamViewType(StreamViewType.NEW_AND_OLD_IMAGES).build();
	}

	/** How {@link #check} names a global index: its table's name as DynamoDB knows it and its own. */
	public static String indexKey(String physicalTable, String index) {
		return physicalTable + "/" + index;
	}

	/**
	 * Collects the declared global indexes that do not project all attributes. Their items are completed
	 * from the table when read, but must be typed and filtered from what they hold: a type attribute and
	 * every attribute a connection over the index filters on must be projected.
	 */
	private void projections(Table table, TableDescription described, Map<String, Set<String>> partial,
			List<Problem> problems) {
		for (GlobalSecondaryIndexDescription gsi : described.globalSecondaryIndexes()) {
			Index index = table.indexes().get(gsi.indexName());
			if (index == null || !index.global() || gsi.projection() == null
					|| gsi.projection().projectionType() == ProjectionType.ALL) {
				continue;
			}
			Set<String> projected = new java.util.HashSet<>(gsi.projection().nonKeyAttributes());
			gsi.keySchema().forEach((key) -> projected.add(key.attributeName()));
			table.primaryKey().forEach((key) -> projected.add(key.name()));
			partial.put(indexKey(table.physicalName(), gsi.indexName()), Set.copyOf(projected));
			for (DeclaredConnection connection : this.declarations.connections()) {
				if (!connection.definition().table().equals(table.physicalName())
						|| !connection.definition().index().equals(java.util.Optional.of(gsi.indexName()))) {
					continue;
				}
				for (DeclaredConnection.FilterArgument filter : connection.filterArguments()) {
					if (!projected.contains(filter.attribute())) {
						// DynamoDB filters what the index holds, before the server completes items from the table.
						problems.add(new TableMismatch(index.location(), ("`%s(%s:)` filters on `%s`, which global index "
								+ "`%s` of `%s` does not project (%s), so it would match nothing: add `%s` to the index's "
								+ "projection, or make it ALL.").formatted(connection.name(), filter.name(), filter.attribute(),
										index.name(), table.physicalName(), gsi.projection().projectionTypeAsString(),
										filter.attribute())));
					}
				}
			}
			String type = table.typeAttribute().orElse(null);
			if (type != null && !gsi.projection().nonKeyAttributes().contains(type)) {
				problems.add(new TableMismatch(index.location(), ("global index `%s` of `%s` projects %s without `%s`, so "
						+ "its items cannot be told apart by type: add `%s` to its projection, or make it ALL.")
					.formatted(index.name(), table.physicalName(), gsi.projection().projectionTypeAsString(), type, type)));
			}
		}
	}

	/** Adds to {@code problems} each way the keys and indexes of {@code described} differ from {@code table}. */
	static void compare(Table table, TableDescription described, AwsCli cli, List<Problem> problems) {
		Map<String, String> types = new LinkedHashMap<>();
		described.attributeDefinitions().forEach((definition) -> types.put(definition.attributeName(),
				definition.attributeTypeAsString()));
		String name = table.physicalName();
		keys(table.partitionKey(), table.sortKey(), described.keySchema(), types, "table `" + name + "`",
				table.location(), problems);
		for (Index index : table.indexes().values()) {
			Optional<List<KeySchemaElement>> keys;
			if (index.global()) {
				keys = described.globalSecondaryIndexes().stream()
					.filter((gsi) -> gsi.indexName().equals(index.name()))
					.findFirst()
					.map(GlobalSecondaryIndexDescription::keySchema);
				if (keys.isEmpty() && described.localSecondaryIndexes().stream().anyMatch((lsi) -> lsi.indexName().equals(index.name()))) {
					problems.add(new TableMismatch(index.location(), "`%s` of table `%s` is a local index: declare it with `@localIndex`."
						.formatted(index.name(), name)));
					continue;
				}
			}
			else {
				keys = described.localSecondaryIndexes().stream()
					.filter((lsi) -> lsi.indexName().equals(index.name()))
					.findFirst()
					.map(LocalSecondaryIndexDescription::keySchema);
				if (keys.isEmpty() && described.globalSecondaryIndexes().stream().anyMatch((gsi) -> gsi.indexName().equals(index.name()))) {
					problems.add(new TableMismatch(index.location(), "`%s` of table `%s` is a global index: declare it with `@globalIndex`."
						.formatted(index.name(), name)));
					continue;
				}
			}
			if (keys.isEmpty()) {
				problems.add(new TableMismatch(index.location(), ("table `%s` has no %s index `%s`%s.").formatted(name,
						index.global() ? "global" : "local", index.name(), index.global()
								? ": add it (" + cli.addIndex(index, described) + "), or start with "
										+ "dynamo-relay.tables.create=true to have it added"
								: ": local indexes exist only from a table's creation; recreate the table or remove the declaration")));
				continue;
			}
			keys(index.partitionKey(), index.sortKey(), keys.get(), types, "index `" + index.name() + "` of `" + name + "`",
					index.location(), problems);
		}
	}

	private static void keys(KeyAttribute partition, Optional<KeyAttribute> sort, List<KeySchemaElement> schema,
			Map<String, String> types, String what, dev.dynamorelay.schema.Location location,
			List<Problem> problems) {
		String hash = schema.stream().filter((key) -> key.keyType() == KeyType.HASH).map(KeySchemaElement::attributeName)
			.findFirst().orElse(null);
		String range = schema.stream().filter((key) -> key.keyType() == KeyType.RANGE).map(KeySchemaElement::attributeName)
			.findFirst().orElse(null);
		if (!partition.name().equals(hash)) {
			problems.add(new TableMismatch(location, "%s has partition key `%s`, not `%s`: declare `partitionKey: \"%s\"`."
				.formatted(what, hash, partition.name(), hash)));
		}
		else if (!partition.type().toString().equals(types.get(hash))) {
			problems.add(new TableMismatch(location, "%s stores partition key `%s` as %s, but the declarations make it %s: %s."
				.formatted(what, hash, types.get(hash), partition.type(), typeHint(types.get(hash)))));
		}
		String declaredRange = sort.map(KeyAttribute::name).orElse(null);
		if (range == null ? declaredRange != null : !range.equals(declaredRange)) {
			problems.add(new TableMismatch(location, (range == null) ? "%s has no sort key, but `%s` is declared: remove it."
				.formatted(what, declaredRange)
					: "%s has sort key `%s`, not %s: declare `sortKey: \"%s\"`.".formatted(what, range,
							(declaredRange == null) ? "none" : "`" + declaredRange + "`", range)));
		}
		else if (range != null && !sort.get().type().toString().equals(types.get(range))) {
			problems.add(new TableMismatch(location, "%s stores sort key `%s` as %s, but the declarations make it %s: %s."
				.formatted(what, range, types.get(range), sort.get().type(), typeHint(types.get(range)))));
		}
	}

	/** How to declare a key attribute that DynamoDB stores as {@code stored}. */
	private static String typeHint(String stored) {
		return ("declare its field with a type stored as %s (String or ID: S; Int, Long, Float, Decimal or a timestamp: "
				+ "N; Bytes: B); a key template with constant text, or an index key that no field stores, is always S")
			.formatted(stored);
	}

	private Set<String> listTables() throws Exception {
		Set<String> names = ConcurrentHashMap.newKeySet();
		await(this.calls.call("ListTables", (override) -> {
			names.clear();
			return this.dynamoDb.listTablesPaginator(ListTablesRequest.builder().overrideConfiguration(override).build())
				.tableNames()
				.subscribe(names::add);
		}));
		return names;
	}

	/**
	 * The result of a start-up call, whose own bound ends it: a failure as the call failed (a
	 * {@link StartupCalls.StartupException} when DynamoDB did not answer in time).
	 */
	private <T> T await(CompletableFuture<T> future) throws Exception {
		try {
			// A safety net: the calls end within the start-up bound, each within its call timeout.
			return future.get(this.calls.left().plus(Duration.ofMinutes(1)).toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (ExecutionException ex) {
			Throwable cause = DynamoDbFailures.unwrap(ex);
			if (cause instanceof Exception exception) {
				throw exception;
			}
			throw ex;
		}
	}

	private CompletableFuture<Void> create(Table table) {
		logger.info("Creating table {}", table.physicalName());
		Map<String, AttributeDefinition> attributes = new LinkedHashMap<>();
		table.primaryKey().forEach((key) -> attributes.put(key.name(), attribute(key)));
		List<GlobalSecondaryIndex> globals = new ArrayList<>();
		List<LocalSecondaryIndex> locals = new ArrayList<>();
		for (Index index : table.indexes().values()) {
			attributes.putIfAbsent(index.partitionKey().name(), attribute(index.partitionKey()));
			index.sortKey().ifPresent((sort) -> attributes.putIfAbsent(sort.name(), attribute(sort)));
			if (index.global()) {
				globals.add(GlobalSecondaryIndex.builder()
					.indexName(index.name())
					.keySchema(keySchema(index.partitionKey(), index.sortKey()))
					.projection(all())
					.build());
			}
			else {
				locals.add(LocalSecondaryIndex.builder()
					.indexName(index.name())
					.keySchema(keySchema(index.partitionKey(), index.sortKey()))
					.projection(all())
					.build());
			}
		}
		return this.calls.call("CreateTable " + table.physicalName(), (override) -> this.dynamoDb.createTable((create) -> {
			create.tableName(table.physicalName())
				.overrideConfiguration(override)
				.attributeDefinitions(attributes.values())
				.keySchema(keySchema(table.partitionKey(), table.sortKey()))
				.billingMode(BillingMode.PAY_PER_REQUEST);
			if (!globals.isEmpty()) {
				create.globalSecondaryIndexes(globals);
			}
			if (!locals.isEmpty()) {
				create.localSecondaryIndexes(locals);
			}
			if (this.declarations.live(table)) {
				create.streamSpecification(newAndOldImages());
			}
		})).handle((created, failure) -> {
			if (failure != null && !(DynamoDbFailures.unwrap(failure) instanceof ResourceInUseException)) {
				Throwable cause = DynamoDbFailures.unwrap(failure);
				throw new IllegalStateException("Creating table " + table.physicalName() + " failed: " + cause.getMessage(),
						cause);
			}
			return null;
		}).thenCompose((ignored) -> waitUntilActive(table.physicalName()));
	}

	/**
	 * Adds the declared global indexes an existing table lacks, one at a time as DynamoDB requires, and the
	 * stream a live connection reads, when the table has none.
	 */
	private CompletableFuture<Void> addMissingIndexes(Table table) {
		CompletableFuture<Void> chain = waitUntilActive(table.physicalName());
		if (this.declarations.live(table)) {
			chain = chain.thenCompose((ready) -> describe(table.physicalName())).thenCompose((described) -> {
				if (described.streamSpecification() != null && Boolean.TRUE.equals(described.streamSpecification().streamEnabled())) {
					return CompletableFuture.completedFuture(null);
				}
				logger.info("Enabling a stream of new and old images on table {}", table.physicalName());
				return this.calls.call("UpdateTable " + table.physicalName(), (override) -> this.dynamoDb
					.updateTable((update) -> update.tableName(table.physicalName())
						.overrideConfiguration(override)
						.streamSpecification(newAndOldImages())))
					.thenCompose((updated) -> waitUntilActive(table.physicalName()));
			});
		}
		for (Index index : table.indexes().values()) {
			if (!index.global()) {
				continue;
			}
			chain = chain.thenCompose((ready) -> describe(table.physicalName())).thenCompose((described) -> {
				boolean present = described.globalSecondaryIndexes().stream()
					.anyMatch((gsi) -> gsi.indexName().equals(index.name()));
				if (present) {
					return waitUntilActive(table.physicalName());
				}
				logger.info("Adding index {} to table {}", index.name(), table.physicalName());
				List<AttributeDefinition> attributes = new ArrayList<>();
				attributes.add(attribute(index.partitionKey()));
				index.sortKey().ifPresent((sort) -> attributes.add(attribute(sort)));
				return this.calls.call("UpdateTable " + table.physicalName(), (override) -> this.dynamoDb
					.updateTable((update) -> update.tableName(table.physicalName())
						.overrideConfiguration(override)
						.attributeDefinitions(attributes)
						.globalSecondaryIndexUpdates((gsi) -> gsi.create(CreateGlobalSecondaryIndexAction.builder()
							.indexName(index.name())
							.keySchema(keySchema(index.partitionKey(), index.sortKey()))
							.projection(all())
							.build()))))
					// An update made again after a timeout may find its own index begun: then wait for it too.
					.exceptionallyCompose((failure) -> describe(table.physicalName()).thenApply((again) -> {
						if (again.globalSecondaryIndexes().stream().noneMatch((gsi) -> gsi.indexName().equals(index.name()))) {
							throw new CompletionException(DynamoDbFailures.unwrap(failure));
						}
						return null;
					}))
					.thenCompose((updated) -> waitUntilActive(table.physicalName()));
			});
		}
		return chain;
	}

	/** Waits until the table and every one of its global indexes are active. */
	private CompletableFuture<Void> waitUntilActive(String table) {
		return poll(() -> describe(table).thenApply((description) -> description.tableStatus() == TableStatus.ACTIVE
				&& description.globalSecondaryIndexes().stream().allMatch((gsi) -> gsi.indexStatus() == IndexStatus.ACTIVE)),
				"table " + table);
	}

	private CompletableFuture<Void> poll(Supplier<CompletableFuture<Boolean>> ready, String what) {
		return ready.get().thenCompose((done) -> {
			if (done) {
				return CompletableFuture.completedFuture(null);
			}
			if (this.calls.left().isNegative()) {
				throw this.calls.notActive(what);
			}
			return CompletableFuture
				.supplyAsync(() -> null, CompletableFuture.delayedExecutor(500, TimeUnit.MILLISECONDS))
				.thenCompose((ignored) -> poll(ready, what));
		});
	}

	private CompletableFuture<TableDescription> describe(String table) {
		return this.calls
			.call("DescribeTable " + table,
					(override) -> this.dynamoDb.describeTable((describe) -> describe.tableName(table).overrideConfiguration(override)))
			.thenApply((response) -> response.table());
	}

	private static List<KeySchemaElement> keySchema(KeyAttribute partition, Optional<KeyAttribute> sort) {
		List<KeySchemaElement> keys = new ArrayList<>();
		keys.add(KeySchemaElement.builder().attributeName(partition.name()).keyType(KeyType.HASH).build());
		sort.ifPresent((key) -> keys.add(KeySchemaElement.builder().attributeName(key.name()).keyType(KeyType.RANGE).build()));
		return keys;
	}

	private static Projection all() {
		return Projection.builder().projectionType(ProjectionType.ALL).build();
	}

	private static AttributeDefinition attribute(KeyAttribute key) {
		return AttributeDefinition.builder().attributeName(key.name()).attributeType(key.type()).build();
	}

}
