package dev.dynamorelay.transport.graphql.live;

import java.util.List;
import java.util.Map;

import graphql.ExecutionResult;
import graphql.GraphQLError;
import graphql.GraphqlErrorBuilder;
import org.reactivestreams.Publisher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.graphql.execution.ErrorType;
import org.springframework.graphql.execution.SubscriptionPublisherException;
import org.springframework.graphql.server.WebGraphQlHandler;
import org.springframework.graphql.server.WebGraphQlResponse;
import org.springframework.graphql.server.WebSocketGraphQlInterceptor;
import org.springframework.graphql.server.WebSocketGraphQlRequest;
import org.springframework.graphql.server.support.GraphQlWebSocketMessage;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * What every graphql-transport-ws session shares: Spring GraphQL's handler, which runs each operation through the
 * interceptors to graphql-java, the interceptors' hooks for the connection, and the messages' JSON. An operation's
 * messages are Spring GraphQL's ({@link GraphQlWebSocketMessage}), written as its handler writes them: a
 * {@code next} a result, then {@code complete}; or an {@code error} with the errors a subscription ended with.
 */
final class GraphQlWsProtocol {

	private static final Logger logger = LoggerFactory.getLogger(GraphQlWsProtocol.class);

	private final WebGraphQlHandler handler;

	private final WebSocketGraphQlInterceptor interceptor;

	private final JsonMapper json;

	private final String ping;

	private final String pong;

	GraphQlWsProtocol(WebGraphQlHandler handler, JsonMapper json) {
		this.handler = handler;
		this.interceptor = handler.getWebSocketInterceptor();
		this.json = json;
		this.ping = encode(GraphQlWebSocketMessage.ping(null));
		this.pong = encode(GraphQlWebSocketMessage.pong(null));
	}

	WebSocketGraphQlInterceptor interceptor() {
		return this.interceptor;
	}

	String ping() {
		return this.ping;
	}

	String pong() {
		return this.pong;
	}

	String ack(Object payload) {
		return encode(GraphQlWebSocketMessage.connectionAck(payload));
	}

	/**
	 * Runs {@code request}: its answer is the stream of its {@code next} messages, each as JSON; the stream ends as
	 * the operation does (its end is told by {@link #complete} or {@link #error}). {@code subscription} is run, before
	 * any message, when the operation is a subscription: its changes are held back by its connection's send window
	 * upstream. The answer comes apart from its stream so that a subscription's stream, which lives as long as it
	 * does, does not hold the request and the chain that answered it (a {@code flatMapMany} keeps both).
	 */
	@SuppressWarnings("unchecked")
	Mono<Flux<String>> execute(WebSocketGraphQlRequest request, Runnable subscription) {
		String id = request.getId();
		return this.handler.handleRequest(request).map((WebGraphQlResponse response) -> {
			Flux<Map<String, Object>> results;
			if (response.getData() instanceof Publisher<?> publisher) {
				subscription.run();
				results = Flux.from((Publisher<ExecutionResult>) publisher).map(ExecutionResult::toSpecification);
			}
			else {
				results = Flux.just(response.toMap());
			}
			return results.map((result) -> encode(GraphQlWebSocketMessage.next(id, result)));
		});
	}

	/** The message that ends operation {@code id}. */
	String complete(String id) {
		return encode(GraphQlWebSocketMessage.complete(id));
	}

	/** The message that ends operation {@code id} with {@code failure}. */
	String error(String id, Throwable failure) {
		return encode(GraphQlWebSocketMessage.error(id, errors(id, failure)));
	}

	/**
	 * The errors an operation ended with: a subscription's, as the resolvers made them; anything else is a failure
	 * of the server's, told as Spring GraphQL's handler tells it.
	 */
	private static List<GraphQLError> errors(String id, Throwable failure) {
		if (failure instanceof SubscriptionPublisherException subscription) {
			return subscription.getErrors();
		}
		logger.error("Unresolved {} for request id {}", failure.getClass().getSimpleName(), id, failure);
		return List.of(GraphqlErrorBuilder.newError().message("Subscription error").errorType(ErrorType.INTERNAL_ERROR)
			.build());
	}

	private String encode(GraphQlWebSocketMessage message) {
		return this.json.writeValueAsString(message);
	}

}
