package dev.dynamorelay.graphql;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import graphql.ErrorClassification;
import graphql.ErrorType;
import graphql.ExecutionResult;
import graphql.GraphQLContext;
import graphql.GraphQLError;
import graphql.GraphqlErrorBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.springframework.graphql.server.WebGraphQlInterceptor;
import org.springframework.graphql.server.WebGraphQlRequest;
import org.springframework.graphql.server.WebGraphQlResponse;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

import dev.dynamorelay.dynamodb.DynamoDbProperties;
import dev.dynamorelay.error.ErrorCode;
import dev.dynamorelay.metrics.ServerMeters;
import dev.dynamorelay.pagination.FairShare;
import dev.dynamorelay.pagination.ReadBudgets;
import dev.dynamorelay.pagination.ReadStats;
import dev.dynamorelay.web.AsyncTimeout;
import dev.dynamorelay.web.RequestIdFilter;

/**
 * Gives every request its {@link ReadStats} (its deadline, item budget and limit on calls in flight),
 * every executed response its {@code extensions.dynamodb}, and every error an {@code extensions.code}; puts
 * the request's id ({@link RequestIdFilter}) in the GraphQL context, for log lines written off the servlet thread,
 * and logs one line for all the request's fields answered {@code UNAVAILABLE} ({@link UnavailableFields}).
 *
 * <p>Errors graphql-java raises before execution (syntax, validation, variable coercion) have no
 * code of ours; they are request errors, so they get {@code INVALID_ARGUMENT}. A request refused by the
 * cost limits ({@code QUERY_TOO_COMPLEX}) has no data either, but shows its (empty) reads: it got as far
 * as execution and was stopped there.
 */
@Component
public class ResponseInterceptor implements WebGraphQlInterceptor {

	private static final Logger logger = LoggerFactory.getLogger(ResponseInterceptor.class);

	private final boolean extensions;

	/** How long a request may read: a little less than the timeout, which its answer must arrive within. */
	private final Duration readTimeout;

	/** Items a request's connection fields and counts may scan together. */
	private final long requestItems;

	/** The most items a request may read by its estimate; bounds shared budgets too. */
	private final long maxItems;

	/** A request's DynamoDB calls in flight at once. */
	private final int maxCallsInFlight;

	/** All requests' calls in flight, and whose call goes next. */
	private final FairShare fairShare;

	private final ServerMeters meters;

	ResponseInterceptor(ExtensionsProperties properties, DynamoDbProperties dynamoDb, ReadBudgets budgets,
			FairShare fairShare, LimitsProperties limits, ServerMeters meters) {
		this.meters = meters;
		this.fairShare = fairShare;
		this.maxItems = limits.maxItems();
		this.extensions = properties.enabled();
		this.readTimeout = dynamoDb.readTimeout();
		this.requestItems = budgets.requestItems();
		this.maxCallsInFlight = dynamoDb.maxConcurrencyPerRequest();
	}

	/**
	 * A request attribute holding an {@code AtomicReference<ReadStats>}: executions that carry the same one
	 * share one {@link ReadStats} (its deadline, item budget and calls in flight), the first creating it. The
	 * REST view's reads of one page are such executions; their item budget is also bounded by
	 * {@code dynamo-relay.limits.max-items}, which no single one of them reaches by its estimate.
	 */
	public static final String SHARED_STATS = ResponseInterceptor.class.getName() + ".sharedStats";

