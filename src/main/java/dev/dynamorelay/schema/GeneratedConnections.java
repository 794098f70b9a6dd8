package dev.dynamorelay.schema;

import java.util.ArrayList;
import java.util.List;

import graphql.language.Description;
import graphql.language.FieldDefinition;
import graphql.language.ObjectTypeDefinition;
import graphql.language.TypeName;
import graphql.schema.idl.TypeDefinitionRegistry;
import org.springframework.graphql.execution.ConnectionTypeDefinitionConfigurer;
import org.springframework.graphql.execution.TypeDefinitionConfigurer;

/**
 * Generates the {@code XConnection} and {@code XEdge} types a schema names but does not define, as
 * Spring GraphQL's {@link ConnectionTypeDefinitionConfigurer} does, and gives each generated connection
 * the {@code totalCount: Int} that every declared connection serves.
 */
public final class GeneratedConnections implements TypeDefinitionConfigurer {

	private static final String TOTAL_COUNT = "totalCount";

	@Override
	public void configure(TypeDefinitionRegistry registry) {
		new ConnectionTypeDefinitionConfigurer().configure(registry);
		List<ObjectTypeDefinition> generated = new ArrayList<>();
		for (ObjectTypeDefinition type : registry.getTypes(ObjectTypeDefinition.class)) {
			boolean connection = type.getName().endsWith("Connection") && type.getSourceLocation() == null
					&& has(type, "edges") && has(type, "pageInfo") && !has(type, TOTAL_COUNT);
			if (connection) {
				generated.add(type);
			}
		}
		for (ObjectTypeDefinition type : generated) {
			registry.remove(type);
			registry.add(type.transform((builder) -> builder.fieldDefinition(FieldDefinition.newFieldDefinition()
				.name(TOTAL_COUNT)
				.type(new TypeName("Int"))
				.description(new Description("How many items the connection holds (its filters applied), counted "
						+ "only when selected; null beyond the count budget.", null, false))
				.build())));
		}
	}

	private static boolean has(ObjectTypeDefinition type, String field) {
		return type.getFieldDefinitions().stream().anyMatch((definition) -> definition.getName().equals(field));
	}

}
