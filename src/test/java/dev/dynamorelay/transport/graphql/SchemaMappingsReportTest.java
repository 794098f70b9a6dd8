package dev.dynamorelay.transport.graphql;

import java.util.List;
import java.util.Map;

import graphql.schema.DataFetcher;
import graphql.schema.FieldCoordinates;
import graphql.schema.GraphQLSchema;
import org.junit.jupiter.api.Test;
import org.springframework.graphql.execution.SchemaReport;
import org.springframework.util.LinkedMultiValueMap;
import org.springframework.util.MultiValueMap;

import static org.assertj.core.api.Assertions.assertThat;

class SchemaMappingsReportTest {

	@Test
	void aReportWithNothingUnmappedHasNothingToSay() {
		assertThat(SchemaMappingsReport.problems(report(List.of()))).isEmpty();
	}

	@Test
	void eachUnmappedFieldIsNamedOnce() {
		FieldCoordinates title = FieldCoordinates.coordinates("Book", "title");
		FieldCoordinates score = FieldCoordinates.coordinates("Query", "score");
		assertThat(SchemaMappingsReport.problems(report(List.of(title, score, title))))
			.containsExactly("no data fetcher resolves Book.title, Query.score (declare it, or write a controller for it)");
	}

	private static SchemaReport report(List<FieldCoordinates> unmapped) {
		return new SchemaReport() {

			@Override
			public GraphQLSchema schema() {
				return null;
			}

			@Override
			public List<FieldCoordinates> unmappedFields() {
				return unmapped;
			}

			@Override
			public Map<FieldCoordinates, DataFetcher<?>> unmappedRegistrations() {
				return Map.of();
			}

			@Override
			public MultiValueMap<DataFetcher<?>, String> unmappedArguments() {
				return new LinkedMultiValueMap<>();
			}

			@Override
			public Map<FieldCoordinates, NullnessError> fieldNullnessErrors() {
				return Map.of();
			}

			@Override
			public MultiValueMap<DataFetcher<?>, NullnessError> argumentNullnessErrors() {
				return new LinkedMultiValueMap<>();
			}

			@Override
			public List<SkippedType> skippedTypes() {
				return List.of();
			}

			@Override
			public DataFetcher<?> dataFetcher(FieldCoordinates coordinates) {
				return null;
			}

		};
	}

}
