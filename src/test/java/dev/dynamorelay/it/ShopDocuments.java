package dev.dynamorelay.it;

/** The GraphQL documents the shop tests page with: every argument of each connection as a variable. */
public final class ShopDocuments {

	private ShopDocuments() {
	}

	public static final String PAGE_INFO = Documents.PAGE_INFO;

	public static final String CUSTOMER = "__typename id customerId name email since";

	public static final String ORDER = "__typename id customerId orderedAt orderId status total totalExact note tags gift lines";

	public static final String ORDER_ITEM = "__typename id orderId line sku quantity options lineCustomerId: customerId lineOrderedAt: orderedAt";

	public static final String READING = "__typename id sensor seq value samples at raw";

	/** {@code body} with the definitions of the fragments it spreads ({@code ...C}, {@code ...O}, {@code ...I}, {@code ...R}). */
	public static String withFragments(String body) {
		StringBuilder document = new StringBuilder(body);
		java.util.Map<String, String> fragments = java.util.Map.of("C", "Customer { " + CUSTOMER + " }", "O",
				"Order { " + ORDER + " }", "I", "OrderItem { " + ORDER_ITEM + " }", "R", "Reading { " + READING + " }");
		fragments.forEach((name, definition) -> {
			if (java.util.regex.Pattern.compile("\\.\\.\\." + name + "\\b").matcher(body).find()) {
				document.append("\nfragment ").append(name).append(" on ").append(definition);
			}
		});
		return document.toString();
	}

	private static final String RELAY_VARIABLES = "$first: Int, $after: String, $last: Int, $before: String, $order: SortOrder";

	private static final String RELAY_ARGUMENTS = "first: $first, after: $after, last: $last, before: $before, order: $order";

	/** {@code customer.orders}: every sort-key and filter argument. */
	public static final String ORDERS = withFragments("""
			query($customerId: String!, %s,
			      $placedAt: String, $placedSince: String, $placedAfter: String, $placedUntil: String,
			      $placedBetween: [String!], $placedIn: String,
			      $status: String, $statusNot: String, $statusIn: [String!],
			      $totalBelow: Float, $totalAtMost: Float, $totalAbove: Float, $totalAtLeast: Float,
			      $notePrefix: String, $noteContains: String, $tagged: String, $gift: Boolean) {
			  customer(customerId: $customerId) {
			    orders(%s,
			           placedAt: $placedAt, placedSince: $placedSince, placedAfter: $placedAfter,
			           placedUntil: $placedUntil, placedBetween: $placedBetween, placedIn: $placedIn,
			           status: $status, statusNot: $statusNot, statusIn: $statusIn,
			           totalBelow: $totalBelow, totalAtMost: $totalAtMost, totalAbove: $totalAbove,
			           totalAtLeast: $totalAtLeast, notePrefix: $notePrefix, noteContains: $noteContains,
			           tagged: $tagged, gift: $gift) {
			      edges { cursor node { ...O } } %s
			    }
			  }
			}""".formatted(RELAY_VARIABLES, RELAY_ARGUMENTS, PAGE_INFO));

	/** {@code customer.ordersByTotal}: the local index, every sort-key argument. */
	public static final String ORDERS_BY_TOTAL = withFragments("""
			query($customerId: String!, %s, $totalFrom: Float, $totalTo: Float, $totalExactly: Float,
			      $totalBetween: [Float!], $totalUnder: Float, $totalOver: Float) {
			  customer(customerId: $customerId) {
			    ordersByTotal(%s, totalFrom: $totalFrom, totalTo: $totalTo, totalExactly: $totalExactly,
			                  totalBetween: $totalBetween, totalUnder: $totalUnder, totalOver: $totalOver) {
			      edges { cursor node { ...O } } %s
			    }
			  }
			}""".formatted(RELAY_VARIABLES, RELAY_ARGUMENTS, PAGE_INFO));

	/** {@code customer.activity}: the profile and the orders, as the union {@code CustomerItem}. */
	public static final String ACTIVITY = withFragments("""
			query($customerId: String!, %s) {
			  customer(customerId: $customerId) {
			    activity(%s) {
			      edges { cursor node { ...C ...O } } %s
			    }
			  }
			}""".formatted(RELAY_VARIABLES, RELAY_ARGUMENTS, PAGE_INFO));

	/** {@code ordersByStatus}: the sparse global index. */
	public static final String BY_STATUS = withFragments("""
			query($status: String!, %s, $placedSince: String, $totalAtLeast: Float) {
			  ordersByStatus(status: $status, %s, placedSince: $placedSince, totalAtLeast: $totalAtLeast) {
			    edges { cursor node { ...O } } %s
			  }
			}""".formatted(RELAY_VARIABLES, RELAY_ARGUMENTS, PAGE_INFO));

	/** {@code order.items} of the order whose node id is {@code $id}. */
	public static final String ORDER_ITEMS = withFragments("""
			query($id: ID!, %s) {
			  order: node(id: $id) {
			    ... on Order {
			      items(%s) {
			        edges { cursor node { ...I } } %s
			      }
			    }
			  }
			}""".formatted(RELAY_VARIABLES, RELAY_ARGUMENTS, PAGE_INFO));

	/** {@code readings}: a binary partition key and a numeric sort key. */
	public static final String READINGS = withFragments("""
			query($sensor: Bytes!, %s, $seqFrom: Long, $seqBetween: [Long!]) {
			  readings(sensor: $sensor, %s, seqFrom: $seqFrom, seqBetween: $seqBetween) {
			    edges { cursor node { ...R } } %s
			  }
			}""".formatted(RELAY_VARIABLES, RELAY_ARGUMENTS, PAGE_INFO));

	/** {@code shop}: a Scan of the whole table, as the union {@code ShopItem}. */
	public static final String SHOP = withFragments("""
			query($first: Int, $after: String, $kind: [String!]) {
			  shop(first: $first, after: $after, kind: $kind) {
			    edges { cursor node { ...C ...O ...I } } %s
			  }
			}""".formatted(PAGE_INFO));

}
