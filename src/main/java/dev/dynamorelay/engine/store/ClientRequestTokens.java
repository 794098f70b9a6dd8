package dev.dynamorelay.engine.store;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Supplier;

import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsResponse;

import dev.dynamorelay.engine.action.AwsError;

/**
 * TransactWriteItems' idempotency: a request that succeeded is remembered by its ClientRequestToken for the
 * configured time (10 minutes by default); the same request again within it is answered as the first was, without
 * being run again; another request with the same token is refused with IdempotentParameterMismatchException; a
 * second request with the token while the first is running waits for it. The oldest tokens are forgotten first,
 * once expired or once more are kept than the configured bound.
 */
final class ClientRequestTokens {

	private final Database database;

	private final Map<String, Remembered> tokens = new ConcurrentHashMap<>();

	private final ConcurrentLinkedQueue<String> tokenOrder = new ConcurrentLinkedQueue<>();

	ClientRequestTokens(Database database) {
		this.database = database;
	}

	/** A ClientRequestToken's request and outcome, until it expires. */
	private record Remembered(byte[] fingerprint, Instant expiry, CompletableFuture<TransactWriteItemsResponse> outcome) {
	}

	/** Runs {@code run} for the request of {@code token} once, answering a repeat of it as the first was answered. */
	TransactWriteItemsResponse once(String token, TransactWriteItemsRequest request, Supplier<TransactWriteItemsResponse> run) {
		byte[] fingerprint = fingerprint(request);
		while (true) {
			forgetExpiredTokens();
			Instant now = this.database.now();
			Remembered mine = new Remembered(fingerprint, now.plus(this.database.options.transactionTokenTtl()), new CompletableFuture<>());
			Remembered existing = this.tokens.putIfAbsent(token, mine);
			if (existing != null && existing.expiry().isBefore(now)) {
				this.tokens.remove(token, existing);
				continue;
			}
			if (existing != null) {
				if (!Arrays.equals(existing.fingerprint(), fingerprint)) {
					throw AwsError.of("IdempotentParameterMismatchException",
							"The request uses the same client token as a previous, but non-identical request. "
									+ "Do not reuse a client token with different requests, unless the requests are identical.");
				}
				try {
					return existing.outcome().join();
				}
				catch (CompletionException ex) {
					// the first request with this token failed: it did nothing, so this one runs
					this.tokens.remove(token, existing);
					continue;
				}
			}
			this.tokenOrder.add(token);
			try {
				TransactWriteItemsResponse response = run.get();
				mine.outcome().complete(response);
				return response;
			}
			catch (RuntimeException ex) {
				this.tokens.remove(token, mine);
				mine.outcome().completeExceptionally(ex);
				throw ex;
			}
		}
	}

	private void forgetExpiredTokens() {
		Instant now = this.database.now();
		int excess = this.tokens.size() - this.database.options.maxTransactionTokens();
		while (true) {
			String oldest = this.tokenOrder.peek();
			if (oldest == null) {
				return;
			}
			Remembered remembered = this.tokens.get(oldest);
			boolean expired = remembered == null || remembered.expiry().isBefore(now);
			if (!expired && excess <= 0) {
				return;
			}
			this.tokenOrder.poll();
			if (remembered != null && remembered.outcome().isDone()) {
				this.tokens.remove(oldest, remembered);
				excess--;
			}
		}
	}

	private static byte[] fingerprint(TransactWriteItemsRequest request) {
		try {
			MessageDigest sha = MessageDigest.getInstance("SHA-256");
			return sha.digest(String.valueOf(request.transactItems()).getBytes(StandardCharsets.UTF_8));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("every Java runtime has SHA-256", ex);
		}
	}

}
