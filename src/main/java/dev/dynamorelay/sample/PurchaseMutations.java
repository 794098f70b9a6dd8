package dev.dynamorelay.sample;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import graphql.schema.DataFetchingEnvironment;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.graphql.data.method.annotation.Argument;
import org.springframework.graphql.data.method.annotation.MutationMapping;
import org.springframework.stereotype.Controller;
import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;

import dev.dynamorelay.budget.ReadStats;
import dev.dynamorelay.declaration.Declarations;
import dev.dynamorelay.declaration.Entity;
import dev.dynamorelay.declaration.Item;
import dev.dynamorelay.declaration.KeyValue;
import dev.dynamorelay.declaration.NodeIds;
import dev.dynamorelay.declaration.ValueType;
import dev.dynamorelay.dynamodb.DynamoDbFailures;
import dev.dynamorelay.dynamodb.DynamoDbProperties;
import dev.dynamorelay.error.InvalidArgumentException;
import dev.dynamorelay.error.NotFoundException;
import dev.dynamorelay.error.UnavailableException;
import dev.dynamorelay.request.RequestScope;
import dev.dynamorelay.schema.SchemaProperties;

/**
 * The sample's {@code createPurchase} and {@code deletePurchase}: rules the declaration language does
 * not express (the user must exist, a purchase is never overwritten), written as ordinary Spring
 * GraphQL code beside the declarations. They return declared {@link Item}s, so the declared fields
 * serve them like any item read by a connection. Their reads and writes take their place among the
 * request's DynamoDB calls in flight like any other ({@link ReadStats#calls()}).
 */
@Controller
@ConditionalOnProperty(name = "dynamo-relay.schema.locations", havingValue = SchemaProperties.SAMPLE,
		matchIfMissing = true)
class PurchaseMutations {

	/** Room left for the other attributes under DynamoDB's 400 KB item limit. */
	static final int MAX_PRODUCT_BYTES = 350_000;

	/** Attempts at a free millisecond when {@code purchasedAt} defaults to now. */
	private static final int NOW_ATTEMPTS = 5;

	private static final ValueType AMOUNT = new ValueType.Number(ValueType.Number.Kind.FLOAT);

	private final DynamoDbAsyncClient dynamoDb;

	private final Declarations declarations;

	private final Entity users;

	private final Entity purchases;

	private final Duration timeout;

	PurchaseMutations(DynamoDbAsyncClient dynamoDb, Declarations declarations, DynamoDbProperties properties) {
		this.dynamoDb = dynamoDb;
		this.timeout = properties.timeout();
		this.declarations = declarations;
		this.users = declarations.entity("User");
		this.purchases = declarations.entity("Purchase");
	}

	@MutationMapping
	CompletableFuture<Item> createPurchase(@Argument CreatePurchaseInput input, DataFetchingEnvironment environment) {
		String userId = key("input.userId", input.userId());
		String category = key("input.category", input.category());
		String product = input.product();
		if (product == null || product.isBlank()) {
			throw new InvalidArgumentException("`input.product` must not be blank.");
		}
		if (product.getBytes(StandardCharsets.UTF_8).length > MAX_PRODUCT_BYTES) {
			throw new InvalidArgumentException(
					"`input.product` is longer than %d UTF-8 bytes.".formatted(MAX_PRODUCT_BYTES));
		}
		AttributeValue amount = AMOUNT.write("input.amount", input.amount());
		Long explicit = (input.purchasedAt() != null) ? parseInstant(input.purchasedAt()) : null;
		ReadStats stats = RequestScope.of(environment).stats();
		Map<String, AttributeValue> item = new HashMap<>();
		item.put("userId", AttributeValue.fromS(userId));
		item.put("product", AttributeValue.fromS(product));
		item.put("category", AttributeValue.fromS(category));
		item.put("amount", amount);
		return stats.calls()
			.call(() -> stats.sent(this.dynamoDb.getItem((get) -> get.tableName(this.users.table().physicalName())
				.key(Map.of("userId", AttributeValue.fromS(userId)))
				.projectionExpression("userId")
				.returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
				.overrideConfiguration(within(stats)))))
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
		NodeIds.Key purchase = Declarations.expect(this.declarations.decode(id), this.purchases.name(), "id");
		ReadStats stats = RequestScope.of(environment).stats();
		return stats.calls()
			.call(() -> stats.sent(this.dynamoDb.deleteItem((delete) -> delete.tableName(this.purchases.table().physicalName())
				.key(purchase.key())
				.returnValues(ReturnValue.ALL_OLD)
				.returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
				.overrideConfiguration(within(stats)))))
			.thenApply((deleted) -> {
				stats.record(0, 0, units(deleted.consumedCapacity()));
				return (deleted.hasAttributes() && !deleted.attributes().isEmpty())
						? NodeIds.encode(this.purchases, purchase.key()) : null;
			});
	}

	private CompletableFuture<Item> put(Map<String, AttributeValue> attributes, long purchasedAt, boolean explicit,
			ReadStats stats, int attempt) {
		Map<String, AttributeValue> item = new HashMap<>(attributes);
		item.put("purchasedAt", AttributeValue.fromN(Long.toString(purchasedAt)));
		return stats.calls()
			.call(() -> stats.sent(this.dynamoDb.putItem((put) -> put.tableName(this.purchases.table().physicalName())
				.item(item)
				.conditionExpression("attribute_not_exists(userId)")
				.returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
				.overrideConfiguration(within(stats)))))
			.handle((written, failure) -> {
				if (failure == null) {
					stats.record(0, 0, units(written.consumedCapacity()));
					return CompletableFuture.completedFuture(new Item(this.purchases, item));
				}
				Throwable cause = DynamoDbFailures.unwrap(failure);
				if (!(cause instanceof ConditionalCheckFailedException)) {
					return CompletableFuture.<Item>failedFuture(cause);
				}
				// Counted as a request by stats.sent, as every refused write is.
				if (explicit || attempt >= NOW_ATTEMPTS) {
					return CompletableFuture.<Item>failedFuture(new InvalidArgumentException(
							"User `%s` already has a purchase at %s; nothing was overwritten."
								.formatted(attributes.get("userId").s(), Instant.ofEpochMilli(purchasedAt))));
				}
				return put(attributes, purchasedAt + 1, false, stats, attempt + 1);
			})
			.thenCompose((next) -> next);
	}

	/**
	 * A call's timeout: what is left of the request's time, so that its calls one after another end
	 * within it as its reads do; none left is UNAVAILABLE at once.
	 */
	private AwsRequestOverrideConfiguration within(ReadStats stats) {
		Duration remaining = stats.remaining(this.timeout);
		if (remaining.isNegative() || remaining.isZero()) {
			throw new UnavailableException("DynamoDB did not serve the request within " + this.timeout + ".", null);
		}
		return AwsRequestOverrideConfiguration.builder().apiCallTimeout(remaining).build();
	}

	/** A non-empty key string that DynamoDB accepts as a partition key. */
	private static String key(String argument, String value) {
		if (value == null) {
			throw new InvalidArgumentException("`%s` must not be empty.".formatted(argument));
		}
		return ValueType.checkKey(argument, AttributeValue.fromS(value), KeyValue.MAX_PARTITION_KEY_BYTES).s();
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

	private static Double units(ConsumedCapacity capacity) {
		return (capacity != null) ? capacity.capacityUnits() : null;
	}

}
