package dev.dynamorelay.transport.graphql;

import java.util.List;
import java.util.Set;

import graphql.schema.idl.RuntimeWiring;
import graphql.schema.idl.WiringFactory;
import org.springframework.graphql.execution.RuntimeWiringConfigurer;
import org.springframework.stereotype.Component;

import dev.dynamorelay.declaration.Scalars;
import dev.dynamorelay.schema.ParsedSchema;

/**
 * Wires every scalar that the served schema declares and no one else wires (a {@code scalar DateTime}
 * of the schema files) as a {@linkplain Scalars#passThrough pass-through}: the declarations store such
 * values as strings, so they are served and compared as given. Without it, the schema would pass the
 * declaration check and then fail to build.
 *
 * <p>The scalars are those of the {@linkplain ParsedSchema parsed schema files}, the registry that is served;
 * not the one Spring GraphQL hands to configurers, which holds only the language's own file.
 */
@Component
class CustomScalars implements RuntimeWiringConfigurer {

	private final ParsedSchema schema;

	CustomScalars(ParsedSchema schema) {
		this.schema = schema;
	}

	@Override
	public void configure(RuntimeWiring.Builder wiring) {
		// Scalars are added in the second round, once every configurer has wired its own.
	}

	@Override
	public void configure(RuntimeWiring.Builder wiring, List<WiringFactory> factories) {
		Set<String> wired = wiring.build().getScalars().keySet();
		this.schema.registry()
			.scalars()
			.keySet()
			.stream()
			.filter((name) -> !wired.contains(name))
			.sorted()
			.forEach((name) -> wiring.scalar(Scalars.passThrough(name)));
	}

}
