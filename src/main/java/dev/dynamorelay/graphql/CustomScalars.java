package dev.dynamorelay.graphql;

import java.util.List;
import java.util.Set;

import graphql.schema.idl.RuntimeWiring;
import graphql.schema.idl.TypeDefinitionRegistry;
import graphql.schema.idl.WiringFactory;
import org.springframework.graphql.execution.RuntimeWiringConfigurer;
import org.springframework.stereotype.Component;

/**
 * Wires every scalar that the served schema declares and no one else wires (a {@code scalar DateTime}
 * of the schema files) as a {@linkplain Scalars#passThrough pass-through}: the declarations store such
 * values as strings, so they are served and compared as given. Without it, the schema would pass the
 * declaration check and then fail to build.
 */
@Component
class CustomScalars implements RuntimeWiringConfigurer {

	private TypeDefinitionRegistry registry;

	@Override
	public void setTypeDefinitionRegistry(TypeDefinitionRegistry registry) {
		this.registry = registry;
	}

	@Override
	public void configure(RuntimeWiring.Builder wiring) {
		// Scalars are added in the second round, once every configurer has wired its own.
	}

	@Override
	public void configure(RuntimeWiring.Builder wiring, List<WiringFactory> factories) {
		if (this.registry == null) {
			return;
		}
		Set<String> wired = wiring.build().getScalars().keySet();
		this.registry.scalars()
			.keySet()
			.stream()
			.filter((name) -> !wired.contains(name))
			.sorted()
			.forEach((name) -> wiring.scalar(Scalars.passThrough(name)));
	}

}
