package dev.dynamorelay.graphql;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import graphql.schema.DataFetchingEnvironment;
import org.springframework.graphql.data.method.annotation.Argument;
import org.springframework.graphql.data.method.annotation.MutationMapping;
import org.springframework.graphql.data.method.annotation.QueryMapping;
import org.springframework.stereotype.Controller;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;

import dev.dynamorelay.dynamodb.DynamoDbFailures;
import dev.dynamorelay.dynamodb.Tables;
import dev.dynamorelay.error.InvalidArgumentException;
import dev.dynamorelay.error.NotFoundException;
import dev.dynamorelay.graphql.ConnectionFetcher.RelayArguments;
import dev.dynamorelay.pagination.ConnectionQuery;
import dev.dynamorelay.pagination.ReadStats;
import dev.dynamorelay.pagination.SortOrder;

/** {@code purchasesByCategory}, {@code createPurchase} and {@code deletePurchase}. */
@Controller
class PurchaseController {

	/** Room left for the other attributes under DynamoDB's 400 KB item limit. */
	static final int MAX_PRODUCT_BYTES = 350_000;

	/** Attempts at a free millisecond when {@code purchasedAt} defaults to now. */
	private static final int NOW_ATTEMPTS = 5;

	private final ConnectionFetcher connections;

	private final Connections declared;

	private final DynamoDbAsyncClient dynamoDb;

	private final Tables tables;

	PurchaseController(ConnectionFetcher connections, Connections declared, DynamoDbAsyncClient dynamoDb,
			Tables tables) {
		this.connections = connections;
		this.declared = declared;
		this.dynamoDb = dynamoDb;
		this.tables = tables;
	}

	@QueryMapping
	CompletableFuture<ConnectionResult<Purchase>> purchasesByCategory(@Argument String category,
			@Argument Integer first, @Argument String after, @Argument Integer last, @Argument String before,
			@Argument Double minAmount, @Argument SortOrder order, DataFetchingEnvironment environment) {
		ConnectionQuery query = ConnectionQuery
			.partition(KeyArguments.partitionKey("category", category), KeyArguments.order(order))
			.withFilter(KeyArguments.minimum("minAmount", "amount", minAmount));
		return this.connections.fetch(this.declared.purchasesByCategory, query,
				new RelayArguments(first, after, last, before), environment);
	}

	@MutationMapping
	CompletableFuture<Purchase> createPurchase(@Argument CreatePurchaseInput input,
			DataFetchingEnvironment environment) {
		String userId = KeyArguments.key("input.userId", input.userId(), KeyArguments.MAX_PARTITION_KEY_BYTES);
		String category = KeyArguments.key("input.category", input.category(), KeyArguments.MAX_PARTITION_KEY_BYTES);
		String product = input.product();
		if (product == null || product.isBlank()) {
			throw new InvalidArgumentException("`input.product` must not be blank.");
		}
		if (product.getBytes(StandardCharsets.UTF_8).length > MAX_PRODUCT_BYTES) {
			throw new InvalidArgumentException(
					"`input.product` is longer than %d UTF-8 bytes.".formatted(MAX_PRODUCT_BYTES));
		}
		BigDecimal amount = KeyArguments.number("input.amount", input.amount());
		Long explicit = (input.purchasedAt() != null) ? parseInstant(input.purchasedAt()) : null;
		ReadStats stats = RequestStats.of(environment);
		Map<String, AttributeValue> item = new HashMap<>();
		item.put("userId", AttributeValue.fromS(userId));
		item.put("product", AttributeValue.fromS(product));
		item.put("category", AttributeValue.fromS(category));
		item.put("amount", AttributeValue.fromN(plain(amount)));
		return this.dynamoDb
			.getItem((get) -> get.tableName(this.tables.users())
				.key(Map.of("userId", AttributeValue.fromS(userId)))
				.projectionExpression("userId")
				.returnConsumedCapacity(ReturnConsumedCapacity.TOTAL))
			.thenCompose((user) -> {
				stats.record(user.hasItem() ? 1 : 0, user.hasItem() ? 1 : 0, units(user.consumedCapacity()));
				if (!user.hasItem() || user.item().isEmpty()) {
					throw new NotFoundException(
							"No user `%s` exists: create purchases only for users in the Users table.".formatted(userId));
				}
				long at = (explicit != null) ? explicit : Instant.now().toEpochMilli();
				return put(item, at, explicit != null, stats, 1);
			});
	}

