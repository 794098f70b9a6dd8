package dev.dynamorelay.graphql;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import graphql.schema.DataFetchingEnvironment;
import org.springframework.graphql.data.method.annotation.Argument;
import org.springframework.graphql.data.method.annotation.QueryMapping;
import org.springframework.stereotype.Controller;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.dynamodb.Tables;
import dev.dynamorelay.error.InvalidArgumentException;

/** {@code node} and {@code nodes}: items by opaque id, batched into {@code BatchGetItem}. */
@Controller
class NodeController {

	/** The contract's fixed limit on {@code nodes(ids)}. */
	static final int MAX_IDS = 100;

	private final Tables tables;

	NodeController(Tables tables) {
		this.tables = tables;
	}

	@QueryMapping
	CompletableFuture<Object> node(@Argument String id, DataFetchingEnvironment environment) {
		return load(NodeId.decode(id), environment);
	}

	@QueryMapping
	CompletableFuture<List<Object>> nodes(@Argument List<String> ids, DataFetchingEnvironment environment) {
		if (ids.size() > MAX_IDS) {
			throw new InvalidArgumentException(
					"`nodes` takes at most %d ids, got %d.".formatted(MAX_IDS, ids.size()));
		}
		List<NodeId> decoded = ids.stream().map(NodeId::decode).toList();
		List<CompletableFuture<Object>> loads = new ArrayList<>(decoded.size());
		decoded.forEach((id) -> loads.add(load(id, environment)));
		return CompletableFuture.allOf(loads.toArray(CompletableFuture[]::new))
			.thenApply((done) -> loads.stream().map(CompletableFuture::join).toList());
	}

	private CompletableFuture<Object> load(NodeId id, DataFetchingEnvironment environment) {
		return ItemLoaders.load(environment, id.key(this.tables))
			.thenApply((item) -> item.map((found) -> toNode(id, found)).orElse(null));
	}

	private static Object toNode(NodeId id, Map<String, AttributeValue> item) {
		if (id instanceof NodeId.UserId) {
			return User.from(item);
		}
		if (id instanceof NodeId.PurchaseId) {
			return Purchase.from(item);
		}
		return Movie.from(item);
	}

}
