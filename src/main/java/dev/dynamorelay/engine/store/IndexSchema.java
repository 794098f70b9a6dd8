package dev.dynamorelay.engine.store;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A secondary index as its table declares it: global or local, its key, and which attributes it projects
 * (its keys and the table's keys always; {@code ALL} every attribute; {@code INCLUDE} also the named ones).
 *
 * @param name the index's name
 * @param global whether it is a global secondary index (a local one shares the table's partition key)
 * @param hash the index's partition key
 * @param range the index's sort key, or null
 * @param projectionType {@code ALL}, {@code KEYS_ONLY} or {@code INCLUDE}
 * @param nonKeyAttributes the attributes an {@code INCLUDE} projection adds, in the order declared
 */
public record IndexSchema(String name, boolean global, KeyAttribute hash, KeyAttribute range, String projectionType,
		List<String> nonKeyAttributes) {

	public IndexSchema {
		nonKeyAttributes = List.copyOf(nonKeyAttributes);
	}

	/** Whether the index holds every attribute of the items it indexes. */
	public boolean projectsAll() {
		return "ALL".equals(this.projectionType);
	}

	/** Whether the index holds the attribute {@code name} of an item (its keys, the table's, or projected). */
	public boolean projects(String name, TableSchema table) {
		return projectsAll() || name.equals(this.hash.name()) || (this.range != null && name.equals(this.range.name()))
				|| table.isKey(name) || this.nonKeyAttributes.contains(name);
	}

	/** The item as the index holds it: only the attributes it projects. */
	public Map<String, AttributeValue> project(Map<String, AttributeValue> item, TableSchema table) {
		if (projectsAll()) {
			return item;
		}
		Map<String, AttributeValue> projected = new LinkedHashMap<>();
		for (Map.Entry<String, AttributeValue> attribute : item.entrySet()) {
			if (projects(attribute.getKey(), table)) {
				projected.put(attribute.getKey(), attribute.getValue());
			}
		}
		return projected;
	}

	/** Whether the item has both of the index's key attributes (otherwise the index does not hold it). */
	public boolean indexes(Map<String, AttributeValue> item) {
		AttributeValue hashValue = item.get(this.hash.name());
		if (hashValue == null || !this.hash.accepts(hashValue)) {
			return false;
		}
		if (this.range == null) {
			return true;
		}
		AttributeValue rangeValue = item.get(this.range.name());
		return rangeValue != null && this.range.accepts(rangeValue);
	}

	/** The names of the index's key attributes. */
	public Set<String> keyNames() {
		return (this.range == null) ? Set.of(this.hash.name()) : Set.of(this.hash.name(), this.range.name());
	}

}
