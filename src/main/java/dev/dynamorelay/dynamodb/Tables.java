package dev.dynamorelay.dynamodb;

/**
 * The three tables' names (with the configured prefix) and the name of the category index.
 *
 * @param users {@code Users}: {@code userId} (S)
 * @param purchases {@code UserPurchases}: {@code userId} (S) / {@code purchasedAt} (N)
 * @param movies {@code Movies}: {@code year} (N) / {@code title} (S)
 */
public record Tables(String users, String purchases, String movies) {

	/** The GSI of {@code UserPurchases}: {@code category} (S) / {@code purchasedAt} (N), projection ALL. */
	public static final String BY_CATEGORY = "ByCategory";

	public static Tables withPrefix(String prefix) {
		return new Tables(prefix + "Users", prefix + "UserPurchases", prefix + "Movies");
	}

}
