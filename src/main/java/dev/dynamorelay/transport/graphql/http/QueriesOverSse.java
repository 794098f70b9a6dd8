package dev.dynamorelay.transport.graphql.http;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import graphql.ExecutionResult;
import jakarta.servlet.ServletException;
import org.reactivestreams.Publisher;
import org.springframework.graphql.server.WebGraphQlHandler;
import org.springframework.graphql.server.WebGraphQlResponse;
import org.springframework.graphql.server.webmvc.GraphQlSseHandler;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import dev.dynamorelay.live.LiveMemory;

/**
 * Spring GraphQL's Server-Sent Events handler ({@code POST /graphql} with {@code Accept: text/event-stream}),
 * which also answers queries and mutations, as the GraphQL over SSE protocol's distinct-connections mode
 * has it: their one result as one {@code next} event, then {@code complete}. Spring GraphQL's own
 * handler answers them with an error that has no {@code extensions.code} ("SSE handler supports only
 * subscriptions"); a client that sends every operation over SSE (graphql-sse's default) gets its answer
 * instead, with the codes, {@code extensions.dynamodb} and everything else of a JSON answer.
 *
 * <p>Each stream is a connection of its own in the live subscribers' memory (its request's
 * {@link LiveMemory#CONNECTION_ATTRIBUTE} attribute, which {@code LiveOutlets} ties its subscription to), and is written by
 * {@link SseStream}: one result at a time, on a writer thread of its own.
 */
class QueriesOverSse extends GraphQlSseHandler {

	private final LiveMemory memory;

	private final Duration timeout;

	private final Duration keepAlive;

	QueriesOverSse(WebGraphQlHandler graphQlHandler, Duration timeout, Duration keepAlive, LiveMemory memory) {
		super(graphQlHandler, timeout, keepAlive);
		this.memory = memory;
		this.timeout = timeout;
		this.keepAlive = keepAlive;
	}

	@Override
	public ServerResponse handleRequest(ServerRequest request) throws ServletException {
		request.attributes().put(LiveMemory.CONNECTION_ATTRIBUTE, this.memory.connection());
		return super.handleRequest(request);
	}

	@Override
	protected ServerResponse prepareResponse(ServerRequest request, Mono<WebGraphQlResponse> response) {
		LiveMemory.Connection connection = (LiveMemory.Connection) request.attributes().get(LiveMemory.CONNECTION_ATTRIBUTE);
		@SuppressWarnings("unchecked")
		Flux<Map<String, Object>> results = response.map(QueriesOverSse::asStream)
			.flatMapMany((stream) -> Flux.from((Publisher<ExecutionResult>) stream.getData()))
			.map(ExecutionResult::toSpecification);
		java.util.function.Consumer<ServerResponse.SseBuilder> write = (sse) -> results
			.subscribe(new SseStream(sse, connection, this.keepAlive));
		return (this.timeout != null) ? ServerResponse.sse(write, this.timeout) : ServerResponse.sse(write);
	}

	/** A result that is no stream, as a stream of itself. */
	static WebGraphQlResponse asStream(WebGraphQlResponse response) {
		if (response.getExecutionResult().getData() instanceof Publisher<?>) {
			return response;
		}
		ExecutionResult result = response.getExecutionResult();
		return response.transform((builder) -> builder.data(Flux.just(result)).errors(List.of()).extensions(null));
	}

}
