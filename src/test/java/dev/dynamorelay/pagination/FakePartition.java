package dev.dynamorelay.pagination;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.Select;

import dev.dynamorelay.model.ConnectionDefinition;
import dev.dynamorelay.model.KeyAttribute;

/**
 * One partition ({@code pk = "p"}) of items with sort keys {@code 0 .. size - 1} and an amount
 * {@code sk % 10}, answering Queries as DynamoDB does for the parts the engine uses: {@code Limit}
 * bounds the items evaluated, a FilterExpression ({@code amount >= :f0_0}) drops items after, and a
 * {@code LastEvaluatedKey} comes back whenever the {@code Limit} was reached. Records each request's
 * {@code Limit} and the most requests in flight at once.
 */
final class FakePartition implements DynamoDbAsyncClient {

	static final KeyAttribute PK = KeyAttribute.string("pk");

	static final KeyAttribute SK = KeyAttribute.number("sk");

	static final ConnectionDefinition<Integer> CONNECTION = ConnectionDefinition.query("Test.items", "Items",
			java.util.Optional.empty(), false, PK, java.util.Optional.of(SK), List.of(PK, SK), false,
			(item) -> Integer.valueOf(item.get("sk").n()));

	private final int size;

	/** Completes responses: at once when null. */
	private final Executor executor;

	final List<Integer> limits = java.util.Collections.synchronizedList(new ArrayList<>());

	private final AtomicInteger inFlight = new AtomicInteger();

	final AtomicInteger mostInFlight = new AtomicInteger();

	FakePartition(int size, Executor executor) {
		this.size = size;
		this.executor = executor;
	}

	@Override
	public CompletableFuture<QueryResponse> query(QueryRequest request) {
		this.limits.add(request.limit());
		this.mostInFlight.accumulateAndGet(this.inFlight.incrementAndGet(), Math::max);
		if (this.executor == null) {
			return CompletableFuture.completedFuture(answer(request));
		}
		return CompletableFuture.supplyAsync(() -> answer(request), this.executor);
	}

	private QueryResponse answer(QueryRequest request) {
		try {
			Thread.sleep((this.executor != null) ? 2 : 0);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		boolean forward = !Boolean.FALSE.equals(request.scanIndexForward());
		int step = forward ? 1 : -1;
		int from = forward ? 0 : this.size - 1;
		if (request.hasExclusiveStartKey() && !request.exclusiveStartKey().isEmpty()) {
			from = Integer.parseInt(request.exclusiveStartKey().get("sk").n()) + step;
		}
		Integer minimum = (request.filterExpression() != null)
				? Integer.valueOf(request.expressionAttributeValues().get(":f0_0").n()) : null;
		List<Map<String, AttributeValue>> items = new ArrayList<>();
		int scanned = 0;
		int last = -1;
		for (int sk = from; sk >= 0 && sk < this.size && scanned < request.limit(); sk += step) {
			scanned++;
			last = sk;
			if (minimum == null || sk % 10 >= minimum) {
				items.add(item(sk));
			}
		}
		QueryResponse.Builder response = QueryResponse.builder().scannedCount(scanned).count(items.size());
		if (request.select() != Select.COUNT) {
			response.items(items);
		}
		if (scanned == request.limit() && last >= 0) {
			response.lastEvaluatedKey(Map.of("pk", AttributeValue.fromS("p"), "sk", AttributeValue.fromN(Integer.toString(last))));
		}
		this.inFlight.decrementAndGet();
		return response.build();
	}

	static Map<String, AttributeValue> item(int sk) {
		return Map.of("pk", AttributeValue.fromS("p"), "sk", AttributeValue.fromN(Integer.toString(sk)), "amount",
				AttributeValue.fromN(Integer.toString(sk % 10)));
	}

	@Override
	public String serviceName() {
		return "dynamodb";
	}

	@Override
	public void close() {
	}

}
