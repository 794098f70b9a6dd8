package dev.dynamorelay.sample;

/** The schema's {@code CreatePurchaseInput}, as the client sent it. */
public record CreatePurchaseInput(String userId, String purchasedAt, String product, String category,
		Double amount) {
}
