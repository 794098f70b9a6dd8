package dev.dynamorelay.transport.graphql;

import java.util.Map;

import graphql.Scalars;
import graphql.schema.GraphQLFieldDefinition;
import org.junit.jupiter.api.Test;

import dev.dynamorelay.pagination.Edge;
import dev.dynamorelay.pagination.PageInfo;

import static org.assertj.core.api.Assertions.assertThat;

class FieldReadersTest {

	@Test
	void readsRecordComponentsMethodsAndMapEntriesWhateverTheSourceClass() throws Exception {
		FieldReaders.Reader cursor = new FieldReaders.Reader("cursor");
		assertThat(read(cursor, new Edge<>("c1", "n"))).isEqualTo("c1");
		assertThat(read(cursor, Map.of("cursor", "c2"))).isEqualTo("c2");
		assertThat(read(cursor, new Edge<>("c3", "n"))).as("after another class").isEqualTo("c3");
		assertThat(read(cursor, null)).isNull();

		PageInfo info = new PageInfo(true, false, "start", "end");
		assertThat(read(new FieldReaders.Reader("hasNextPage"), info)).isEqualTo(true);
		assertThat(read(new FieldReaders.Reader("endCursor"), info)).isEqualTo("end");
		assertThat(read(new FieldReaders.Reader("hasPreviousPage"), info)).isEqualTo(false);
	}

	@Test
	void readsWhatItCannotBindAsPropertyDataFetcherDoes() throws Exception {
		assertThat(read(new FieldReaders.Reader("name"), new Hidden("x"))).as("non-public record").isEqualTo("x");
		assertThat(read(new FieldReaders.Reader("value"), new Bean())).as("getter").isEqualTo(7);
		assertThat(read(new FieldReaders.Reader("missing"), new Bean())).isNull();
		assertThat(read(new FieldReaders.Reader("shared"), new Bean())).as("static method").isEqualTo(
				graphql.schema.PropertyDataFetcher.fetching("shared").get(field(), new Bean(), () -> null));
		assertThat(read(new FieldReaders.Reader("hashCode"), new Bean())).as("Object's own method")
			.isEqualTo(graphql.schema.PropertyDataFetcher.fetching("hashCode").get(field(), new Bean(), () -> null));
	}

	private static GraphQLFieldDefinition field() {
		return GraphQLFieldDefinition.newFieldDefinition().name("f").type(Scalars.GraphQLString).build();
	}

	private static Object read(FieldReaders.Reader reader, Object source) throws Exception {
		return reader.get(field(), source, () -> {
			throw new AssertionError("no environment needed");
		});
	}

	private record Hidden(String name) {
	}

	public static class Bean {

		public int getValue() {
			return 7;
		}

		public static String shared() {
			return "static";
		}

		@Override
		public int hashCode() {
			return 1;
		}

		@Override
		public boolean equals(Object other) {
			return other instanceof Bean;
		}

	}

}
