package dev.dynamorelay.graphql;

import java.util.Map;

import graphql.Scalars;
import graphql.schema.GraphQLFieldDefinition;
import org.junit.jupiter.api.Test;

import dev.dynamorelay.pagination.Edge;

import static org.assertj.core.api.Assertions.assertThat;

class FieldReadersTest {

	@Test
	void readsRecordComponentsMethodsAndMapEntriesWhateverTheSourceClass() throws Exception {
		FieldReaders.Reader cursor = new FieldReaders.Reader("cursor");
		assertThat(read(cursor, new Edge<>("c1", "n"))).isEqualTo("c1");
		assertThat(read(cursor, Map.of("cursor", "c2"))).isEqualTo("c2");
		assertThat(read(cursor, new Edge<>("c3", "n"))).as("after another class").isEqualTo("c3");
		assertThat(read(cursor, null)).isNull();

		Purchase purchase = new Purchase("user-01", 1735725600000L, "p", "c", 2.5);
		assertThat(read(new FieldReaders.Reader("purchasedAt"), purchase)).isEqualTo("2025-01-01T10:00:00.000Z");
		assertThat(read(new FieldReaders.Reader("id"), purchase)).isEqualTo(purchase.id());
		assertThat(read(new FieldReaders.Reader("amount"), purchase)).isEqualTo(2.5);
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
