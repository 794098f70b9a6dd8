package dev.dynamorelay.schema;

import graphql.language.Field;
import graphql.language.SourceLocation;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A declaration's place printed {@code file:line:column} as compilers print it, what is unknown left out,
 * and taken from a parsed node where it starts.
 */
class LocationTest {

	@Test
	void aPlaceIsPrintedAsCompilersPrintIt() {
		assertThat(new Location("sample/shop.graphqls", 12, 5)).hasToString("sample/shop.graphqls:12:5");
		assertThat(new Location("sample/shop.graphqls", 12)).hasToString("sample/shop.graphqls:12");
		assertThat(new Location("sample/shop.graphqls", 0)).hasToString("sample/shop.graphqls");
	}

	@Test
	void aNodeIsWhereItStartsInItsSource() {
		Field named = Field.newField("users").sourceLocation(new SourceLocation(3, 9, "shop.graphqls")).build();
		assertThat(Location.of(named)).isEqualTo(new Location("shop.graphqls", 3, 9));
		Field unnamed = Field.newField("users").sourceLocation(new SourceLocation(3, 9)).build();
		assertThat(Location.of(unnamed)).hasToString("(schema):3:9");
		assertThat(Location.of(Field.newField("users").build())).hasToString("(generated)");
		assertThat(Location.of(null)).hasToString("(generated)");
	}

}
