package dev.dynamorelay.engine.diff;

import java.util.List;
import java.util.function.Predicate;

import tools.jackson.databind.JsonNode;

/**
 * The differences between dynalite and the engine that are known and right: each where dynalite departs from
 * DynamoDB's documentation (or from what DynamoDB answers), with the reason and the page that says so. Anything not
 * named here fails the differential test. docs/engine.md lists the same cases for users.
 */
final class KnownDifferences {

	/** One known difference: why the engine is right, and which differences it covers. */
	private record Known(String why, Predicate<Case> covers) {
	}

	/** A difference with its call and both answers. */
	record Case(Workload workload, Workload.Call call, RawDynamoDb.Answer dynalite, RawDynamoDb.Answer engine, Answers.Difference difference) {

		String path() {
			return this.difference.path();
		}

	}

	private static final List<Known> KNOWN = List.of(
			new Known("DeletionProtectionEnabled is part of every TableDescription since DynamoDB added deletion "
					+ "protection (API Reference, TableDescription); dynalite predates it",
					(c) -> c.path().endsWith("DeletionProtectionEnabled") && "null".equals(c.difference().reference())),
			new Known("a write's consumed capacity counts the writes of its indexes (Developer Guide, \"Provisioned "
					+ "throughput considerations for global secondary indexes\", and local secondary indexes' \"Provisioned "
					+ "throughput considerations\"); dynalite counts the table alone",
					KnownDifferences::indexWrites),
			new Known("DynamoDB refuses an ordering comparison (<, <=, >, >=, BETWEEN) whose value operand is not a "
					+ "string, number or binary (\"Incorrect operand type for operator or function\"); dynalite "
					+ "evaluates it as false",
					(c) -> c.engine().message() != null
							&& c.engine().message().matches("Invalid (Condition|Filter)Expression: Incorrect operand type for "
									+ "operator or function; operator or function: (<|<=|>|>=|BETWEEN), operand type: .*")),
			new Known("UpdateItem with UPDATED_OLD or UPDATED_NEW leaves Attributes out when none of the updated "
					+ "attributes has a value to return, as DynamoDB does (tested against DynamoDB by ExtendDB, "
					+ "ExtendDB/extenddb#121); dynalite answers an empty map",
					(c) -> c.path().equals("Attributes") && "{}".equals(c.difference().reference())
							&& "null".equals(c.difference().engine())),
			new Known("TableThroughputModeSummary is no member of TableDescription in DynamoDB's API Reference (nor in "
					+ "the AWS SDKs' model); dynalite recorded it from an older DynamoDB",
					(c) -> c.path().endsWith("TableThroughputModeSummary") && "null".equals(c.difference().engine())),
			new Known("Select SPECIFIC_ATTRIBUTES needs a ProjectionExpression (API Reference, Query and Scan, Select: "
					+ "\"Returns only the attributes listed in ProjectionExpression\"), and DynamoDB refuses it without one; "
					+ "dynalite reads every attribute",
					(c) -> c.call().body().path("Select").asString("").equals("SPECIFIC_ATTRIBUTES")
							&& !c.call().body().has("ProjectionExpression") && !c.call().body().has("AttributesToGet")
							&& c.engine().status() == 400),
			new Known("Select other than SPECIFIC_ATTRIBUTES refuses a ProjectionExpression (API Reference, Query and "
					+ "Scan, Select: \"If you use the ProjectionExpression parameter, then the value for Select can only "
					+ "be SPECIFIC_ATTRIBUTES. Any other value for Select will return an error.\"); dynalite answers",
					(c) -> c.call().body().has("ProjectionExpression") && c.call().body().has("Select")
							&& !c.call().body().path("Select").asString("").equals("SPECIFIC_ATTRIBUTES")
							&& c.engine().status() == 400),
			new Known("a syntax error is told with DynamoDB's token and the text near it (\"Syntax error; token: "
					+ "\\\"<EOF>\\\", near: ...\"); dynalite's parser generator words its own (\"Syntax error; Expected ...\")",
					(c) -> c.path().equals("message") && c.difference().reference().matches("Invalid \\w+: Syntax error; Expected .*")
							&& c.difference().engine().matches("Invalid \\w+: Syntax error; token: .*")),
			new Known("a failed condition returns the stored item when ReturnValuesOnConditionCheckFailure is ALL_OLD "
					+ "(API Reference, PutItem, UpdateItem and DeleteItem, ReturnValuesOnConditionCheckFailure); dynalite "
					+ "predates the parameter",
					(c) -> c.path().equals("Item") && "null".equals(c.difference().reference())
							&& c.call().body().path("ReturnValuesOnConditionCheckFailure").asString("").equals("ALL_OLD")
							&& "ConditionalCheckFailedException".equals(suffix(c.engine().type()))),
			new Known("CreateTable of a table that exists is refused with a message naming it (\"Table already exists: "
					+ "name\", as DynamoDB words it); dynalite's message is empty",
					(c) -> c.path().equals("message") && c.difference().reference().isEmpty()
							&& c.difference().engine().startsWith("Table already exists: ")),
			new Known("ConditionalOperator OR matches an item that meets any of the conditions (API Reference, Query "
					+ "and Scan, ConditionalOperator); dynalite stops at the first condition it does not meet",
					(c) -> c.call().body().path("ConditionalOperator").asString("").equals("OR")
							&& List.of("Query", "Scan").contains(c.call().operation())
							&& (c.path().startsWith("Items") || c.path().equals("Count") || c.path().startsWith("ConsumedCapacity"))),
			new Known("a Query of a local secondary index returns the attributes asked for that the index does not "
					+ "project, fetched from the table (Developer Guide, \"Local secondary indexes\", attribute "
					+ "projections: \"DynamoDB automatically fetches those attributes from the base table\"); dynalite "
					+ "returns the projected ones alone",
					(c) -> c.call().operation().equals("Query") && c.call().body().has("IndexName")
							&& c.workload().local(c.call().body().get("TableName").asString(""), c.call().body().get("IndexName").asString(""))
							&& (c.path().startsWith("Items[") && "null".equals(c.difference().reference())
									|| c.path().startsWith("ConsumedCapacity"))),
			new Known("attribute_type(path, BOOL) is true of an attribute whose value is false (Developer Guide, "
					+ "\"Condition and filter expressions\", attribute_type: true if the attribute is of the type); "
					+ "dynalite takes the value false for a missing attribute",
					(c) -> c.call().body().toString().contains("attribute_type(")
							&& c.call().body().toString().contains("{\"S\":\"BOOL\"}")));

