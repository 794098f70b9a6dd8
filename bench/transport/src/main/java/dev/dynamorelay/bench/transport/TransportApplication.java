package dev.dynamorelay.bench.transport;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.graphql.data.method.annotation.Argument;
import org.springframework.graphql.data.method.annotation.BatchMapping;
import org.springframework.graphql.data.method.annotation.QueryMapping;
import org.springframework.stereotype.Controller;
import reactor.core.publisher.Mono;

/**
 * Serves the start-up section's 20-edge page from memory, on whichever web stack
 * {@code --spring.main.web-application-type} picks ({@code servlet}: Tomcat and Spring MVC; {@code reactive}:
 * Reactor Netty and WebFlux). Everything but the transport is the same in both: Spring GraphQL, graphql-java,
 * Jackson, and the page's two waits on DynamoDB, stood for by {@link #DYNAMODB_MICROS} each: the page (a Query)
 * and then its users in one batch (a BatchGetItem, as dynamo-relay's DataLoader sends), each completed on
 * another thread, as dynamo-relay's are on the DynamoDB client's.
 */
@SpringBootApplication
public class TransportApplication {

	/**
	 * How long each of a page's two DynamoDB calls takes, simulated: what DynamoDB Local took here when this section
	 * was written (a Query of 21 items: 1-1.5 ms).
	 */
	static final long DYNAMODB_MICROS = 1_200;

	public static void main(String[] args) {
		SpringApplication.run(TransportApplication.class, args);
	}

	public record Purchase(String id, String purchasedAt, String product, double amount, String userId) {
	}

	public record User(String name) {
	}

	public record Edge(String cursor, Purchase node) {
	}

	public record PageInfo(boolean hasNextPage, String endCursor) {
	}

	public record Connection(List<Edge> edges, PageInfo pageInfo) {
	}

	@Controller
	static class Pages {

		/** Stands for the HTTP client's event loop, where a DynamoDB answer completes a call. */
		private final ScheduledExecutorService dynamoDb = Executors.newScheduledThreadPool(2);

		@QueryMapping
		CompletableFuture<Connection> purchasesByCategory(@Argument String category, @Argument Integer first,
				@Argument String after) {
			int size = (first != null) ? first : 20;
			int from = (after != null) ? Math.abs(after.hashCode() % 1000) : 0;
			return call(() -> page(category, from, size));
		}

		@BatchMapping
		Mono<Map<Purchase, User>> user(List<Purchase> purchases) {
			return Mono.fromFuture(call(() -> {
				Map<Purchase, User> users = new LinkedHashMap<>();
				for (Purchase purchase : purchases) {
					users.put(purchase, new User("User " + purchase.userId()));
				}
				return users;
			}));
		}

		private <T> CompletableFuture<T> call(java.util.function.Supplier<T> answer) {
			CompletableFuture<T> result = new CompletableFuture<>();
			this.dynamoDb.schedule(() -> result.complete(answer.get()), DYNAMODB_MICROS, TimeUnit.MICROSECONDS);
			return result;
		}

		private static Connection page(String category, int from, int size) {
			List<Edge> edges = new ArrayList<>(size);
			for (int i = from; i < from + size; i++) {
				String id = category + "-" + i;
				Purchase purchase = new Purchase(id, "2023-11-14T22:13:%02d.000Z".formatted(i % 60), "Product " + i,
						10 + i * 0.25, "bench-user-%04d".formatted(i % 2000));
				// The length of a dynamo-relay cursor (a signed key, base64url).
				edges.add(new Edge("eyJ2IjoxLCJrIjp7ImNhdGVnb3J5IjoiY2F0LTAiLCJwdXJjaGFzZWRBdCI6IjIwMjMtMTEtMTRUMjI6MTM6"
						+ i + "In19.c2lnbmF0dXJl", purchase));
			}
			return new Connection(edges, new PageInfo(true, edges.get(edges.size() - 1).cursor()));
		}

	}

}
