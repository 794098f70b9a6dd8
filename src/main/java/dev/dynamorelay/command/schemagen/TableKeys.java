package dev.dynamorelay.command.schemagen;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/**
 * A table's keys as DescribeTable shows them: the table's own partition and sort key, its indexes' keys
 * and the type (S, N or B) of every key attribute.
 *
 * @param partitionKey the table's partition (HASH) key attribute
 * @param sortKey the table's sort (RANGE) key attribute, or null
 * @param types the type of each key attribute, the indexes' included
 * @param indexes the global and local secondary indexes, sorted by name
 */
record TableKeys(String partitionKey, String sortKey, Map<String, ScalarAttributeType> types, List<Index> indexes) {

	static TableKeys of(TableDescription table) {
		Map<String, ScalarAttributeType> types = new TreeMap<>();
		for (AttributeDefinition definition : table.attributeDefinitions()) {
			types.put(definition.attributeName(), definition.attributeType());
		}
		String partitionKey = key(table.keySchema(), KeyType.HASH);
		List<Index> indexes = new ArrayList<>();
		for (GlobalSecondaryIndexDescription index : table.globalSecondaryIndexes()) {
			indexes.add(new Index(index.indexName(), true, key(index.keySchema(), KeyType.HASH),
					key(index.keySchema(), KeyType.RANGE), projection(index.projection())));
		}
		for (LocalSecondaryIndexDescription index : table.localSecondaryIndexes()) {
			indexes.add(new Index(index.indexName(), false, partitionKey, key(index.keySchema(), KeyType.RANGE),
					projection(index.projection())));
		}
		indexes.sort(Comparator.comparing(Index::name));
		return new TableKeys(partitionKey, key(table.keySchema(), KeyType.RANGE), types, List.copyOf(indexes));
	}

	private static String projection(Projection projection) {
		return (projection != null && projection.projectionType() != null) ? projection.projectionTypeAsString()
				: null;
	}

	private static String key(List<KeySchemaElement> schema, KeyType type) {
		return schema.stream()
			.filter((element) -> element.keyType() == type)
			.map(KeySchemaElement::attributeName)
			.findFirst()
			.orElse(null);
	}

	/** Whether {@code attribute} is the table's own partition or sort key. */
	boolean isTableKey(String attribute) {
		return attribute.equals(this.partitionKey) || attribute.equals(this.sortKey);
	}

	/** The key attributes of the indexes that are not the table's own keys, sorted. */
	SortedSet<String> indexKeyAttributes() {
		SortedSet<String> attributes = new TreeSet<>();
		for (Index index : this.indexes) {
			for (String attribute : new String[] { index.partitionKey(), index.sortKey() }) {
				if (attribute != null && !isTableKey(attribute)) {
					attributes.add(attribute);
				}
			}
		}
		return attributes;
	}

	/** The DynamoDB type of a key attribute. */
	ScalarAttributeType type(String attribute) {
		return this.types.get(attribute);
	}

	/**
	 * The GraphQL type (without {@code !}) of a key attribute: {@code String}, {@code Bytes}, or for a
	 * number the narrowest type that holds every sampled value ({@code Long} when none was sampled).
	 */
	String graphQlType(String attribute, AttributeProfile sampled) {
		return switch (type(attribute)) {
			case S -> "String";
			case B -> "Bytes";
			default -> (sampled != null) ? sampled.numberType() : "Long";
		};
	}

	/** {@code year (N)}: a key attribute and its type, for descriptions. */
	String describe(String attribute) {
		return "`" + attribute + "` (" + type(attribute) + ")";
	}

	/**
	 * A secondary index.
	 *
	 * @param name the index's name
	 * @param global whether it is a global (not a local) secondary index
	 * @param partitionKey its partition key attribute: the table's for a local index
	 * @param sortKey its sort key attribute, or null
	 * @param projection its projection type ({@code ALL}, {@code KEYS_ONLY}, {@code INCLUDE}), or null
	 */
	record Index(String name, boolean global, String partitionKey, String sortKey, String projection) {

		/** {@code global index `ByCategory`}, for descriptions. */
		String describe() {
			return (this.global ? "global" : "local") + " index `" + this.name + "`";
		}

	}

}
