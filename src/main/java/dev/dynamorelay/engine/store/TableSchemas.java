package dev.dynamorelay.engine.store;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/**
 * Builds a table's key and index schema from the attribute definitions and key schemas of a CreateTable, or of a
 * table's description (a journal's restore), and of a new global index.
 */
final class TableSchemas {

	private TableSchemas() {
	}

	/** The schema a CreateTable asks for (checked by {@link TableChecks#checkCreate} before). */
	static TableSchema of(CreateTableRequest request) {
		Map<String, String> types = types(request.attributeDefinitions());
		List<IndexSchema> indexes = new ArrayList<>();
		if (request.hasLocalSecondaryIndexes()) {
			for (LocalSecondaryIndex index : request.localSecondaryIndexes()) {
				indexes.add(index(index.indexName(), false, index.keySchema(), index.projection(), types));
			}
		}
		if (request.hasGlobalSecondaryIndexes()) {
			for (GlobalSecondaryIndex index : request.globalSecondaryIndexes()) {
				indexes.add(index(index.indexName(), true, index.keySchema(), index.projection(), types));
			}
		}
		return new TableSchema(request.tableName(), hash(request.keySchema(), types), range(request.keySchema(), types),
				request.attributeDefinitions(), indexes);
	}

	/** The schema of a table as described. */
	static TableSchema of(TableDescription description) {
		Map<String, String> types = types(description.attributeDefinitions());
		List<IndexSchema> indexes = new ArrayList<>();
		if (description.hasLocalSecondaryIndexes()) {
			for (LocalSecondaryIndexDescription index : description.localSecondaryIndexes()) {
				indexes.add(index(index.indexName(), false, index.keySchema(), index.projection(), types));
			}
		}
		if (description.hasGlobalSecondaryIndexes()) {
			for (GlobalSecondaryIndexDescription index : description.globalSecondaryIndexes()) {
				indexes.add(index(index.indexName(), true, index.keySchema(), index.projection(), types));
			}
		}
		return new TableSchema(description.tableName(), hash(description.keySchema(), types), range(description.keySchema(), types),
				description.attributeDefinitions(), indexes);
	}

	private static KeyAttribute hash(List<KeySchemaElement> keySchema, Map<String, String> types) {
		return new KeyAttribute(keySchema.get(0).attributeName(), types.get(keySchema.get(0).attributeName()));
	}

	private static KeyAttribute range(List<KeySchemaElement> keySchema, Map<String, String> types) {
		return (keySchema.size() > 1) ? new KeyAttribute(keySchema.get(1).attributeName(), types.get(keySchema.get(1).attributeName())) : null;
	}

	static Map<String, String> types(List<AttributeDefinition> definitions) {
		Map<String, String> types = new LinkedHashMap<>();
		for (AttributeDefinition definition : definitions) {
			types.put(definition.attributeName(), definition.attributeTypeAsString());
		}
		return types;
	}

	static IndexSchema index(String name, boolean global, List<KeySchemaElement> keySchema, Projection projection,
			Map<String, String> types) {
		List<String> nonKey = projection.hasNonKeyAttributes() ? projection.nonKeyAttributes() : List.of();
		return new IndexSchema(name, global, hash(keySchema, types), range(keySchema, types), projection.projectionTypeAsString(), nonKey);
	}

}
