package dev.dynamorelay.transport.graphql.execution;

import java.util.UUID;

import graphql.GraphQLError;
import graphql.schema.DataFetchingEnvironment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.graphql.execution.DataFetcherExceptionResolverAdapter;
import org.springframework.stereotype.Component;
import org.springframework.validation.BindException;

import dev.dynamorelay.dynamodb.DynamoDbFailures;
import dev.dynamorelay.error.ApiException;
import dev.dynamorelay.error.ErrorCode;
import dev.dynamorelay.error.GraphQlErrors;
import dev.dynamorelay.error.UnavailableException;
import dev.dynamorelay.transport.request.RequestScope;
import dev.dynamorelay.transport.web.RequestIdFilter;

/**
 * Maps every failure of a data fetcher to a GraphQL error with the contract's code.
 *
 * <p>Typed failures carry their own code and message; DynamoDB that cannot be reached or did not
 * answer in time is {@code UNAVAILABLE} (see {@link DynamoDbFailures#isUnavailable}), gathered into the
 * request's {@link dev.dynamorelay.transport.request.UnavailableFields} for one log line per request; anything else, other failures of the
 * SDK included, is {@code INTERNAL}, logged here with its stack trace and answered with a reference to
 * the log line, never with the exception itself.
 */
@Component
class ErrorResolver extends DataFetcherExceptionResolverAdapter {

	private static final Logger logger = LoggerFactory.getLogger(ErrorResolver.class);

	ErrorResolver() {
		setThreadLocalContextAware(false);
	}

	/**
	 * Resolves with the request's id in the MDC: data fetchers fail on the SDK's and graphql-java's
	 * threads, not on the servlet thread the id was put on.
	 */
	@Override
	protected GraphQLError resolveToSingleError(Throwable failure, DataFetchingEnvironment environment) {
		return RequestIdFilter.withId(RequestScope.of(environment).id(), () -> resolve(failure, environment));
	}

	private GraphQLError resolve(Throwable failure, DataFetchingEnvironment environment) {
		Throwable cause = DynamoDbFailures.unwrap(failure);
		if (cause instanceof ApiException api && !(api instanceof UnavailableException)) {
			return GraphQlErrors.of(environment, api);
		}
		if (DynamoDbFailures.isUnavailable(cause)) {
			Object path = environment.getExecutionStepInfo().getPath();
			// Logged once for the request, with the others (ResponseInterceptor).
			RequestScope.in(environment.getGraphQlContext())
				.ifPresentOrElse((scope) -> scope.unavailable().add(path, cause),
						() -> logger.warn("DynamoDB unavailable for {}: {}", path, cause.toString()));
			// Our own words and extensions where we have them (what timed out, what became of a write); the SDK's
			// are for the log.
			return (cause instanceof UnavailableException own) ? GraphQlErrors.of(environment, own)
					: error(environment, ErrorCode.UNAVAILABLE, "DynamoDB is unavailable or did not answer in time; retry the "
							+ "request later.");
		}
		if (cause instanceof BindException) {
			return error(environment, ErrorCode.INVALID_ARGUMENT, "The arguments could not be read: check their types.");
		}
		String reference = UUID.randomUUID().toString();
		logger.error("Internal error {} at {}", reference, environment.getExecutionStepInfo().getPath(), cause);
		return error(environment, ErrorCode.INTERNAL,
				"Internal server error; the server log has the details under reference " + reference + ".");
	}

	private static GraphQLError error(DataFetchingEnvironment environment, ErrorCode code, String message) {
		return GraphQlErrors.of(environment, code, message);
	}

}
