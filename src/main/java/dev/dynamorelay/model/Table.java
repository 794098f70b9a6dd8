package dev.dynamorelay.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.dynamorelay.model.KeyAttribute;
import dev.dynamorelay.schema.Location;

/**
 * A declared DynamoDB table: its key schema and indexes, as every type stored in it declares them.
 *
 * @param name the declared name, without the configured prefix
 * @param physicalName the name DynamoDB knows: the prefix and the declared name
 * @param partitionKey the partition (HASH) key attribute and its type
 * @param sortKey the sort (RANGE) key attribute, if any
 * @param indexes global and local secondary indexes by name
 * @param typeAttribute the attribute holding each item's type name, if the types declare one
 * @param location the first declaration of the table
 */
public record Table(String name, String physicalName, KeyAttribute partitionKey, Optional<KeyAttribute> sortKey,
		Map<String, Index> indexes, Optional<String> typeAttribute, Location location) {

	public Table {
		indexes = Map.copyOf(indexes);
	}

	/** The attributes of an item's primary key: partition key, then sort key. */
	public List<KeyAttribute> primaryKey() {
		List<KeyAttribute> key = new ArrayList<>(2);
		key.add(this.partitionKey);
		this.sortKey.ifPresent(key::add);
		return key;
	}

	/**
	 * A global or local secondary index.
	 *
	 * @param name the index name
	 * @param global a GSI (its own partition key) or an LSI (the table's partition key)
	 * @param partitionKey the index's partition key attribute
	 * @param sortKey the index's sort key attribute, if any
	 * @param location its first declaration
	 */
	public record Index(String name, boolean global, KeyAttribute partitionKey, Optional<KeyAttribute> sortKey,
			Location location) {
	}

}
