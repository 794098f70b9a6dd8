package dev.dynamorelay.schema;

import java.util.ArrayList;
import java.util.List;

import graphql.language.FieldDefinition;
import graphql.language.ListType;
import graphql.language.NonNullType;
import graphql.language.ObjectTypeDefinition;
import graphql.language.Type;
import graphql.language.TypeName;
import graphql.schema.idl.TypeDefinitionRegistry;

/** What the readers of the schema files ask of its parsed definitions. */
public final class SchemaNodes {

	private SchemaNodes() {
	}

	/** The fields of a type, with those its {@code extend type} definitions add. */
	public static List<FieldDefinition> fields(TypeDefinitionRegistry registry, ObjectTypeDefinition type) {
		List<FieldDefinition> fields = new ArrayList<>(type.getFieldDefinitions());
		registry.objectTypeExtensions()
			.getOrDefault(type.getName(), List.of())
			.forEach((extension) -> fields.addAll(extension.getFieldDefinitions()));
		return fields;
	}

	/** The name of a type without its list and non-null wrappers. */
	public static String typeName(Type<?> type) {
		Type<?> current = type;
		while (!(current instanceof TypeName)) {
			current = (current instanceof NonNullType nonNull) ? nonNull.getType() : ((ListType) current).getType();
		}
		return ((TypeName) current).getName();
	}

}
