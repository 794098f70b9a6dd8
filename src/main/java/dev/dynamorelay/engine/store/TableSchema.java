package dev.dynamorelay.engine.store;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;

/**
 * A table's keys and indexes: what the storage needs to place an item and keep its indexes. Immutable; an
 * UpdateTable that adds or removes an index makes a new one.
 *
 * @param name the table's name
 * @param hash the partition key
 * @param range the sort key, or null
 * @param attributeDefinitions the attribute definitions as declared (the keys of the table and its indexes)
 * @param indexes the secondary indexes, local ones first, each in the order declared
 */
public record TableSchema(String name, KeyAttribute hash, KeyAttribute range, List<AttributeDefinition> attributeDefinitions,
		List<IndexSchema> indexes) {

	public TableSchema {
		attributeDefinitions = List.copyOf(attributeDefinitions);
		indexes = List.copyOf(indexes);
	}

	/** Whether {@code name} is one of the table's own key attributes. */
	public boolean isKey(String name) {
		return name.equals(this.hash.name()) || (this.range != null && name.equals(this.range.name()));
	}

	/** The index named {@code name}, or null. */
	public IndexSchema index(String name) {
		for (IndexSchema index : this.indexes) {
			if (index.name().equals(name)) {
				return index;
			}
		}
		return null;
	}

	/** Whether the table has a local secondary index (then its item collections are bounded). */
	public boolean hasLocalIndexes() {
		for (IndexSchema index : this.indexes) {
			if (!index.global()) {
				return true;
			}
		}
		return false;
	}

	/** The table's key attributes of {@code item}. */
	public Map<String, AttributeValue> key(Map<String, AttributeValue> item) {
		if (this.range == null) {
			return Map.of(this.hash.name(), item.get(this.hash.name()));
		}
		return Map.of(this.hash.name(), item.get(this.hash.name()), this.range.name(), item.get(this.range.name()));
	}

	/** The table's key schema as DynamoDB describes it. */
	public List<KeySchemaElement> keySchema() {
		return keySchema(this.hash, this.range);
	}

	static List<KeySchemaElement> keySchema(KeyAttribute hash, KeyAttribute range) {
		List<KeySchemaElement> schema = new ArrayList<>(2);
		schema.add(KeySchemaElement.builder().attributeName(hash.name()).keyType(KeyType.HASH).build());
		if (range != null) {
			schema.add(KeySchemaElement.builder().attributeName(range.name()).keyType(KeyType.RANGE).build());
		}
		return schema;
	}

	/** The same table with other indexes (and the attribute definitions their keys need). */
	public TableSchema withIndexes(List<IndexSchema> newIndexes, List<AttributeDefinition> definitions) {
		return new TableSchema(this.name, this.hash, this.range, definitions, newIndexes);
	}

}
