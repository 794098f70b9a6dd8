package dev.dynamorelay.it;

/** The GraphQL documents the integration tests page with. */
public final class Documents {

	private Documents() {
	}

	public static final String PAGE_INFO = "pageInfo { hasNextPage hasPreviousPage startCursor endCursor }";

	public static final String USERS = """
			query($first: Int, $after: String, $last: Int, $before: String) {
			  users(first: $first, after: $after, last: $last, before: $before) {
			    edges { cursor node { id userId name } } %s
			  }
			}""".formatted(PAGE_INFO);

	public static final String USER_PURCHASES = """
			query($userId: String!, $first: Int, $after: String, $last: Int, $before: String,
			      $minAmount: Float, $order: SortOrder) {
			  user(userId: $userId) {
			    purchases(first: $first, after: $after, last: $last, before: $before,
			              minAmount: $minAmount, order: $order) {
			      edges { cursor node { id userId purchasedAt amount category } } %s
			    }
			  }
			}""".formatted(PAGE_INFO);

	public static final String USER_PURCHASES_COUNTED = USER_PURCHASES.replace("edges { cursor", "totalCount edges { cursor");

	public static final String BY_CATEGORY = """
			query($category: String!, $first: Int, $after: String, $last: Int, $before: String,
			      $minAmount: Float, $order: SortOrder) {
			  purchasesByCategory(category: $category, first: $first, after: $after, last: $last,
			                      before: $before, minAmount: $minAmount, order: $order) {
			    edges { cursor node { id userId purchasedAt amount category } } %s
			  }
			}""".formatted(PAGE_INFO);

	public static final String BY_CATEGORY_COUNTED = BY_CATEGORY.replace("edges { cursor", "totalCount edges { cursor");

	public static final String MOVIES = """
			query($year: Int!, $first: Int, $after: String, $last: Int, $before: String,
			      $titlePrefix: String, $minRating: Float, $order: SortOrder) {
			  movies(year: $year, first: $first, after: $after, last: $last, before: $before,
			         titlePrefix: $titlePrefix, minRating: $minRating, order: $order) {
			    edges { cursor node { id year title rating } } %s
			  }
			}""".formatted(PAGE_INFO);

	public static final String MOVIES_COUNTED = MOVIES.replace("edges { cursor", "totalCount edges { cursor");

}
