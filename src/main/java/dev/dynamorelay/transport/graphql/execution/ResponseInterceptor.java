package dev.dynamorelay.transport.graphql.execution;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import graphql.ErrorClassification;
import graphql.ErrorType;
import graphql.ExecutionResult;
import graphql.GraphQLError;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.graphql.server.WebGraphQlInterceptor;
import org.springframework.graphql.server.WebGraphQlRequest;
import org.springframework.graphql.server.WebGraphQlResponse;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

import dev.dynamorelay.budget.ReadStats;
import dev.dynamorelay.budget.RequestBudgets;
import dev.dynamorelay.budget.RequestCosts;
import dev.dynamorelay.error.ErrorCode;
import dev.dynamorelay.error.GraphQlErrors;
import dev.dynamorelay.metrics.ServerMeters;
import dev.dynamorelay.transport.graphql.cost.LimitsProperties;
import dev.dynamorelay.transport.request.RequestScope;
import dev.dynamorelay.transport.web.AsyncTimeout;
import dev.dynamorelay.transport.web.RequestIdFilter;

/**
 * Gives every execution its {@link RequestScope}: its id ({@link RequestIdFilter}, for log lines written
 * off the servlet thread), caller and transport as the transport left them in the request's attributes, and
 * its {@link ReadStats} (its deadline, item budget and limit on calls in flight); gives every executed
 * response its {@code extensions.dynamodb} and every error an {@code extensions.code}; and logs one line for
 * all the request's fields answered {@code UNAVAILABLE}.
 *
 * <p>Errors graphql-java raises before execution (syntax, validation, variable coercion) have no
 * code of ours; they are request errors, so they get {@code INVALID_ARGUMENT}. A request refused by the
 * cost limits ({@code QUERY_TOO_COMPLEX}) has no data either, but shows its (empty) reads: it got as far
 * as execution and was stopped there.
 */
@Component
@EnableConfigurationProperties(ExtensionsProperties.class)
public class ResponseInterceptor implements WebGraphQlInterceptor {

	private static final Logger logger = LoggerFactory.getLogger(ResponseInterceptor.class);

	private final boolean extensions;

	/** The budget each request starts with: its deadline, items and calls in flight. */
	private final RequestBudgets budgets;

	/** The most items a request may read by its estimate; bounds shared budgets too. */
	private final long maxItems;

	private final ServerMeters meters;

	ResponseInterceptor(ExtensionsProperties properties, RequestBudgets budgets, LimitsProperties limits,
			ServerMeters meters) {
		this.meters = meters;
		this.budgets = budgets;
		this.maxItems = limits.maxItems();
		this.extensions = properties.enabled();
	}

	/**
	 * A request attribute holding an {@code AtomicReference<ReadStats>}: executions that carry the same one
	 * share one {@link ReadStats} (its deadline, item budget and calls in flight), the first creating it. The
	 * REST view's reads of one page are such executions; their item budget is also bounded by
	 * {@code dynamo-relay.limits.max-items}, which no single one of them reaches by its estimate.
	 */
	public static final String SHARED_STATS = ResponseInterceptor.class.getName() + ".sharedStats";

	@Override
	public Mono<WebGraphQlResponse> intercept(WebGraphQlRequest request, Chain chain) {
		long started = System.nanoTime();
		Map<String, Object> attributes = request.getAttributes();
		Optional<String> requestId = (attributes.get(RequestIdFilter.ATTRIBUTE) instanceof String id) ? Optional.of(id)
				: Optional.empty();
		RequestScope scope = RequestScope.of(requestId, attributes, stats(attributes));
		if (request.getRemoteAddress() != null) {
			scope.client(request.getRemoteAddress().getHostString());
		}
		// Set when the servlet's async timeout has answered the request, and logged it (AsyncTimeout).
		AtomicBoolean answered = (attributes.get(AsyncTimeout.ANSWERED) instanceof AtomicBoolean flag) ? flag
				: new AtomicBoolean();
		request.configureExecutionInput((input, builder) -> {
			scope.install(input.getGraphQLContext());
			return input;
		});
		return chain.next(request).map((response) -> {
			if (scope.unavailable().fields() > 0 && !answered.get()) {
				logUnavailable(scope);
			}
			WebGraphQlResponse shaped = shape(response, scope.stats());
			this.meters.request(scope.operationName().orElse(null), System.nanoTime() - started,
					!shaped.getExecutionResult().getErrors().isEmpty());
			return shaped;
		});
	}

	/** The request's own statistics, or those it shares with the other executions of one REST page. */
	@SuppressWarnings("unchecked")
	private ReadStats stats(Map<String, Object> attributes) {
		if (attributes.get(SHARED_STATS) instanceof AtomicReference<?> shared) {
			return ((AtomicReference<ReadStats>) shared).updateAndGet((existing) -> (existing != null) ? existing
					: this.budgets.start(this.maxItems));
		}
		return this.budgets.start();
	}

	/**
	 * One line for all the fields of the request that DynamoDB did not serve, under the request's id (in
	 * the line, for plain-text logs, and in the MDC: this runs on whatever thread finished the execution).
	 */
	private static void logUnavailable(RequestScope scope) {
		RequestIdFilter.withId(scope.id(), () -> logger.warn("DynamoDB unavailable for request {}: {}",
				scope.id().orElse(null), scope.unavailable().summary()));
	}

	/** What the request cost, as {@code extensions.dynamodb} reports it. */
	private static Map<String, Object> costs(RequestCosts costs) {
		Map<String, Object> map = new LinkedHashMap<>();
		map.put("requests", costs.requests());
		map.put("scannedCount", costs.scannedCount());
		map.put("count", costs.count());
		map.put("consumedCapacity", costs.consumedCapacity());
		return map;
	}

	private WebGraphQlResponse shape(WebGraphQlResponse response, ReadStats stats) {
		ExecutionResult result = response.getExecutionResult();
		boolean executed = result.isDataPresent();
		List<GraphQLError> errors = result.getErrors().stream().map((error) -> withCode(error, executed)).toList();
		for (GraphQLError error : errors) {
			this.meters.error(GraphQlErrors.code(error).orElseThrow().name());
		}
		boolean refused = !executed && errors.stream().anyMatch(ResponseInterceptor::tooComplex);
		return response.transform((builder) -> {
			builder.errors(errors);
			if (this.extensions && (executed || refused)) {
				Map<Object, Object> merged = new LinkedHashMap<>();
				if (result.getExtensions() != null) {
					merged.putAll(result.getExtensions());
				}
				merged.put("dynamodb", costs(stats.costs()));
				builder.extensions(merged);
			}
		});
	}

	private static boolean tooComplex(GraphQLError error) {
		return GraphQlErrors.has(error, ErrorCode.QUERY_TOO_COMPLEX);
	}

	private static GraphQLError withCode(GraphQLError error, boolean executed) {
		return GraphQlErrors.code(error).isPresent() ? error
				: GraphQlErrors.withCode(error, code(error.getErrorType(), executed));
	}

	private static ErrorCode code(ErrorClassification type, boolean executed) {
		if (!executed || type == ErrorType.InvalidSyntax || type == ErrorType.ValidationError
				|| type == ErrorType.OperationNotSupported) {
			return ErrorCode.INVALID_ARGUMENT;
		}
		return ErrorCode.INTERNAL;
	}

}
