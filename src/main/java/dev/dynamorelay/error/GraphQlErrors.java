package dev.dynamorelay.error;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import graphql.GraphQLError;
import graphql.GraphqlErrorBuilder;
import graphql.schema.DataFetchingEnvironment;
import org.springframework.graphql.ResponseError;

/**
 * GraphQL errors that carry an {@link ErrorCode}: the one place that writes {@code extensions.code} and
 * reads it back.
 */
public final class GraphQlErrors {

	/** The extension member that holds the code. */
	public static final String CODE = "code";

	private GraphQlErrors() {
	}

	/** An error of {@code code}, to be given its message (and location or path). */
	public static GraphqlErrorBuilder<?> builder(ErrorCode code) {
		return coded(GraphqlErrorBuilder.newError(), code);
	}

	/** An error of {@code code} at the field of {@code environment}. */
	public static GraphqlErrorBuilder<?> builder(DataFetchingEnvironment environment, ErrorCode code) {
		return coded(GraphqlErrorBuilder.newError(environment), code);
	}

	/** An error of {@code code} with {@code message} at the field of {@code environment}. */
	public static GraphQLError of(DataFetchingEnvironment environment, ErrorCode code, String message) {
		return builder(environment, code).message(message).build();
	}

	/** The error of a failure the client caused: its code, message and extensions. */
	public static GraphQLError of(DataFetchingEnvironment environment, ApiException failure) {
		Map<String, Object> extensions = new LinkedHashMap<>(failure.extensions());
		extensions.put(CODE, failure.code().name());
		return GraphqlErrorBuilder.newError(environment)
			.errorType(failure.code().errorType())
			.message(failure.getMessage())
			.extensions(extensions)
			.build();
	}

	private static GraphqlErrorBuilder<?> coded(GraphqlErrorBuilder<?> builder, ErrorCode code) {
		return builder.errorType(code.errorType()).extensions(Map.of(CODE, code.name()));
	}

	/** The code of an error, if it carries one of ours. */
	public static Optional<ErrorCode> code(GraphQLError error) {
		return (error != null && error.getExtensions() != null) ? ErrorCode.named(error.getExtensions().get(CODE))
				: Optional.empty();
	}

	/** The code of an error as Spring GraphQL's responses hold it, if it carries one of ours. */
	public static Optional<ErrorCode> code(ResponseError error) {
		return ErrorCode.named(error.getExtensions().get(CODE));
	}

	/** Whether {@code error} carries {@code code}. */
	public static boolean has(GraphQLError error, ErrorCode code) {
		return code(error).orElse(null) == code;
	}

	/** {@code error} with {@code code} added to its extensions, everything else kept. */
	public static GraphQLError withCode(GraphQLError error, ErrorCode code) {
		Map<String, Object> extensions = new LinkedHashMap<>(
				(error.getExtensions() != null) ? error.getExtensions() : Map.of());
		extensions.put(CODE, code.name());
		GraphqlErrorBuilder<?> builder = GraphqlErrorBuilder.newError()
			.message(error.getMessage())
			.errorType(error.getErrorType())
			.extensions(extensions);
		if (error.getLocations() != null) {
			builder.locations(error.getLocations());
		}
		if (error.getPath() != null) {
			builder.path(new ArrayList<>(error.getPath()));
		}
		return builder.build();
	}

}
