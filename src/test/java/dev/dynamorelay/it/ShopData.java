package dev.dynamorelay.it;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;

import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

import dev.dynamorelay.declaration.Declarations;
import dev.dynamorelay.model.IsoMillis;

/**
 * The shop schema's items, written straight to DynamoDB in the single-table layout
 * {@code src/test/resources/shop/shop.graphqls} declares, and the keys by which the tests compare
 * served nodes with items read directly.
 *
 * <p>Orders store no {@code customerId} or {@code orderedAt} attribute (the server reads them from
 * the key); order lines do, so that {@code OrderItem.order} can find their order. Every item carries
 * a {@code kind} attribute for {@code Query.shop(kind:)}.
 */
public final class ShopData {

	/** Sort keys of items of no declared type, in a customer's partition around the orders' `ORDER#`. */
	public static final List<String> STRAY_SORT_KEYS = List.of("NOTE#1", "ORDEQ#2025-01-01T00:00:00.000Z", "ORDER",
			"ORDER$2025-01-01T00:00:00.000Z", "ORDERS#1", "PROFILF", "PROFILE#old");

	private static final String[] TOTALS = { "12.50", "7.05", "100.00", "0.99", "250", "12.5", "7.050", "1000000.01" };

	private static final String[] NOTES = { "Gift wrap, please", "Leave at the door", "Call before delivery" };

	private final DynamoDbClient dynamoDb;

	private final Fixtures fixtures;

	public final String shopTable;

	public final String readingsTable;

	public ShopData(DynamoDbClient dynamoDb, Fixtures fixtures, Declarations declarations) {
		this.dynamoDb = dynamoDb;
		this.fixtures = fixtures;
		this.shopTable = declarations.entity("Order").table().physicalName();
		this.readingsTable = declarations.entity("Reading").table().physicalName();
	}

	public static String unique(String prefix) {
		return Fixtures.unique(prefix);
	}

	/** ISO-8601 with milliseconds, as orders' sort keys hold their time. */
	public static String iso(Instant instant) {
		return IsoMillis.format(instant.toEpochMilli());
	}

	// Items

	/** A customer's profile; {@code email} and {@code since} (epoch seconds) may be null. */
	public static Map<String, AttributeValue> profile(String customerId, String name, String email, String since) {
		Map<String, AttributeValue> item = new HashMap<>();
		item.put("PK", s("CUSTOMER#" + customerId));
		item.put("SK", s("PROFILE"));
		item.put("customerId", s(customerId));
		item.put("kind", s("customer"));
		if (name != null) {
			item.put("name", s(name));
		}
		if (email != null) {
			item.put("e-mail", s(email));
		}
		if (since != null) {
			item.put("since", AttributeValue.fromN(since));
		}
		return item;
	}

	/** A bare order: key, {@code orderId} and {@code kind} only. */
	public static Map<String, AttributeValue> order(String customerId, String orderedAt, String orderId) {
		Map<String, AttributeValue> item = new HashMap<>();
		item.put("PK", s("CUSTOMER#" + customerId));
		item.put("SK", s("ORDER#" + orderedAt));
		item.put("orderId", s(orderId));
		item.put("kind", s("order"));
		return item;
	}

