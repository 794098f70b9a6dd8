package dev.dynamorelay.error;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import graphql.ErrorType;
import graphql.GraphQLError;
import graphql.GraphqlErrorBuilder;
import graphql.Scalars;
import graphql.execution.ExecutionStepInfo;
import graphql.execution.ResultPath;
import graphql.language.Field;
import graphql.language.SourceLocation;
import graphql.schema.DataFetchingEnvironment;
import graphql.schema.DataFetchingEnvironmentImpl;
import graphql.schema.GraphQLObjectType;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * GraphQL errors carrying the contract's code in {@code extensions.code}, with the classification of the code,
 * at the field that failed, and the code read back from an error (ours or not).
 */
class GraphQlErrorsTest {

	@Test
	void anErrorOfACodeCarriesTheCodeAndItsClassification() {
		GraphQLError error = GraphQlErrors.builder(ErrorCode.FORBIDDEN).message("No.").build();
		assertThat(error.getExtensions()).isEqualTo(Map.of("code", "FORBIDDEN"));
		assertThat(error.getErrorType()).isEqualTo(org.springframework.graphql.execution.ErrorType.FORBIDDEN);
		assertThat(GraphQlErrors.code(error)).contains(ErrorCode.FORBIDDEN);
		assertThat(GraphQlErrors.has(error, ErrorCode.FORBIDDEN)).isTrue();
		assertThat(GraphQlErrors.has(error, ErrorCode.UNAUTHENTICATED)).isFalse();
	}

	@Test
	void aClientsFailureIsAnErrorAtItsFieldWithItsCodeAndItsExtensions() {
		GraphQLError error = GraphQlErrors.of(field(),
				new ConflictException("Version 3 is not 2.", Optional.of(3L), Optional.of("input[1]")));
		assertThat(error.getMessage()).isEqualTo("Version 3 is not 2.");
		assertThat(error.getPath()).isEqualTo(List.of("updateOrder"));
		assertThat(error.getLocations()).containsExactly(new SourceLocation(2, 3));
		assertThat(error.getErrorType()).isEqualTo(org.springframework.graphql.execution.ErrorType.BAD_REQUEST);
		assertThat(error.getExtensions()).containsExactlyInAnyOrderEntriesOf(
				Map.of("currentVersion", 3L, "part", "input[1]", "code", "CONFLICT"));
	}

	@Test
	void anErrorOfACodeAtAFieldHasTheFieldsPath() {
		GraphQLError error = GraphQlErrors.of(field(), ErrorCode.UNAVAILABLE, "Try again.");
		assertThat(error.getPath()).isEqualTo(List.of("updateOrder"));
		assertThat(error.getExtensions()).isEqualTo(Map.of("code", "UNAVAILABLE"));
	}

	@Test
	void aCodeAddedToAnotherErrorKeepsEverythingElse() {
		GraphQLError validation = GraphqlErrorBuilder.newError()
			.message("Field 'x' is undefined")
			.errorType(ErrorType.ValidationError)
			.location(new SourceLocation(1, 9))
			.path(List.of("a", 0, "x"))
			.extensions(Map.of("classification", "ValidationError"))
			.build();
		assertThat(GraphQlErrors.code(validation)).isEmpty();
		GraphQLError coded = GraphQlErrors.withCode(validation, ErrorCode.INVALID_ARGUMENT);
		assertThat(coded.getMessage()).isEqualTo("Field 'x' is undefined");
		assertThat(coded.getErrorType()).isEqualTo(ErrorType.ValidationError);
		assertThat(coded.getLocations()).containsExactly(new SourceLocation(1, 9));
		assertThat(coded.getPath()).isEqualTo(List.of("a", 0, "x"));
		assertThat(coded.getExtensions()).containsExactlyInAnyOrderEntriesOf(
				Map.of("classification", "ValidationError", "code", "INVALID_ARGUMENT"));
		assertThat(GraphQlErrors.code(coded)).contains(ErrorCode.INVALID_ARGUMENT);
	}

	@Test
	void onlyOurCodesAreRead() {
		assertThat(GraphQlErrors.code((GraphQLError) null)).isEmpty();
		assertThat(GraphQlErrors.code(GraphqlErrorBuilder.newError().message("m").extensions(Map.of("code", "TEAPOT")).build()))
			.isEmpty();
		assertThat(GraphQlErrors.code(GraphqlErrorBuilder.newError().message("m").extensions(Map.of("code", 7)).build()))
			.isEmpty();
		assertThat(ErrorCode.named("NOT_FOUND")).contains(ErrorCode.NOT_FOUND);
		assertThat(ErrorCode.named("not_found")).isEmpty();
	}

	/** The field {@code updateOrder} at line 2, column 3 of its document. */
	private static DataFetchingEnvironment field() {
		Field field = Field.newField("updateOrder").sourceLocation(new SourceLocation(2, 3)).build();
		ExecutionStepInfo step = ExecutionStepInfo.newExecutionStepInfo()
			.type(Scalars.GraphQLString)
			.path(ResultPath.rootPath().segment("updateOrder"))
			.parentInfo(ExecutionStepInfo.newExecutionStepInfo()
				.type(GraphQLObjectType.newObject().name("Mutation").build())
				.path(ResultPath.rootPath())
				.build())
			.build();
		return DataFetchingEnvironmentImpl.newDataFetchingEnvironment().executionStepInfo(step).mergedField(
				graphql.execution.MergedField.newMergedField(field).build()).build();
	}

}