	@Override
	@SuppressWarnings("unchecked")
	public Mono<WebGraphQlResponse> intercept(WebGraphQlRequest request, Chain chain) {
		ReadStats stats;
		if (request.getAttributes().get(SHARED_STATS) instanceof AtomicReference<?> shared) {
			stats = ((AtomicReference<ReadStats>) shared).updateAndGet((existing) -> (existing != null) ? existing
					: new ReadStats(this.readTimeout, Math.min(this.requestItems, this.maxItems), this.maxCallsInFlight,
							this.fairShare));
		}
		else {
			stats = new ReadStats(this.readTimeout, this.requestItems, this.maxCallsInFlight, this.fairShare);
		}
		long started = System.nanoTime();
		AtomicReference<GraphQLContext> context = new AtomicReference<>();
		String requestId = (request.getAttributes().get(RequestIdFilter.ATTRIBUTE) instanceof String id) ? id : null;
		UnavailableFields unavailable = new UnavailableFields();
		// Set when the servlet's async timeout has answered the request, and logged it (AsyncTimeout).
		AtomicBoolean answered = (request.getAttributes().get(AsyncTimeout.ANSWERED) instanceof AtomicBoolean flag) ? flag
				: new AtomicBoolean();
		request.configureExecutionInput((input, builder) -> {
			RequestStats.install(input.getGraphQLContext(), stats);
			if (requestId != null) {
				input.getGraphQLContext().put(RequestIdFilter.MDC_KEY, requestId);
			}
			input.getGraphQLContext().put(UnavailableFields.class, unavailable);
			context.set(input.getGraphQLContext());
			return input;
		});
		return chain.next(request).map((response) -> {
			if (unavailable.fields() > 0 && !answered.get()) {
				logUnavailable(requestId, unavailable);
			}
			WebGraphQlResponse shaped = shape(response, stats);
			GraphQLContext executed = context.get();
			this.meters.request((executed != null) ? executed.get(CostLimits.OPERATION_NAME) : null,
					System.nanoTime() - started, !shaped.getExecutionResult().getErrors().isEmpty());
			return shaped;
		});
	}

	/**
	 * One line for all the fields of the request that DynamoDB did not serve, under the request's id (in
	 * the line, for plain-text logs, and in the MDC: this runs on whatever thread finished the execution).
	 */
	private static void logUnavailable(String requestId, UnavailableFields unavailable) {
		String previous = MDC.get(RequestIdFilter.MDC_KEY);
		if (requestId != null) {
			MDC.put(RequestIdFilter.MDC_KEY, requestId);
		}
		try {
			logger.warn("DynamoDB unavailable for request {}: {}", requestId, unavailable.summary());
		}
		finally {
			if (previous != null) {
				MDC.put(RequestIdFilter.MDC_KEY, previous);
			}
			else {
				MDC.remove(RequestIdFilter.MDC_KEY);
			}
		}
	}

	private WebGraphQlResponse shape(WebGraphQlResponse response, ReadStats stats) {
		ExecutionResult result = response.getExecutionResult();
		boolean executed = result.isDataPresent();
		List<GraphQLError> errors = result.getErrors().stream().map((error) -> withCode(error, executed)).toList();
		for (GraphQLError error : errors) {
			this.meters.error(String.valueOf(error.getExtensions().get("code")));
		}
		boolean refused = !executed && errors.stream().anyMatch(ResponseInterceptor::tooComplex);
		return response.transform((builder) -> {
			builder.errors(errors);
			if (this.extensions && (executed || refused)) {
				Map<Object, Object> merged = new LinkedHashMap<>();
				if (result.getExtensions() != null) {
					merged.putAll(result.getExtensions());
				}
				merged.put("dynamodb", stats.toMap());
				builder.extensions(merged);
			}
		});
	}

	private static boolean tooComplex(GraphQLError error) {
		return error.getExtensions() != null
				&& ErrorCode.QUERY_TOO_COMPLEX.name().equals(error.getExtensions().get("code"));
	}

	private static GraphQLError withCode(GraphQLError error, boolean executed) {
		Map<String, Object> extensions = (error.getExtensions() != null) ? error.getExtensions() : Map.of();
		if (extensions.containsKey("code")) {
			return error;
		}
		Map<String, Object> coded = new LinkedHashMap<>(extensions);
		coded.put("code", code(error.getErrorType(), executed).name());
		GraphqlErrorBuilder<?> builder = GraphqlErrorBuilder.newError()
			.message(error.getMessage())
			.errorType(error.getErrorType())
			.extensions(coded);
		if (error.getLocations() != null) {
			builder.locations(error.getLocations());
		}
		if (error.getPath() != null) {
			builder.path(new ArrayList<>(error.getPath()));
		}
		return builder.build();
	}

	private static ErrorCode code(ErrorClassification type, boolean executed) {
		if (!executed || type == ErrorType.InvalidSyntax || type == ErrorType.ValidationError
				|| type == ErrorType.OperationNotSupported) {
			return ErrorCode.INVALID_ARGUMENT;
		}
		return ErrorCode.INTERNAL;
	}

}