	/**
	 * {@code count} orders of one customer, one every 37 minutes from {@code start}, of varied content:
	 * statuses {@code <statusBase>-NEW/-PAID/-SHIPPED} (some without status), totals with many ties (some
	 * without), notes, tags, gift on some, and in {@code GSI1} all but every fifth (sparse).
	 */
	public static List<Map<String, AttributeValue>> orders(String customerId, int count, Instant start, String statusBase) {
		List<Map<String, AttributeValue>> orders = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			String orderedAt = iso(start.plusSeconds(37L * 60 * i));
			Map<String, AttributeValue> order = order(customerId, orderedAt, customerId + "-o" + i);
			String status = (i % 9 == 8) ? null : statusBase + "-" + List.of("NEW", "PAID", "SHIPPED").get(i % 3);
			if (status != null) {
				order.put("status", s(status));
				if (i % 5 != 4) {
					order.put("GSI1PK", s("STATUS#" + status));
					order.put("GSI1SK", s(orderedAt));
				}
			}
			if (i % 11 != 10) {
				order.put("total", AttributeValue.fromN(TOTALS[(i * 7) % TOTALS.length]));
			}
			if (i % 4 != 3) {
				order.put("note", s(NOTES[i % NOTES.length] + " #" + i));
			}
			switch (i % 6) {
				case 0 -> order.put("tags", AttributeValue.fromSs(List.of("red", "sale")));
				case 1 -> order.put("tags", AttributeValue.fromSs(List.of("blue")));
				case 4 -> order.put("tags", AttributeValue.fromSs(List.of("reddish", "blue")));
				default -> {
				}
			}
			if (i % 4 == 0) {
				order.put("gift", AttributeValue.fromBool(true));
			}
			else if (i % 8 == 1) {
				order.put("gift", AttributeValue.fromBool(false));
			}
			order.put("lines", AttributeValue.fromN(Integer.toString(1 + i % 3)));
			orders.add(order);
		}
		return orders;
	}

	/** Items of no declared type in a customer's partition, with sort keys around the orders'. */
	public static List<Map<String, AttributeValue>> strays(String customerId) {
		return STRAY_SORT_KEYS.stream()
			.map((sk) -> Map.of("PK", s("CUSTOMER#" + customerId), "SK", s(sk), "kind", s("stray")))
			.toList();
	}

	/** An order line; {@code customerId}/{@code orderedAt} (its order's key) may be null. */
	public static Map<String, AttributeValue> line(String orderId, int line, String customerId, String orderedAt) {
		Map<String, AttributeValue> item = new HashMap<>();
		item.put("PK", s("ORDER#" + orderId));
		item.put("SK", s("ITEM#%04d".formatted(line)));
		item.put("sku", s("SKU-" + (line * 31 % 97)));
		item.put("quantity", AttributeValue.fromN(Integer.toString(1 + line % 5)));
		item.put("kind", s("line"));
		Map<String, AttributeValue> options = new LinkedHashMap<>();
		options.put("size", s(List.of("S", "M", "L").get(line % 3)));
		options.put("engraving", (line % 2 == 0) ? s("line " + line) : AttributeValue.fromNul(true));
		options.put("weight", AttributeValue.fromN("1.50"));
		item.put("options", AttributeValue.fromM(options));
		if (customerId != null) {
			item.put("customerId", s(customerId));
		}
		if (orderedAt != null) {
			item.put("orderedAt", s(orderedAt));
		}
		return item;
	}

	/** A reading with a value only. */
	public static Map<String, AttributeValue> reading(byte[] sensor, long seq, String value) {
		Map<String, AttributeValue> item = new HashMap<>();
		item.put("sensor", AttributeValue.fromB(SdkBytes.fromByteArray(sensor)));
		item.put("seq", AttributeValue.fromN(Long.toString(seq)));
		if (value != null) {
			item.put("value", AttributeValue.fromN(value));
		}
		return item;
	}

	// Writes and direct reads

	public void putShop(List<Map<String, AttributeValue>> items) {
		this.fixtures.put(this.shopTable, items);
	}

	public void putShop(Map<String, AttributeValue> item) {
		putShop(List.of(item));
	}

	public void putReadings(List<Map<String, AttributeValue>> items) {
		this.fixtures.put(this.readingsTable, items);
	}

	public Map<String, AttributeValue> get(String table, Map<String, AttributeValue> key) {
		return this.dynamoDb.getItem((get) -> get.tableName(table).key(key).consistentRead(true)).item();
	}

	/**
	 * A Query of the shop table over one partition: {@code keyCondition} and {@code filter} (null for none)
	 * use {@code #pk}, {@code #sk}, {@code :pk} and the given names and values.
	 */
	public List<Map<String, AttributeValue>> queryShop(String index, String partitionAttribute, String sortAttribute,
			String partition, String keyCondition, String filter, Map<String, String> names,
			Map<String, AttributeValue> values, boolean ascending) {
		Map<String, String> allNames = new HashMap<>(names);
		allNames.put("#pk", partitionAttribute);
		String condition = "#pk = :pk";
		if (keyCondition != null) {
			allNames.put("#sk", sortAttribute);
			condition += " AND " + keyCondition;
		}
		Map<String, AttributeValue> allValues = new HashMap<>(values);
		allValues.put(":pk", s(partition));
		String expression = condition;
		Consumer<QueryRequest.Builder> request = (q) -> {
			q.tableName(this.shopTable)
				.keyConditionExpression(expression)
				.expressionAttributeNames(allNames)
				.expressionAttributeValues(allValues)
				.scanIndexForward(ascending);
			if (index != null) {
				q.indexName(index);
			}
			if (filter != null) {
				q.filterExpression(filter);
			}
		};
		return Direct.query(this.dynamoDb, request);
	}

	// Keys compared

	/**
	 * The declared type and key of a stored item by its key's shape, e.g.
	 * {@code Order:c-1/2025-01-01T00:00:00.000Z}; null for an item of no declared type.
	 */
	public static String itemKey(Map<String, AttributeValue> item) {
		if (item.containsKey("sensor")) {
			return "Reading:" + Base64.getEncoder().encodeToString(item.get("sensor").b().asByteArray()) + "/"
					+ item.get("seq").n();
		}
		String pk = item.get("PK").s();
		String sk = item.get("SK").s();
		if (pk.startsWith("CUSTOMER#") && pk.length() > 9) {
			if (sk.equals("PROFILE")) {
				return "Customer:" + pk.substring(9);
			}
			if (sk.startsWith("ORDER#") && sk.length() > 6) {
				return "Order:" + pk.substring(9) + "/" + sk.substring(6);
			}
		}
		if (pk.startsWith("ORDER#") && pk.length() > 6 && sk.startsWith("ITEM#") && sk.length() > 5) {
			return "OrderItem:" + pk.substring(6) + "/" + sk.substring(5);
		}
		return null;
	}

	/** The keys of the items of a declared type, in order. */
	public static List<String> itemKeys(List<Map<String, AttributeValue>> items) {
		return items.stream().map(ShopData::itemKey).filter(java.util.Objects::nonNull).toList();
	}

	/** The same key of a served node, by its {@code __typename} and key fields. */
	public static String nodeKey(Map<String, Object> node) {
		return switch ((String) node.get("__typename")) {
			case "Customer" -> "Customer:" + node.get("customerId");
			case "Order" -> "Order:" + node.get("customerId") + "/" + node.get("orderedAt");
			case "OrderItem" -> "OrderItem:" + node.get("orderId") + "/" + node.get("line");
			case "Reading" -> "Reading:" + node.get("sensor") + "/" + node.get("seq");
			default -> throw new IllegalArgumentException("not a shop node: " + node);
		};
	}

	public static List<String> nodeKeys(List<Map<String, Object>> nodes) {
		return nodes.stream().map(ShopData::nodeKey).toList();
	}

	public static AttributeValue s(String value) {
		return AttributeValue.fromS(value);
	}

	/** A sensor id of bytes no other test uses, with bytes above 0x7F and a zero byte. */
	public static byte[] sensor() {
		UUID uuid = UUID.randomUUID();
		ByteBuffer bytes = ByteBuffer.allocate(19);
		bytes.put((byte) 0xFF).put((byte) 0x00).put((byte) 0x80);
		bytes.putLong(uuid.getMostSignificantBits()).putLong(uuid.getLeastSignificantBits());
		return bytes.array();
	}

}