	private KnownDifferences() {
	}

	private static String suffix(String type) {
		return (type == null) ? null : type.substring(type.indexOf('#') + 1);
	}

	/** Why {@code difference} is right, or null when it is not known to be. */
	static String explain(Workload workload, Workload.Call call, RawDynamoDb.Answer dynalite, RawDynamoDb.Answer engine,
			Answers.Difference difference) {
		Case c = new Case(workload, call, dynalite, engine, difference);
		for (Known known : KNOWN) {
			if (known.covers().test(c)) {
				return known.why();
			}
		}
		return null;
	}

	/**
	 * Consumed capacity that differs by the index writes alone: the engine's table part equals dynalite's whole, or
	 * the difference is the engine's breakdown of index capacity that dynalite leaves out.
	 */
	private static boolean indexWrites(Case c) {
		if (!c.path().contains("ConsumedCapacity") || c.engine().body() == null || c.dynalite().body() == null) {
			return false;
		}
		String operation = c.call().operation();
		if (!List.of("PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem").contains(operation)) {
			return false;
		}
		if (c.path().endsWith("LocalSecondaryIndexes") || c.path().endsWith("GlobalSecondaryIndexes")) {
			return "null".equals(c.difference().reference());
		}
		if (!c.path().endsWith("CapacityUnits")) {
			return false;
		}
		List<JsonNode> engines = capacities(c.engine().body().get("ConsumedCapacity"));
		List<JsonNode> dynalites = capacities(c.dynalite().body().get("ConsumedCapacity"));
		if (engines.size() != dynalites.size()) {
			return false;
		}
		if (c.call().body().path("ReturnConsumedCapacity").asString("").equals("TOTAL")) {
			// No breakdown to check against: more than dynalite's, on a table with indexes, is the index writes.
			for (int i = 0; i < engines.size(); i++) {
				String table = engines.get(i).path("TableName").asString("");
				if (!c.workload().indexed(table) || engines.get(i).path("CapacityUnits").asDouble()
						< dynalites.get(i).path("CapacityUnits").asDouble()) {
					return false;
				}
			}
			return true;
		}
		for (int i = 0; i < engines.size(); i++) {
			JsonNode table = engines.get(i).path("Table").path("CapacityUnits");
			double tableUnits = table.isNumber() ? table.asDouble() : engines.get(i).path("CapacityUnits").asDouble()
					- indexUnits(engines.get(i));
			if (tableUnits != dynalites.get(i).path("CapacityUnits").asDouble()) {
				return false;
			}
		}
		return true;
	}

	private static List<JsonNode> capacities(JsonNode capacity) {
		if (capacity == null) {
			return List.of();
		}
		if (capacity.isArray()) {
			List<JsonNode> all = new java.util.ArrayList<>();
			capacity.forEach(all::add);
			return all;
		}
		return List.of(capacity);
	}

	private static double indexUnits(JsonNode capacity) {
		double units = 0;
		for (String kind : List.of("LocalSecondaryIndexes", "GlobalSecondaryIndexes")) {
			for (JsonNode index : capacity.path(kind)) {
				units += index.path("CapacityUnits").asDouble();
			}
		}
		return units;
	}

}
