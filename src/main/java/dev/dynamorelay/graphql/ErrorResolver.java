package dev.dynamorelay.graphql;

import java.util.Map;
import java.util.UUID;

import graphql.GraphQLError;
import graphql.GraphqlErrorBuilder;
import graphql.schema.DataFetchingEnvironment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.springframework.graphql.execution.DataFetcherExceptionResolverAdapter;
import org.springframework.graphql.execution.ErrorType;
import org.springframework.stereotype.Component;
import org.springframework.validation.BindException;

import dev.dynamorelay.dynamodb.DynamoDbFailures;
import dev.dynamorelay.error.ApiException;
import dev.dynamorelay.error.ErrorCode;
import dev.dynamorelay.web.RequestIdFilter;

/**
 * Maps every failure of a data fetcher to a GraphQL error with the contract's code.
 *
 * <p>Typed failures carry their own code and message; DynamoDB that cannot be reached or did not
 * answer in time is {@code UNAVAILABLE} (see {@link DynamoDbFailures#isUnavailable}), gathered into the
 * request's {@link UnavailableFields} for one log line per request; anything else, other failures of the
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
		Object id = environment.getGraphQlContext().get(RequestIdFilter.MDC_KEY);
		if (!(id instanceof String requestId) || requestId.equals(MDC.get(RequestIdFilter.MDC_KEY))) {
			return resolve(failure, environment);
		}
		String previous = MDC.get(RequestIdFilter.MDC_KEY);
		MDC.put(RequestIdFilter.MDC_KEY, requestId);
		try {
			return resolve(failure, environment);
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

	private GraphQLError resolve(Throwable failure, DataFetchingEnvironment environment) {
		Throwable cause = DynamoDbFailures.unwrap(failure);
		if (cause instanceof ApiException api && api.code() != ErrorCode.UNAVAILABLE) {
			return error(environment, api.code(), api.getMessage());
		}
		if (DynamoDbFailures.isUnavailable(cause)) {
			UnavailableFields unavailable = UnavailableFields.of(environment.getGraphQlContext());
			if (unavailable != null) {
				// Logged once for the request, with the others (ResponseInterceptor).
				unavailable.add(environment.getExecutionStepInfo().getPath(), cause);
			}
			else {
				logger.warn("DynamoDB unavailable for {}: {}", environment.getExecutionStepInfo().getPath(),
						cause.toString());
			}
			return error(environment, ErrorCode.UNAVAILABLE,
					"DynamoDB is unavailable or did not answer in time; retry the request later.");
		}
		if (cause instanceof BindException) {
			return error(environment, ErrorCode.INVALID_ARGUMENT, "The arguments could not be read: check their types.");
		}
		String reference = UUID.randomUUID().toString();
		logger.error("Internal error {} at {}", reference, environment.getExecutionStepInfo().getPath(), cause);
		return error(environment, ErrorCode.INTERNAL,
				"Internal server error; the server log has the details under reference " + reference + ".");
	}

	static GraphQLError error(DataFetchingEnvironment environment, ErrorCode code, String message) {
		return GraphqlErrorBuilder.newError(environment)
			.errorType(errorType(code))
			.message(message)
			.extensions(Map.of("code", code.name()))
			.build();
	}

	static ErrorType errorType(ErrorCode code) {
		return switch (code) {
			case INVALID_ARGUMENT, INVALID_CURSOR, QUERY_TOO_COMPLEX -> ErrorType.BAD_REQUEST;
			case NOT_FOUND -> ErrorType.NOT_FOUND;
			case UNAUTHENTICATED -> ErrorType.UNAUTHORIZED;
			case FORBIDDEN -> ErrorType.FORBIDDEN;
			case UNAVAILABLE, INTERNAL -> ErrorType.INTERNAL_ERROR;
		};
	}

}
