package dev.dynamorelay.transport.graphql.execution;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

import graphql.GraphQLError;
import graphql.GraphqlErrorBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.graphql.execution.SubscriptionExceptionResolverAdapter;
import org.springframework.stereotype.Component;

import dev.dynamorelay.dynamodb.DynamoDbFailures;
import dev.dynamorelay.error.ApiException;
import dev.dynamorelay.error.ErrorCode;
import dev.dynamorelay.error.GraphQlErrors;

/**
 * Maps the failure that ends a subscription's stream to a GraphQL error with the contract's code, as
 * {@link ErrorResolver} does for a field: a typed failure carries its code and message (the subscriber fell too
 * far behind, its token expired, its event id is too old), DynamoDB that cannot be reached is
 * {@code UNAVAILABLE}, anything else {@code INTERNAL}, logged with a reference.
 */
@Component
class SubscriptionErrors extends SubscriptionExceptionResolverAdapter {

	private static final Logger logger = LoggerFactory.getLogger(SubscriptionErrors.class);

	@Override
	protected GraphQLError resolveToSingleError(Throwable failure) {
		Throwable cause = DynamoDbFailures.unwrap(failure);
		if (cause instanceof ApiException api) {
			Map<String, Object> extensions = new LinkedHashMap<>(api.extensions());
			extensions.put(GraphQlErrors.CODE, api.code().name());
			return GraphqlErrorBuilder.newError()
				.errorType(api.code().errorType())
				.message(api.getMessage())
				.extensions(extensions)
				.build();
		}
		if (DynamoDbFailures.isUnavailable(cause)) {
			logger.warn("DynamoDB unavailable for a subscription: {}", cause.toString());
			return GraphQlErrors.builder(ErrorCode.UNAVAILABLE)
				.message("DynamoDB is unavailable or did not answer in time; subscribe again later.")
				.build();
		}
		String reference = UUID.randomUUID().toString();
		logger.error("Internal error {} in a subscription", reference, cause);
		return GraphQlErrors.builder(ErrorCode.INTERNAL)
			.message("Internal server error; the server log has the details under reference " + reference + ".")
			.build();
	}

}
