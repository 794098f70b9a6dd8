package dev.dynamorelay.schema;

import graphql.language.InterfaceTypeDefinition;
import graphql.language.UnionTypeDefinition;
import graphql.schema.GraphQLSchema;
import graphql.schema.idl.RuntimeWiring;
import graphql.schema.idl.SchemaGenerator;
import graphql.schema.idl.TypeDefinitionRegistry;
import org.springframework.graphql.execution.ClassNameTypeResolver;

/**
 * The schema files parsed once into one registry, with the generated Connection types: what the
 * declarations, the access rules, the export and Spring GraphQL's executable schema are all read from.
 *
 * <p>The registry is shared and nobody changes it: readers only read, and graphql-java's
 * {@link SchemaGenerator} works on a copy.
 *
 * @param files the files it was parsed from
 * @param registry their type definitions, checked as graphql-java checks a schema
 */
public record ParsedSchema(SchemaFiles files, TypeDefinitionRegistry registry) {

	/**
	 * Parses {@code files}.
	 * @throws DeclarationException listing every syntax and schema error with its file and line
	 */
	public static ParsedSchema parse(SchemaFiles files) {
		return new ParsedSchema(files, files.parse());
	}

	/**
	 * The executable schema of the registry with {@code wiring}, as Spring GraphQL's schema factory: an
	 * interface or union the wiring gives no type resolver gets Spring GraphQL's by class name, as its own
	 * builder would give it.
	 */
	public GraphQLSchema executable(RuntimeWiring wiring) {
		ClassNameTypeResolver byClassName = new ClassNameTypeResolver();
		this.registry.types().values().forEach((type) -> {
			if (type instanceof InterfaceTypeDefinition || type instanceof UnionTypeDefinition) {
				wiring.getTypeResolvers().putIfAbsent(type.getName(), byClassName);
			}
		});
		return new SchemaGenerator().makeExecutableSchema(this.registry, wiring);
	}

}
