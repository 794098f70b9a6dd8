package dev.dynamorelay.it;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import jakarta.websocket.ContainerProvider;
import jakarta.websocket.WebSocketContainer;
import org.springframework.graphql.client.ClientGraphQlResponse;
import org.springframework.graphql.client.WebSocketGraphQlClient;
import org.springframework.graphql.client.WebSocketGraphQlClientInterceptor;
import org.springframework.web.reactive.socket.client.StandardWebSocketClient;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A subscription over WebSocket ({@code graphql-transport-ws}), as Spring GraphQL's client speaks it, whose
 * changes a test takes one by one.
 */
public final class Subscriber implements AutoCloseable {

	/** The largest message the client takes. */
	private static final int MAX_MESSAGE = 4 * 1024 * 1024;

	private final WebSocketGraphQlClient client;

	private final BlockingQueue<ClientGraphQlResponse> received = new LinkedBlockingQueue<>();

	private final Disposable subscription;

	private volatile Throwable failure;

	private volatile boolean completed;

	/** Subscribes with {@code document} and {@code variables}, as {@code token}'s caller (none: anonymous). */
	public Subscriber(int port, String token, String document, Map<String, Object> variables) {
		// Tomcat's client, whose message buffers are what the tests' JVM sets for the server's (1 KB): Spring's
		// reactive client takes whole messages only, so it is given room for the largest the tests receive.
		WebSocketContainer container = ContainerProvider.getWebSocketContainer();
		container.setDefaultMaxTextMessageBufferSize(MAX_MESSAGE);
		container.setDefaultMaxBinaryMessageBufferSize(MAX_MESSAGE);
		WebSocketGraphQlClient.Builder<?> builder = WebSocketGraphQlClient.builder("ws://127.0.0.1:" + port + "/graphql",
				new StandardWebSocketClient(container));
		if (token != null) {
			builder.interceptor(new WebSocketGraphQlClientInterceptor() {

				@Override
				public Mono<Object> connectionInitPayload() {
					return Mono.just(Map.of("Authorization", "Bearer " + token));
				}

			});
		}
		this.client = builder.build();
		this.subscription = this.client.document(document)
			.variables(variables)
			.executeSubscription()
			.subscribe(this.received::add, (error) -> this.failure = error, () -> this.completed = true);
		// The server's subscription begins once the connection is acknowledged and the subscribe message read.
		this.client.start().block(Duration.ofSeconds(10));
	}

	/** The next change's data (its field's value), waiting at most {@code timeout}. */
	public Map<String, Object> next(Duration timeout) throws InterruptedException {
		ClientGraphQlResponse response = this.received.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
		assertThat(response).as("a change within %s (failure: %s)", timeout, this.failure).isNotNull();
		assertThat(response.getErrors()).as("errors of a change").isEmpty();
		Map<String, Object> data = response.getData();
		return (Map<String, Object>) data.values().iterator().next();
	}

	/** The next response whole (errors included), or null within {@code timeout}. */
	public ClientGraphQlResponse response(Duration timeout) throws InterruptedException {
		return this.received.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
	}

	/** Asserts that no change arrives within {@code quiet}. */
	public void nothingFor(Duration quiet) throws InterruptedException {
		ClientGraphQlResponse response = this.received.poll(quiet.toMillis(), TimeUnit.MILLISECONDS);
		assertThat(response).as("no change").isNull();
	}

	public Throwable failure() {
		return this.failure;
	}

	public boolean completed() {
		return this.completed;
	}

	public List<ClientGraphQlResponse> drain() {
		List<ClientGraphQlResponse> all = new java.util.ArrayList<>();
		this.received.drainTo(all);
		return all;
	}

	@Override
	public void close() {
		this.subscription.dispose();
		this.client.stop().block(Duration.ofSeconds(5));
	}

}
