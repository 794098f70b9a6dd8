package dev.dynamorelay.transport.graphql;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import graphql.GraphQLContext;
import graphql.schema.DataFetchingEnvironment;
import org.dataloader.DataLoader;
import org.springframework.graphql.execution.BatchLoaderRegistry;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.dynamodb.ItemLoader.ItemKey;
import dev.dynamorelay.dynamodb.ItemLoader;
import dev.dynamorelay.transport.request.RequestScope;

/**
 * Batches every load of an item by key in one request into {@code BatchGetItem}s: {@code user},
 * {@code Purchase.user}, {@code node} and {@code nodes} share one DataLoader, so the 50 purchases of
 * a page that share a user cost one request for that user.
 */
@Component
public class ItemLoaders {

	static final String NAME = "items";

	@SuppressWarnings({ "unchecked", "rawtypes" })
	public ItemLoaders(BatchLoaderRegistry registry, ItemLoader items) {
		registry.forTypePair(ItemKey.class, Optional.class)
			.withName(NAME)
			.registerMappedBatchLoader((keys, environment) -> Mono
				.fromFuture(() -> items.load(keys, RequestScope.of((GraphQLContext) environment.getContext()).stats())
					.thenApply((found) -> {
						Map<ItemKey, Optional> result = new HashMap<>();
						keys.forEach((key) -> result.put(key, Optional.ofNullable(found.get(key))));
						return result;
					})));
	}

	/** The item with {@code key}, loaded with the request's other keys; empty when absent. */
	static CompletableFuture<Optional<Map<String, AttributeValue>>> load(DataFetchingEnvironment environment,
			ItemKey key) {
		DataLoader<ItemKey, Optional<Map<String, AttributeValue>>> loader = environment.getDataLoader(NAME);
		return loader.load(key);
	}

}
