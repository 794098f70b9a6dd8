package dev.dynamorelay.engine.store;

import java.util.Map;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Condition;

import dev.dynamorelay.engine.action.AwsError;

/**
 * The checks Query and Scan share: the select, the index read (and whether a read through it needs the table's
 * items), paths into key attributes, and the legacy conditions' operators.
 */
final class ReadChecks {

	/** The values of Select. */
	static final String[] SELECT = { "SPECIFIC_ATTRIBUTES", "COUNT", "ALL_ATTRIBUTES", "ALL_PROJECTED_ATTRIBUTES" };

	private ReadChecks() {
	}

	/** The constraints on the comparison operators of legacy conditions. */
	static void conditions(Constraints constraints, String path, Map<String, Condition> conditions) {
		if (conditions == null) {
			return;
		}
		for (Map.Entry<String, Condition> entry : conditions.entrySet()) {
			String member = path + "." + entry.getKey() + ".member.comparisonOperator";
			constraints.notNull(member, entry.getValue().comparisonOperatorAsString());
			constraints.oneOf(member, entry.getValue().comparisonOperatorAsString(), ItemOperations.COMPARISON_OPERATORS);
		}
	}

	static void checkSelect(String select, boolean projectionExpression, boolean attributesToGet, String indexName) {
		if (select == null) {
			return;
		}
		if ("SPECIFIC_ATTRIBUTES".equals(select)) {
			if (!projectionExpression && !attributesToGet) {
				throw AwsError.validation("1 validation error detected: Must specify the AttributesToGet or ProjectionExpression when choosing to get SPECIFIC_ATTRIBUTES");
			}
			return;
		}
		if (projectionExpression) {
			throw AwsError.validation("Cannot specify the ProjectionExpression when choosing to get " + select);
		}
		if (attributesToGet) {
			throw AwsError.validation("Cannot specify the AttributesToGet when choosing to get " + select);
		}
		if ("ALL_PROJECTED_ATTRIBUTES".equals(select) && indexName == null) {
			throw AwsError.validation("ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName");
		}
	}

	/** The queried index, checked: it exists, is readable, and is read consistently only when local. */
	static IndexSchema index(TableSchema schema, String name, boolean consistentRead) {
		if (name == null) {
			return null;
		}
		IndexSchema index = schema.index(name);
		if (index == null) {
			throw AwsError.validation("The table does not have the specified index: " + name);
		}
		if (index.global() && consistentRead) {
			throw AwsError.validation("Consistent reads are not supported on global secondary indexes");
		}
		return index;
	}

	/**
	 * Whether the read needs attributes the index does not hold (a local index reads them from its table);
	 * refused for a global index.
	 */
	static boolean fetchesFromTable(IndexSchema index, String select, ItemProjection projection) {
		if (index == null || index.projectsAll()) {
			return false;
		}
		boolean all = "ALL_ATTRIBUTES".equals(select);
		if (all && index.global()) {
			throw AwsError.validation("One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not supported for global secondary index "
					+ index.name() + " because its projection type is not ALL");
		}
		if (all) {
			return true;
		}
		if (projection != null && !index.global()) {
			for (String name : projection.topLevelNames()) {
				if (!index.projectsAll() && !index.nonKeyAttributes().contains(name) && !index.keyNames().contains(name)) {
					return true;
				}
			}
		}
		return false;
	}

	/** Refuses paths into key attributes (a key's nested paths) in the projection and the filter. */
	static void checkKeyPaths(ExprBridge.Parsed parsed, TableSchema schema) {
		if (parsed.projection() != null) {
			ExprBridge.checkKeyPaths(parsed.projection().nestedTopLevelNames(), schema);
		}
		if (parsed.filter() != null) {
			ExprBridge.checkKeyPaths(parsed.filter().nestedTopLevelNames(), schema);
		}
	}

	/** The index's entries, when it can be read (the caller holds the table's read lock). */
	static StoredIndex readable(StoredTable table, IndexSchema index) {
		StoredIndex stored = table.indexes.get(index.name());
		if (stored == null) {
			throw AwsError.validation("The table does not have the specified index: " + index.name());
		}
		if (stored.backfilling) {
			throw AwsError.validation("Cannot read from backfilling global secondary index: " + index.name());
		}
		return stored;
	}

}
