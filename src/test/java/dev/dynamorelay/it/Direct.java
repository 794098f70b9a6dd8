package dev.dynamorelay.it;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;

/** Direct reads with the SDK, to compare pages against, and the keys both sides are compared by. */
public final class Direct {

	private Direct() {
	}

	public static List<Map<String, AttributeValue>> query(DynamoDbClient dynamoDb, Consumer<QueryRequest.Builder> request) {
		return dynamoDb.queryPaginator(request).items().stream().toList();
	}

	public static List<Map<String, AttributeValue>> scan(DynamoDbClient dynamoDb, Consumer<ScanRequest.Builder> request) {
		return dynamoDb.scanPaginator(request).items().stream().toList();
	}

	public static List<Map<String, AttributeValue>> userPurchases(DynamoDbClient dynamoDb, String table, String userId,
			boolean ascending) {
		return query(dynamoDb, (q) -> q.tableName(table)
			.keyConditionExpression("userId = :u")
			.expressionAttributeValues(Map.of(":u", AttributeValue.fromS(userId)))
			.scanIndexForward(ascending));
	}

	public static List<Map<String, AttributeValue>> byCategory(DynamoDbClient dynamoDb, String table, String category,
			boolean ascending) {
		return query(dynamoDb, (q) -> q.tableName(table)
			.indexName("ByCategory")
			.keyConditionExpression("category = :c")
			.expressionAttributeValues(Map.of(":c", AttributeValue.fromS(category)))
			.scanIndexForward(ascending));
	}

	public static String purchaseKey(Map<String, AttributeValue> item) {
		return item.get("userId").s() + "@" + item.get("purchasedAt").n();
	}

	public static List<String> purchaseKeys(List<Map<String, AttributeValue>> items) {
		return items.stream().map(Direct::purchaseKey).toList();
	}

	public static List<String> nodePurchaseKeys(List<Map<String, Object>> nodes) {
		return nodes.stream()
			.map((node) -> node.get("userId") + "@" + Instant.parse((String) node.get("purchasedAt")).toEpochMilli())
			.toList();
	}

}