	@MutationMapping
	CompletableFuture<String> deletePurchase(@Argument String id, DataFetchingEnvironment environment) {
		if (!(NodeId.decode(id) instanceof NodeId.PurchaseId purchase)) {
			throw new InvalidArgumentException("`id` is not the id of a Purchase.");
		}
		ReadStats stats = RequestStats.of(environment);
		return this.dynamoDb
			.deleteItem((delete) -> delete.tableName(this.tables.purchases())
				.key(purchase.key(this.tables).key())
				.returnValues(ReturnValue.ALL_OLD)
				.returnConsumedCapacity(ReturnConsumedCapacity.TOTAL))
			.thenApply((deleted) -> {
				stats.record(0, 0, units(deleted.consumedCapacity()));
				return (deleted.hasAttributes() && !deleted.attributes().isEmpty()) ? purchase.encode() : null;
			});
	}

	private CompletableFuture<Purchase> put(Map<String, AttributeValue> attributes, long purchasedAt, boolean explicit,
			ReadStats stats, int attempt) {
		Map<String, AttributeValue> item = new HashMap<>(attributes);
		item.put("purchasedAt", AttributeValue.fromN(Long.toString(purchasedAt)));
		return this.dynamoDb
			.putItem((put) -> put.tableName(this.tables.purchases())
				.item(item)
				.conditionExpression("attribute_not_exists(userId)")
				.returnConsumedCapacity(ReturnConsumedCapacity.TOTAL))
			.handle((written, failure) -> {
				if (failure == null) {
					stats.record(0, 0, units(written.consumedCapacity()));
					return CompletableFuture.completedFuture(Purchase.from(item));
				}
				Throwable cause = DynamoDbFailures.unwrap(failure);
				if (!(cause instanceof ConditionalCheckFailedException)) {
					return CompletableFuture.<Purchase>failedFuture(cause);
				}
				stats.record(0, 0, null);
				if (explicit || attempt >= NOW_ATTEMPTS) {
					return CompletableFuture.<Purchase>failedFuture(new InvalidArgumentException(
							"User `%s` already has a purchase at %s; nothing was overwritten."
								.formatted(attributes.get("userId").s(), Instant.ofEpochMilli(purchasedAt))));
				}
				return put(attributes, purchasedAt + 1, false, stats, attempt + 1);
			})
			.thenCompose((next) -> next);
	}

	/**
	 * Epoch milliseconds of an ISO-8601 instant with {@code Z} or an offset, at most millisecond precision.
	 */
	static long parseInstant(String value) {
		OffsetDateTime parsed;
		try {
			parsed = OffsetDateTime.parse(value, DateTimeFormatter.ISO_OFFSET_DATE_TIME);
		}
		catch (DateTimeParseException ex) {
			throw new InvalidArgumentException(("`input.purchasedAt` must be an ISO-8601 instant with `Z` or an offset, "
					+ "such as 2025-01-01T09:00:00.000Z; got `%s`.").formatted(value));
		}
		if (parsed.getNano() % 1_000_000 != 0) {
			throw new InvalidArgumentException(
					"`input.purchasedAt` has more than millisecond precision: `%s`.".formatted(value));
		}
		return parsed.toInstant().toEpochMilli();
	}

	private static String plain(BigDecimal number) {
		BigDecimal stripped = number.stripTrailingZeros();
		return (stripped.signum() == 0) ? "0" : stripped.toPlainString();
	}

	private static Double units(ConsumedCapacity capacity) {
		return (capacity != null) ? capacity.capacityUnits() : null;
	}

}
