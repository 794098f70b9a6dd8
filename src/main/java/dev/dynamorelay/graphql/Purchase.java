package dev.dynamorelay.graphql;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Map;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The GraphQL {@code Purchase}: an item of the {@code UserPurchases} table.
 *
 * @param purchasedAtMillis the sort key, epoch milliseconds
 */
public record Purchase(String userId, long purchasedAtMillis, String product, String category, Double amount) {

	private static final DateTimeFormatter ISO_MILLIS = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'")
		.withZone(ZoneOffset.UTC);

	static Purchase from(Map<String, AttributeValue> item) {
		return new Purchase(Items.string(item, "userId"), Items.wholeNumber(item, "purchasedAt"),
				Items.string(item, "product"), Items.string(item, "category"), Items.number(item, "amount"));
	}

	public String id() {
		return new NodeId.PurchaseId(this.userId, this.purchasedAtMillis).encode();
	}

	/** ISO-8601 UTC with exactly three fraction digits. */
	public String purchasedAt() {
		return ISO_MILLIS.format(Instant.ofEpochMilli(this.purchasedAtMillis));
	}

}
