package dev.dynamorelay.transport.graphql.live;

import java.util.List;
import java.util.Map;

import graphql.ExecutionResult;
import org.reactivestreams.Publisher;
import org.springframework.graphql.server.WebGraphQlInterceptor;
import org.springframework.graphql.server.WebGraphQlRequest;
import org.springframework.graphql.server.WebGraphQlResponse;
import org.springframework.graphql.server.WebSocketGraphQlRequest;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.util.RawValue;

import dev.dynamorelay.live.LiveMemory;

/**
 * Ties a subscription to the connection its transport left in the request's attributes ({@link LiveMemory#CONNECTION_ATTRIBUTE}: a
 * WebSocket session's, or a Server-Sent Events stream's): the execution's context gets its
 * {@link LiveMemory.Outlet}, where its subscriber's bytes are counted, and each of its results is measured as it
 * leaves for the transport, so that what waits there is counted by its serialized size (a field selected under
 * many aliases is in it many times). A request its transport left no connection for (an execution of the
 * server's own) is passed on as it is.
 */
class LiveOutlets implements WebGraphQlInterceptor {

	@Override
	public Mono<WebGraphQlResponse> intercept(WebGraphQlRequest request, Chain chain) {
		if (!(request.getAttributes().get(LiveMemory.CONNECTION_ATTRIBUTE) instanceof LiveMemory.Connection connection)) {
			return chain.next(request);
		}
		String id = (request instanceof WebSocketGraphQlRequest socket) ? socket.getId() : LiveMemory.ONLY_SUBSCRIPTION;
		LiveMemory.Outlet outlet = new LiveMemory.Outlet(connection, id);
		request.configureExecutionInput((input, builder) -> {
			input.getGraphQLContext().put(LiveMemory.Outlet.class, outlet);
			return input;
		});
		return chain.next(request).map((response) -> {
			if (!(response.getExecutionResult().getData() instanceof Publisher<?> results)) {
				return response;
			}
			@SuppressWarnings("unchecked")
			Flux<ExecutionResult> measured = Flux.from((Publisher<ExecutionResult>) results)
				.doOnNext((result) -> connection.measured(id, size(result)));
			return response.transform((builder) -> builder.data(measured));
		});
	}

	/**
	 * About the length of {@code result} as JSON: its data's and errors' strings by their length, numbers by their
	 * digits, the syntax around them. Strings that need escaping come out somewhat longer.
	 */
	static long size(ExecutionResult result) {
		long size = 64 + size(result.getData(), 0);
		if (!result.getErrors().isEmpty()) {
			size += 256L * result.getErrors().size();
		}
		return size;
	}

	/** How deep a result is walked: results are bounded far above by the cost limits. */
	private static final int DEPTH = 64;

	private static long size(Object value, int depth) {
		if (value == null) {
			return 4;
		}
		if (value instanceof CharSequence text) {
			return text.length() + 2;
		}
		if (value instanceof RawValue json) {
			// An answer serialized once for the subscriptions of its shape (SharedChanges): its JSON's length.
			return String.valueOf(json.rawValue()).length();
		}
		if (depth > DEPTH) {
			return 16;
		}
		if (value instanceof Map<?, ?> map) {
			long size = 2;
			for (Map.Entry<?, ?> entry : map.entrySet()) {
				size += String.valueOf(entry.getKey()).length() + 4 + size(entry.getValue(), depth + 1);
			}
			return size;
		}
		if (value instanceof List<?> list) {
			long size = 2;
			for (Object each : list) {
				size += 1 + size(each, depth + 1);
			}
			return size;
		}
		return String.valueOf(value).length();
	}

}
