package dev.dynamorelay.declaration;

import org.junit.jupiter.api.Test;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

import graphql.schema.FieldCoordinates;

import dev.dynamorelay.schema.SchemaFiles;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A declared field's name, as problems, meters, logs and the export's command line write it: {@code Type.field},
 * which is how graphql-java prints {@link FieldCoordinates} (the names rely on it).
 */
class DeclaredNamesTest {

	@Test
	void graphqlJavaPrintsFieldCoordinatesAsTypeDotField() {
		assertThat(FieldCoordinates.coordinates("User", "purchases")).hasToString("User.purchases");
	}

	@Test
	void everyDeclaredFieldIsNamedTypeDotField() {
		Declarations store = DeclarationReader.read(SchemaFiles
			.resolve("src/test/resources/store/", new PathMatchingResourcePatternResolver())
			.parse(), "");

		assertThat(store.connections()).isNotEmpty()
			.allSatisfy((connection) -> assertThat(connection.name()).isEqualTo(
					connection.coordinates().getTypeName() + "." + connection.coordinates().getFieldName()));
		assertThat(store.mutations()).isNotEmpty()
			.allSatisfy((mutation) -> assertThat(mutation.name()).isEqualTo(
					mutation.coordinates().getTypeName() + "." + mutation.coordinates().getFieldName()));
		assertThat(store.subscriptions()).isNotEmpty()
			.allSatisfy((subscription) -> assertThat(subscription.name()).isEqualTo(
					subscription.coordinates().getTypeName() + "." + subscription.coordinates().getFieldName()));
	}

}
