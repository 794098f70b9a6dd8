package dev.dynamorelay.graphql.http;

import java.time.Duration;
import java.util.List;

import graphql.ExecutionResult;
import org.reactivestreams.Publisher;
import org.springframework.graphql.server.WebGraphQlHandler;
import org.springframework.graphql.server.WebGraphQlResponse;
import org.springframework.graphql.server.webmvc.GraphQlSseHandler;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Spring GraphQL's Server-Sent Events handler ({@code POST /graphql} with {@code Accept: text/event-stream}),
 * which also answers queries and mutations, as the GraphQL over SSE protocol's distinct-connections mode
 * has it: their one result as one {@code next} event, then {@code complete}. Spring GraphQL's own
 * handler answers them with an error that has no {@code extensions.code} ("SSE handler supports only
 * subscriptions"); a client that sends every operation over SSE (graphql-sse's default) gets its answer
 * instead, with the codes, {@code extensions.dynamodb} and everything else of a JSON answer.
 */
class QueriesOverSse extends GraphQlSseHandler {

	QueriesOverSse(WebGraphQlHandler graphQlHandler, Duration timeout, Duration keepAlive) {
		super(graphQlHandler, timeout, keepAlive);
	}

	/** The stream of events, written so that a write to a response Tomcat has recycled ends it quietly ({@link RecycledAsGone}). */
	@Override
	protected ServerResponse prepareResponse(ServerRequest request, Mono<WebGraphQlResponse> response) {
		return new RecycledAsGone(super.prepareResponse(request, response.map(QueriesOverSse::asStream)));
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
