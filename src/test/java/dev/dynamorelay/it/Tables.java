package dev.dynamorelay.it;

import dev.dynamorelay.declaration.Declarations;

/**
 * The sample's three tables' names as the server serves them (with the configured prefix).
 *
 * @param users {@code Users}: {@code userId} (S)
 * @param purchases {@code UserPurchases}: {@code userId} (S) / {@code purchasedAt} (N), index {@code ByCategory}
 * @param movies {@code Movies}: {@code year} (N) / {@code title} (S)
 */
public record Tables(String users, String purchases, String movies) {

	public static Tables of(Declarations declarations) {
		return new Tables(declarations.entity("User").table().physicalName(),
				declarations.entity("Purchase").table().physicalName(), declarations.entity("Movie").table().physicalName());
	}

}
