package dev.dynamorelay.engine.diff;

import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Supplier;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A seeded random sequence of DynamoDB calls, valid and invalid: tables with every kind of key and index, items
 * of every type, and the item, query, scan and batch calls on them, with conditions, filters, projections, update
 * expressions and continuations from the last page's {@code LastEvaluatedKey}. A fifth of the calls are spoiled
 * on purpose (a member missing, a wrong type, a bad expression, a limit passed), so that refusals are compared as
 * well as answers. The same seed gives the same calls, as long as both sides answer alike (the sequence follows
 * the reference side's answers: which tables exist, which pages continue).
 */
final class Workload {

	private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

	/** Attributes that items may hold beside their keys, by the type they mostly hold. */
	private static final List<String> PLAIN = List.of("a", "n", "s", "ss", "ns", "bs", "l", "m", "flag", "nothing", "b");

	/** Reserved words, used as attribute names: expressions must name them with {@code #}. */
	private static final List<String> RESERVED = List.of("name", "status", "year", "count");

	private static final List<String> STRINGS = List.of("a", "b", "ab", "abc", "B", "Z", "é", "ü", "\uD83D\uDE00", "a b",
			"aa", "ba", "0", "9", "~", "a\u0000b");

	private static final List<String> NUMBERS = List.of("0", "1", "-1", "2", "10", "2.5", "-2.5", "100", "1e2", "0.001",
			"-0.001", "12345678901234567890123456789012345678", "-99.99", "3.14159", "7", "1E-5", "99999999999999999999");

	private final Random random;

	private final List<Table> tables = new ArrayList<>();

	private final List<Continuation> continuations = new ArrayList<>();

	/** The table a CreateTable call is about to create, until its answer says whether it did. */
	private final Map<String, Table> creating = new LinkedHashMap<>();

	private final String prefix;

	private int tableNumber;

	/** The calls of {@code seed}, on tables whose names start with {@code prefix}. */
	Workload(long seed, String prefix) {
		this.random = new Random(seed);
		this.prefix = prefix;
	}

	/** A call: its target, its body, and what it is meant to exercise. */
	record Call(String target, ObjectNode body, String label) {

		String operation() {
			return this.target.substring(this.target.indexOf('.') + 1);
		}

	}

	private record Key(String name, String type) {
	}

	private record Index(String name, Key hash, Key range, String projection, List<String> included, boolean global) {
	}

	private record Table(String name, Key hash, Key range, List<Index> gsis, List<Index> lsis, List<ObjectNode> keys) {

		List<Index> indexes() {
			List<Index> all = new ArrayList<>(this.gsis);
			all.addAll(this.lsis);
			return all;
		}

	}

	/** A Query or Scan that answered a LastEvaluatedKey: it may be continued from there. */
	private record Continuation(Call call, JsonNode lastEvaluatedKey) {
	}

	/** The next call. */
	Call next() {
		if (this.tables.isEmpty() || (this.tables.size() < 3 && chance(0.02))) {
			Call create = createTable();
			return (this.tables.isEmpty() || chance(0.8)) ? create : spoil(create);
		}
		double pick = this.random.nextDouble() * 100;
		Call call;
		if (pick < 22) {
			call = putItem();
		}
		else if (pick < 36) {
			call = updateItem();
		}
		else if (pick < 41) {
			call = deleteItem();
		}
		else if (pick < 51) {
			call = getItem();
		}
		else if (pick < 71) {
			call = (!this.continuations.isEmpty() && chance(0.4)) ? continuation() : query();
		}
		else if (pick < 81) {
			call = scan();
		}
		else if (pick < 86) {
			call = batchWrite();
		}
		else if (pick < 91) {
			call = batchGet();
		}
		else if (pick < 95) {
			call = new Call("DynamoDB_20120810.DescribeTable", object("TableName", table().name()), "DescribeTable");
		}
		else if (pick < 95.7) {
			call = new Call("DynamoDB_20120810.DescribeTimeToLive", object("TableName", table().name()), "DescribeTimeToLive");
		}
		else if (pick < 96.2) {
			call = updateTable();
		}
		else if (pick < 96.4 && this.tables.size() > 1) {
			Table gone = table();
			call = new Call("DynamoDB_20120810.DeleteTable", object("TableName", gone.name()), "DeleteTable");
		}
		else if (pick < 97) {
			ObjectNode body = NODES.objectNode();
			if (chance(0.5)) {
				body.put("Limit", 1 + this.random.nextInt(3));
			}
			call = new Call("DynamoDB_20120810.ListTables", body, "ListTables");
		}
		else {
			call = createTable();
		}
		if (chance(0.12) && List.of("PutItem", "UpdateItem", "DeleteItem", "GetItem", "Query", "Scan").contains(call.operation())) {
			call = legacy(call.operation());
		}
		return chance(0.2) ? spoil(call) : call;
	}

	/** Whether {@code index} of the table of that name is a local secondary index. */
	boolean local(String name, String index) {
		return this.tables.stream()
			.filter((table) -> table.name().equals(name))
			.anyMatch((table) -> table.lsis().stream().anyMatch((each) -> each.name().equals(index)));
	}

	/** Whether the table of that name has a secondary index (its writes consume index capacity too). */
	boolean indexed(String name) {
		return this.tables.stream().anyMatch((table) -> table.name().equals(name) && !table.indexes().isEmpty());
	}

	/** Takes the reference side's answer to {@code call}: tables that now exist, pages that may go on. */
	void observe(Call call, RawDynamoDb.Answer answer) {
		if (call.operation().equals("CreateTable")) {
			Table created = this.creating.remove(call.body().path("TableName").asString(""));
			if (created != null && answer.status() == 200) {
				this.tables.add(created);
			}
			this.creating.clear();
		}
		if (answer.status() != 200 || answer.body() == null) {
			return;
		}
		switch (call.operation()) {
			case "PutItem" -> remember(call.body().path("TableName").asString(), call.body().path("Item"));
			case "DeleteTable" -> this.tables.removeIf((table) -> table.name().equals(call.body().path("TableName").asString()));
			case "Query", "Scan" -> {
				JsonNode last = answer.body().get("LastEvaluatedKey");
				this.continuations.removeIf((each) -> each.call() == call);
				if (last != null) {
					this.continuations.add(new Continuation(call, last));
					if (this.continuations.size() > 20) {
						this.continuations.remove(0);
					}
				}
			}
			default -> {
			}
		}
	}

	private void remember(String tableName, JsonNode item) {
		for (Table table : this.tables) {
			if (table.name().equals(tableName) && item.isObject()) {
				ObjectNode key = keyOf(table, item);
				if (key != null && table.keys().stream().noneMatch(key::equals)) {
					table.keys().add(key);
				}
			}
		}
	}

	private ObjectNode keyOf(Table table, JsonNode item) {
		ObjectNode key = NODES.objectNode();
		for (Key part : keyParts(table)) {
			JsonNode value = item.get(part.name());
			if (value == null) {
				return null;
			}
			key.set(part.name(), value);
		}
		return key;
	}

	// Tables

	private Call createTable() {
		String name = this.prefix + "t" + (++this.tableNumber) + (chance(0.2) ? "-x_y.z" : "");
		Key hash = new Key("pk", keyType());
		Key range = chance(0.75) ? new Key("sk", keyType()) : null;
		List<Index> gsis = new ArrayList<>();
		List<Index> lsis = new ArrayList<>();
		if (chance(0.6)) {
			gsis.add(new Index("byG", new Key("gpk", keyType()), chance(0.7) ? new Key("gsk", keyType()) : null, projection(),
					List.of("a", "s"), true));
		}
		if (chance(0.2)) {
			gsis.add(new Index("byS", new Key("s", "S"), (range != null) ? range : null, projection(), List.of("n"), true));
		}
		if (range != null && chance(0.5)) {
			lsis.add(new Index("byL", hash, new Key("lsk", keyType()), projection(), List.of("a"), false));
		}
		Table table = new Table(name, hash, range, gsis, lsis, new ArrayList<>());
		this.creating.put(name, table);
		ObjectNode body = NODES.objectNode();
		body.put("TableName", name);
		Map<String, String> definitions = new LinkedHashMap<>();
		definitions.put(hash.name(), hash.type());
		if (range != null) {
			definitions.put(range.name(), range.type());
		}
		for (Index index : table.indexes()) {
			definitions.put(index.hash().name(), index.hash().type());
			if (index.range() != null) {
				definitions.put(index.range().name(), index.range().type());
			}
		}
		ArrayNode attributes = body.putArray("AttributeDefinitions");
		definitions.forEach((attribute, type) -> attributes.addObject().put("AttributeName", attribute).put("AttributeType", type));
		body.set("KeySchema", keySchema(hash, range));
		boolean onDemand = chance(0.5);
		if (onDemand) {
			body.put("BillingMode", "PAY_PER_REQUEST");
		}
		else {
			body.set("ProvisionedThroughput", throughput());
		}
		if (!gsis.isEmpty()) {
			ArrayNode array = body.putArray("GlobalSecondaryIndexes");
			for (Index index : gsis) {
				ObjectNode each = indexDefinition(index);
				if (!onDemand) {
					each.set("ProvisionedThroughput", throughput());
				}
				array.add(each);
			}
		}
		if (!lsis.isEmpty()) {
			ArrayNode array = body.putArray("LocalSecondaryIndexes");
			lsis.forEach((index) -> array.add(indexDefinition(index)));
		}
		return new Call("DynamoDB_20120810.CreateTable", body, "CreateTable");
	}

	private Call updateTable() {
		Table table = table();
		ObjectNode body = object("TableName", table.name());
		if (chance(0.5)) {
			body.set("ProvisionedThroughput", throughput());
		}
		else {
			body.put("BillingMode", pick(List.of("PAY_PER_REQUEST", "PROVISIONED")));
			if (body.get("BillingMode").asString().equals("PROVISIONED")) {
				body.set("ProvisionedThroughput", throughput());
			}
		}
		return new Call("DynamoDB_20120810.UpdateTable", body, "UpdateTable");
	}

	private ObjectNode indexDefinition(Index index) {
		ObjectNode each = NODES.objectNode();
		each.put("IndexName", index.name());
		each.set("KeySchema", keySchema(index.hash(), index.range()));
		ObjectNode projection = each.putObject("Projection");
		projection.put("ProjectionType", index.projection());
		if (index.projection().equals("INCLUDE")) {
			ArrayNode included = projection.putArray("NonKeyAttributes");
			index.included().forEach(included::add);
		}
		return each;
	}

	private static ArrayNode keySchema(Key hash, Key range) {
		ArrayNode schema = NODES.arrayNode();
		schema.addObject().put("AttributeName", hash.name()).put("KeyType", "HASH");
		if (range != null) {
			schema.addObject().put("AttributeName", range.name()).put("KeyType", "RANGE");
		}
		return schema;
	}

	private ObjectNode throughput() {
		return NODES.objectNode().put("ReadCapacityUnits", 1 + this.random.nextInt(5)).put("WriteCapacityUnits", 1 + this.random.nextInt(5));
	}

	private String keyType() {
		double pick = this.random.nextDouble();
		return (pick < 0.5) ? "S" : (pick < 0.85) ? "N" : "B";
	}

	private String projection() {
		double pick = this.random.nextDouble();
		return (pick < 0.5) ? "ALL" : (pick < 0.75) ? "KEYS_ONLY" : "INCLUDE";
	}

	// Items

	private Call putItem() {
		Table table = table();
		ObjectNode body = object("TableName", table.name());
		body.set("Item", item(table));
		conditionMaybe(body, table, "ConditionExpression");
		if (chance(0.4)) {
			body.put("ReturnValues", chance(0.8) ? "ALL_OLD" : "NONE");
		}
		capacityMaybe(body);
		if (chance(0.1)) {
			body.put("ReturnValuesOnConditionCheckFailure", "ALL_OLD");
		}
		return new Call("DynamoDB_20120810.PutItem", body, "PutItem");
	}

	private Call getItem() {
		Table table = table();
		ObjectNode body = object("TableName", table.name());
		body.set("Key", knownOrNewKey(table));
		if (chance(0.3)) {
			body.put("ConsistentRead", chance(0.5));
		}
		projectionMaybe(body, table);
		capacityMaybe(body);
		return new Call("DynamoDB_20120810.GetItem", body, "GetItem");
	}

	private Call deleteItem() {
		Table table = table();
		ObjectNode body = object("TableName", table.name());
		body.set("Key", knownOrNewKey(table));
		conditionMaybe(body, table, "ConditionExpression");
		if (chance(0.4)) {
			body.put("ReturnValues", "ALL_OLD");
		}
		capacityMaybe(body);
		return new Call("DynamoDB_20120810.DeleteItem", body, "DeleteItem");
	}

	private Call updateItem() {
		Table table = table();
		ObjectNode body = object("TableName", table.name());
		body.set("Key", knownOrNewKey(table));
		Expression names = new Expression();
		List<String> set = new ArrayList<>();
		List<String> remove = new ArrayList<>();
		List<String> add = new ArrayList<>();
		List<String> delete = new ArrayList<>();
		Set<String> touched = new LinkedHashSet<>();
		int actions = 1 + this.random.nextInt(3);
		for (int i = 0; i < actions; i++) {
			String attribute = pick(nonKeyAttributes(table));
			if (!touched.add(attribute)) {
				continue;
			}
			String path = names.name(attribute);
			// Mostly what the attribute's type allows, so that most updates apply; now and then anything.
			String kind = chance(0.1) ? pick(List.of("set", "arithmetic", "append", "element", "nested", "remove", "add",
					"delete")) : fitting(attribute);
			switch (kind) {
				case "arithmetic" -> set.add(path + " = " + (chance(0.7) ? "if_not_exists(" + path + ", " + names.value(operand())
						+ ")" : path) + (chance(0.5) ? " + " : " - ") + names.value(operand()));
				case "append" -> set.add(path + " = list_append(" + (chance(0.5)
						? "if_not_exists(" + path + ", " + names.value(list(0)) + "), " + names.value(list(1))
						: names.value(list(1)) + ", if_not_exists(" + path + ", " + names.value(list(0)) + ")") + ")");
				case "element" -> set.add(path + "[" + this.random.nextInt(3) + "] = " + names.value(value("S", 1)));
				case "nested" -> set.add(path + "." + names.name(pick(List.of("x", "y", "name"))) + " = " + names.value(value("N", 1)));
				case "remove" -> remove.add((chance(0.8) || !attribute.equals("l")) ? path : path + "[" + this.random.nextInt(3) + "]");
				case "add" -> add.add(path + " " + names.value(switch (typeOf(attribute)) {
					case "SS", "NS" -> set(typeOf(attribute));
					default -> operand();
				}));
				case "delete" -> delete.add(path + " " + names.value(set(attribute.equals("ns") ? "NS" : attribute.equals("bs") ? "BS" : "SS")));
				default -> {
					String type = typeOf(attribute);
					set.add(path + " = " + names.value((attribute.equals("n") && type.equals("N")) ? operand() : value(type, 2)));
				}
			}
		}
		StringBuilder update = new StringBuilder();
		clause(update, "SET", set, ", ");
		clause(update, "REMOVE", remove, ", ");
		clause(update, "ADD", add, ", ");
		clause(update, "DELETE", delete, ", ");
		if (update.length() == 0) {
			update.append("SET ").append(names.name("a")).append(" = ").append(names.value(value("S", 1)));
		}
		body.put("UpdateExpression", update.toString().trim());
		if (chance(0.3)) {
			body.put("ConditionExpression", condition(table, names, 2));
		}
		names.into(body);
		if (chance(0.6)) {
			body.put("ReturnValues", pick(List.of("NONE", "ALL_OLD", "UPDATED_OLD", "ALL_NEW", "UPDATED_NEW")));
		}
		capacityMaybe(body);
		return new Call("DynamoDB_20120810.UpdateItem", body, "UpdateItem");
	}

	/** An update action that the attribute's usual type allows. */
	private String fitting(String attribute) {
		return switch (attribute) {
			case "n", "count" -> pick(List.of("arithmetic", "add", "set", "remove"));
			case "ss", "ns", "bs" -> pick(List.of("add", "delete", "set", "remove"));
			case "l" -> pick(List.of("append", "element", "set", "remove"));
			case "m" -> pick(List.of("nested", "set", "remove"));
			default -> pick(List.of("set", "set", "remove"));
		};
	}

	private static void clause(StringBuilder update, String keyword, List<String> actions, String separator) {
		if (!actions.isEmpty()) {
			update.append(keyword).append(' ').append(String.join(separator, actions)).append(' ');
		}
	}

	// Reads

	private Call query() {
		Table table = table();
		Index index = (!table.indexes().isEmpty() && chance(0.4)) ? pick(table.indexes()) : null;
		Key hash = (index != null) ? index.hash() : table.hash();
		Key range = (index != null) ? index.range() : table.range();
		ObjectNode body = object("TableName", table.name());
		if (index != null) {
			body.put("IndexName", index.name());
		}
		Expression names = new Expression();
		JsonNode hashValue = (!table.keys().isEmpty() && hash.name().equals("pk") && chance(0.8))
				? pick(table.keys()).get("pk") : keyValue(hash.type());
		String condition = names.name(hash.name()) + " = " + names.value(hashValue);
		if (range != null && chance(0.6)) {
			String sort = names.name(range.name());
			double pick = this.random.nextDouble();
			if (pick < 0.5) {
				condition += " AND " + sort + " " + pick(List.of("=", "<", "<=", ">", ">=")) + " " + names.value(keyValue(range.type()));
			}
			else if (pick < 0.8) {
				List<JsonNode> bounds = ordered(keyValue(range.type()), keyValue(range.type()));
				condition += " AND " + sort + " BETWEEN " + names.value(bounds.get(0)) + " AND " + names.value(bounds.get(1));
			}
			else if (!range.type().equals("N")) {
				condition += " AND begins_with(" + sort + ", " + names.value(keyValue(range.type())) + ")";
			}
		}
		body.put("KeyConditionExpression", condition);
		readOptions(body, table, names);
		if (chance(0.3)) {
			body.put("ScanIndexForward", chance(0.5));
		}
		if (index == null && chance(0.2)) {
			body.put("ConsistentRead", true);
		}
		names.into(body);
		return new Call("DynamoDB_20120810.Query", body, "Query" + ((index != null) ? " on an index" : ""));
	}

	private Call scan() {
		Table table = table();
		ObjectNode body = object("TableName", table.name());
		Expression names = new Expression();
		if (!table.gsis().isEmpty() && chance(0.2)) {
			body.put("IndexName", pick(table.gsis()).name());
		}
		readOptions(body, table, names);
		if (chance(0.15)) {
			int segments = 1 + this.random.nextInt(4);
			body.put("TotalSegments", segments);
			body.put("Segment", this.random.nextInt(segments));
		}
		names.into(body);
		return new Call("DynamoDB_20120810.Scan", body, "Scan");
	}

	private void readOptions(ObjectNode body, Table table, Expression names) {
		if (chance(0.6)) {
			body.put("Limit", 1 + this.random.nextInt(chance(0.7) ? 4 : 40));
		}
		if (chance(0.35)) {
			body.put("FilterExpression", condition(table, names, 2));
		}
		double select = this.random.nextDouble();
		if (select < 0.1) {
			body.put("Select", "COUNT");
		}
		else if (select < 0.3) {
			body.put("ProjectionExpression", projection(table, names));
		}
		capacityMaybe(body);
	}

	private Call continuation() {
		Continuation continuation = this.continuations.remove(this.random.nextInt(this.continuations.size()));
		ObjectNode body = continuation.call().body().deepCopy();
		body.set("ExclusiveStartKey", continuation.lastEvaluatedKey());
		return new Call(continuation.call().target(), body, continuation.call().label() + ", continued");
	}

	// The legacy parameters (API Reference, "Legacy conditional parameters"): still served, as dynalite serves them

	private Call legacy(String operation) {
		Table table = table();
		ObjectNode body = object("TableName", table.name());
		switch (operation) {
			case "GetItem" -> {
				body.set("Key", knownOrNewKey(table));
				body.set("AttributesToGet", attributesToGet(table));
			}
			case "PutItem" -> {
				body.set("Item", item(table));
				expected(body, table);
				if (chance(0.4)) {
					body.put("ReturnValues", "ALL_OLD");
				}
			}
			case "DeleteItem" -> {
				body.set("Key", knownOrNewKey(table));
				expected(body, table);
			}
			case "UpdateItem" -> {
				body.set("Key", knownOrNewKey(table));
				ObjectNode updates = body.putObject("AttributeUpdates");
				Set<String> touched = new LinkedHashSet<>();
				for (int i = 0; i < 1 + this.random.nextInt(3); i++) {
					String attribute = pick(nonKeyAttributes(table));
					if (!touched.add(attribute)) {
						continue;
					}
					String type = typeOf(attribute);
					ObjectNode update = updates.putObject(attribute);
					double pick = this.random.nextDouble();
					if (pick < 0.55) {
						update.put("Action", "PUT");
						update.set("Value", attribute.equals("n") && type.equals("N") ? operand() : value(type, 2));
					}
					else if (pick < 0.7) {
						update.put("Action", "DELETE");
						if (List.of("SS", "NS", "BS").contains(type) && chance(0.5)) {
							update.set("Value", set(type));
						}
					}
					else {
						update.put("Action", "ADD");
						update.set("Value", List.of("SS", "NS").contains(type) ? set(type) : operand());
					}
				}
				expected(body, table);
				if (chance(0.5)) {
					body.put("ReturnValues", pick(List.of("ALL_OLD", "UPDATED_OLD", "ALL_NEW", "UPDATED_NEW")));
				}
			}
			case "Query" -> {
				Index index = (!table.indexes().isEmpty() && chance(0.4)) ? pick(table.indexes()) : null;
				Key hash = (index != null) ? index.hash() : table.hash();
				Key range = (index != null) ? index.range() : table.range();
				if (index != null) {
					body.put("IndexName", index.name());
				}
				ObjectNode conditions = body.putObject("KeyConditions");
				JsonNode hashValue = (!table.keys().isEmpty() && hash.name().equals("pk") && chance(0.8))
						? pick(table.keys()).get("pk") : keyValue(hash.type());
				conditions.set(hash.name(), legacyCondition("EQ", List.of(hashValue)));
				if (range != null && chance(0.6)) {
					String operator = pick(range.type().equals("N") ? List.of("EQ", "LT", "LE", "GT", "GE", "BETWEEN")
							: List.of("EQ", "LT", "LE", "GT", "GE", "BETWEEN", "BEGINS_WITH"));
					conditions.set(range.name(), legacyCondition(operator, operator.equals("BETWEEN")
							? ordered(keyValue(range.type()), keyValue(range.type())) : List.of(keyValue(range.type()))));
				}
				if (chance(0.4)) {
					body.set("QueryFilter", filters(table));
					if (chance(0.5)) {
						body.put("ConditionalOperator", pick(List.of("AND", "OR")));
					}
				}
				if (chance(0.5)) {
					body.put("Limit", 1 + this.random.nextInt(5));
				}
				if (chance(0.3)) {
					body.put("ScanIndexForward", chance(0.5));
				}
			}
			default -> {
				body.set("ScanFilter", filters(table));
				if (chance(0.5)) {
					body.put("ConditionalOperator", pick(List.of("AND", "OR")));
				}
				if (chance(0.5)) {
					body.put("Limit", 1 + this.random.nextInt(5));
				}
				if (chance(0.3)) {
					body.set("AttributesToGet", attributesToGet(table));
				}
			}
		}
		capacityMaybe(body);
		return new Call("DynamoDB_20120810." + operation, body, operation + " with legacy parameters");
	}

	private ArrayNode attributesToGet(Table table) {
		ArrayNode names = NODES.arrayNode();
		Set<String> chosen = new LinkedHashSet<>();
		for (int i = 0; i < 1 + this.random.nextInt(3); i++) {
			List<String> attributes = new ArrayList<>(nonKeyAttributes(table));
			attributes.add("pk");
			chosen.add(pick(attributes));
		}
		chosen.forEach(names::add);
		return names;
	}

	/** Expected, with a ConditionalOperator when it names several attributes. */
	private void expected(ObjectNode body, Table table) {
		if (!chance(0.5)) {
			return;
		}
		ObjectNode expected = body.putObject("Expected");
		int count = 1 + this.random.nextInt(2);
		for (int i = 0; i < count; i++) {
			String attribute = pick(nonKeyAttributes(table));
			double pick = this.random.nextDouble();
			if (pick < 0.25) {
				expected.putObject(attribute).put("Exists", false);
			}
			else if (pick < 0.4) {
				String type = typeOf(attribute);
				expected.putObject(attribute).set("Value", value(type.equals("BOOL") ? "TRUE" : type, 1));
			}
			else {
				expected.set(attribute, legacyFilter(attribute));
			}
		}
		if (expected.size() > 1 && chance(0.6)) {
			// AND only: dynalite stops at the first false condition under OR, and the two would hold other items.
			body.put("ConditionalOperator", "AND");
		}
	}

	private ObjectNode filters(Table table) {
		ObjectNode filters = NODES.objectNode();
		for (int i = 0; i < 1 + this.random.nextInt(2); i++) {
			String attribute = pick(nonKeyAttributes(table));
			filters.set(attribute, legacyFilter(attribute));
		}
		return filters;
	}

	/** A condition on one attribute with a comparison operator and values it takes. */
	private ObjectNode legacyFilter(String attribute) {
		String type = typeOf(attribute);
		String scalar = List.of("S", "N", "B").contains(type) ? type : "S";
		String operator = pick(List.of("EQ", "NE", "LT", "LE", "GT", "GE", "NOT_NULL", "NULL", "CONTAINS", "NOT_CONTAINS",
				"BEGINS_WITH", "IN", "BETWEEN"));
		List<JsonNode> values = switch (operator) {
			case "NOT_NULL", "NULL" -> List.of();
			case "BETWEEN" -> ordered(value(scalar, 0), value(scalar, 0));
			case "IN" -> List.of(value(scalar, 0), value(scalar, 0));
			case "BEGINS_WITH" -> List.of(value(scalar.equals("N") ? "S" : scalar, 0));
			case "EQ", "NE" -> List.of(value(type.equals("BOOL") ? "TRUE" : type, 1));
			default -> List.of(value(scalar, 0));
		};
		return legacyCondition(operator, values);
	}

	private static ObjectNode legacyCondition(String operator, List<JsonNode> values) {
		ObjectNode condition = NODES.objectNode();
		condition.put("ComparisonOperator", operator);
		if (!values.isEmpty()) {
			ArrayNode list = condition.putArray("AttributeValueList");
			values.forEach(list::add);
		}
		return condition;
	}

	// Batches

	private Call batchWrite() {
		Table table = table();
		ArrayNode requests = NODES.arrayNode();
		Set<String> seen = new LinkedHashSet<>();
		int count = 1 + this.random.nextInt(6);
		for (int i = 0; i < count; i++) {
			ObjectNode request = NODES.objectNode();
			if (chance(0.7)) {
				ObjectNode item = item(table);
				if (!seen.add(keyOf(table, item).toString())) {
					continue;
				}
				request.putObject("PutRequest").set("Item", item);
			}
			else {
				ObjectNode key = knownOrNewKey(table);
				if (!seen.add(key.toString())) {
					continue;
				}
				request.putObject("DeleteRequest").set("Key", key);
			}
			requests.add(request);
		}
		ObjectNode body = NODES.objectNode();
		body.putObject("RequestItems").set(table.name(), requests);
		capacityMaybe(body);
		return new Call("DynamoDB_20120810.BatchWriteItem", body, "BatchWriteItem");
	}

	private Call batchGet() {
		Table table = table();
		ArrayNode keys = NODES.arrayNode();
		Set<String> seen = new LinkedHashSet<>();
		int count = 1 + this.random.nextInt(5);
		for (int i = 0; i < count; i++) {
			ObjectNode key = knownOrNewKey(table);
			if (seen.add(key.toString())) {
				keys.add(key);
			}
		}
		ObjectNode body = NODES.objectNode();
		ObjectNode request = body.putObject("RequestItems").putObject(table.name());
		request.set("Keys", keys);
		if (chance(0.3)) {
			Expression names = new Expression();
			request.put("ProjectionExpression", projection(table, names));
			names.into(request);
		}
		capacityMaybe(body);
		return new Call("DynamoDB_20120810.BatchGetItem", body, "BatchGetItem");
	}

	// Spoiled calls: each a refusal DynamoDB documents

	private Call spoil(Call call) {
		ObjectNode body = call.body().deepCopy();
		List<Supplier<String>> ways = new ArrayList<>();
		ways.add(() -> {
			body.remove("TableName");
			return "no TableName";
		});
		ways.add(() -> {
			body.put("TableName", "missing" + this.random.nextInt(3));
			return "a table that does not exist";
		});
		ways.add(() -> {
			body.put("TableName", "a");
			return "a table name too short";
		});
		ways.add(() -> {
			body.put("TableName", "bad name!");
			return "a table name of forbidden characters";
		});
		if (body.has("Key")) {
			ways.add(() -> {
				ObjectNode key = (ObjectNode) body.get("Key");
				String first = key.propertyNames().iterator().next();
				key.remove(first);
				return "a key without " + first;
			});
			ways.add(() -> {
				((ObjectNode) body.get("Key")).set("extra", NODES.objectNode().put("S", "x"));
				return "a key with an attribute of no key";
			});
			ways.add(() -> {
				ObjectNode key = (ObjectNode) body.get("Key");
				String first = key.propertyNames().iterator().next();
				key.set(first, NODES.objectNode().put("BOOL", true));
				return "a key of the wrong type";
			});
			ways.add(() -> {
				ObjectNode key = (ObjectNode) body.get("Key");
				String first = key.propertyNames().iterator().next();
				key.set(first, NODES.objectNode().put("S", ""));
				return "an empty key value";
			});
		}
		if (body.has("Item")) {
			ways.add(() -> {
				((ObjectNode) body.get("Item")).set("bad", NODES.objectNode().put("N", pick(List.of("abc", "1e200",
						"1e-200", "123456789012345678901234567890123456789", "", "--1", " 1"))));
				return "an item with a number DynamoDB cannot hold";
			});
			ways.add(() -> {
				((ObjectNode) body.get("Item")).set("bad", pick(List.of(NODES.objectNode().set("SS", NODES.arrayNode().add("a").add("a")),
						NODES.objectNode().set("NS", NODES.arrayNode()), NODES.objectNode().put("NULL", false),
						NODES.objectNode().put("S", "a").put("N", "1"), NODES.objectNode())));
				return "an item with an attribute value DynamoDB refuses";
			});
			ways.add(() -> {
				((ObjectNode) body.get("Item")).remove("pk");
				return "an item without its partition key";
			});
		}
		for (String expression : List.of("ConditionExpression", "UpdateExpression", "KeyConditionExpression",
				"FilterExpression", "ProjectionExpression")) {
			if (body.has(expression)) {
				ways.add(() -> {
					String text = body.get(expression).asString();
					body.put(expression, pick(List.of(text + " )", "(" + text, text.replace("=", "= ="), text + " AND",
							text.replace("#", ""), text + " foo", "nofunction(#x)", "", " ")));
					return "a broken " + expression;
				});
			}
		}
		ways.add(() -> {
			ObjectNode values = body.has("ExpressionAttributeValues") ? (ObjectNode) body.get("ExpressionAttributeValues")
					: body.putObject("ExpressionAttributeValues");
			values.set(":unused", NODES.objectNode().put("S", "x"));
			return "an unused expression attribute value";
		});
		ways.add(() -> {
			ObjectNode names = body.has("ExpressionAttributeNames") ? (ObjectNode) body.get("ExpressionAttributeNames")
					: body.putObject("ExpressionAttributeNames");
			names.put("#unused", "x");
			return "an unused expression attribute name";
		});
		if (body.has("ExpressionAttributeNames") && !body.get("ExpressionAttributeNames").isEmpty()) {
			ways.add(() -> {
				ObjectNode names = (ObjectNode) body.get("ExpressionAttributeNames");
				names.remove(names.propertyNames().iterator().next());
				return "an expression attribute name that is not defined";
			});
		}
		if (call.operation().equals("Query") || call.operation().equals("Scan")) {
			ways.add(() -> {
				body.put("Limit", pick(List.of(0, -1)));
				return "a Limit below 1";
			});
			ways.add(() -> {
				body.put("Select", "COUNT");
				body.put("ProjectionExpression", "a");
				return "Select COUNT with a projection";
			});
			ways.add(() -> {
				body.put("Select", "SPECIFIC_ATTRIBUTES");
				return "SPECIFIC_ATTRIBUTES without attributes";
			});
			ways.add(() -> {
				body.set("ExclusiveStartKey", NODES.objectNode().set("nokey", NODES.objectNode().put("S", "x")));
				return "an ExclusiveStartKey of other attributes";
			});
			ways.add(() -> {
				body.put("Segment", 1);
				return "a Segment without TotalSegments";
			});
		}
		if (call.operation().equals("Query")) {
			ways.add(() -> {
				body.remove("KeyConditionExpression");
				body.remove("ExpressionAttributeNames");
				body.remove("ExpressionAttributeValues");
				body.remove("FilterExpression");
				body.remove("ProjectionExpression");
				return "a Query without a key condition";
			});
			ways.add(() -> {
				body.put("IndexName", "noSuchIndex");
				return "an index that does not exist";
			});
		}
		if (body.has("ReturnValues")) {
			ways.add(() -> {
				body.put("ReturnValues", "EVERYTHING");
				return "a ReturnValues of no kind";
			});
		}
		ways.add(() -> {
			body.put("ReturnConsumedCapacity", "SOME");
			return "a ReturnConsumedCapacity of no kind";
		});
		ways.add(() -> {
			body.put("TableName", 5);
			return "a number where a string belongs";
		});
		String way = pick(ways).get();
		return new Call(call.target(), body, call.operation() + " refused: " + way);
	}

	// Expressions

	/** The placeholders of one request's expressions, and what they stand for. */
	private final class Expression {

		private final Map<String, String> names = new LinkedHashMap<>();

		private final Map<String, JsonNode> values = new LinkedHashMap<>();

		/** A path element for {@code attribute}: mostly a placeholder, the bare name where DynamoDB allows it. */
		String name(String attribute) {
			if (!RESERVED.contains(attribute) && attribute.matches("[a-z]+") && chance(0.3)) {
				return attribute;
			}
			for (Map.Entry<String, String> entry : this.names.entrySet()) {
				if (entry.getValue().equals(attribute)) {
					return entry.getKey();
				}
			}
			String placeholder = "#n" + this.names.size();
			this.names.put(placeholder, attribute);
			return placeholder;
		}

		String value(JsonNode value) {
			String placeholder = ":v" + this.values.size();
			this.values.put(placeholder, value);
			return placeholder;
		}

		void into(ObjectNode body) {
			if (!this.names.isEmpty()) {
				ObjectNode names = body.putObject("ExpressionAttributeNames");
				this.names.forEach(names::put);
			}
			if (!this.values.isEmpty()) {
				ObjectNode values = body.putObject("ExpressionAttributeValues");
				this.values.forEach(values::set);
			}
		}

	}

	private void conditionMaybe(ObjectNode body, Table table, String parameter) {
		if (chance(0.35)) {
			Expression names = new Expression();
			body.put(parameter, condition(table, names, 2));
			names.into(body);
		}
	}

	private String condition(Table table, Expression names, int depth) {
		double pick = this.random.nextDouble();
		if (depth > 0 && pick < 0.2) {
			return "(" + condition(table, names, depth - 1) + (chance(0.5) ? " AND " : " OR ") + condition(table, names, depth - 1) + ")";
		}
		if (depth > 0 && pick < 0.25) {
			// NOT NOT c is a condition in DynamoDB's grammar, not in dynalite's: a write that one side refuses would
			// leave the two with other items, so a NOT under a NOT is put in parentheses.
			String negated = condition(table, names, depth - 1);
			return negated.startsWith("NOT ") ? "NOT (" + negated + ")" : "NOT " + negated;
		}
		List<String> attributes = new ArrayList<>(nonKeyAttributes(table));
		if (chance(0.1)) {
			attributes.addAll(keyParts(table).stream().map(Key::name).toList());
		}
		String attribute = pick(attributes);
		String path = names.name(attribute);
		String type = typeOf(attribute);
		double kind = this.random.nextDouble();
		if (kind < 0.15) {
			return (chance(0.5) ? "attribute_exists(" : "attribute_not_exists(") + path + ")";
		}
		// A condition's values: no false (dynalite matches no false in IN and its kin; writes on it would leave the
		// two with other items).
		String operandType = type.equals("BOOL") ? "TRUE" : type;
		if (kind < 0.3) {
			return path + " " + pick(List.of("=", "<>")) + " " + names.value(value(operandType, 1));
		}
		if (kind < 0.45) {
			// An ordering needs a string, number or binary value: DynamoDB refuses another (dynalite does not).
			String scalar = List.of("S", "N", "B").contains(type) ? type : "N";
			return path + " " + pick(List.of("<", "<=", ">", ">=")) + " " + names.value(value(scalar, 1));
		}
		if (kind < 0.55) {
			String scalar = List.of("S", "N", "B").contains(type) ? type : "N";
			List<JsonNode> bounds = ordered(value(scalar, 0), value(scalar, 0));
			return path + " BETWEEN " + names.value(bounds.get(0)) + " AND " + names.value(bounds.get(1));
		}
		if (kind < 0.62) {
			return path + " IN (" + names.value(value(operandType, 0)) + ", " + names.value(value(operandType, 0)) + ")";
		}
		if (kind < 0.72) {
			return "begins_with(" + path + ", " + names.value(value(chance(0.8) ? "S" : "B", 0)) + ")";
		}
		if (kind < 0.82) {
			return "contains(" + path + ", " + names.value(value(pick(List.of("S", "N")), 0)) + ")";
		}
		if (kind < 0.92) {
			return "size(" + path + ") " + pick(List.of("=", "<", ">=")) + " " + names.value(NODES.objectNode().put("N",
					Integer.toString(this.random.nextInt(4))));
		}
		return "attribute_type(" + path + ", " + names.value(NODES.objectNode().put("S",
				pick(List.of("S", "N", "B", "SS", "NS", "BS", "L", "M", "BOOL", "NULL")))) + ")";
	}

	private String projection(Table table, Expression names) {
		List<String> paths = new ArrayList<>();
		int count = 1 + this.random.nextInt(3);
		List<String> attributes = new ArrayList<>(nonKeyAttributes(table));
		attributes.add("pk");
		for (int i = 0; i < count; i++) {
			String attribute = pick(attributes);
			String path = names.name(attribute);
			if (attribute.equals("l") && chance(0.4)) {
				path += "[" + this.random.nextInt(3) + "]";
			}
			else if (attribute.equals("m") && chance(0.4)) {
				path += "." + names.name(pick(List.of("x", "y")));
			}
			if (!paths.contains(path)) {
				paths.add(path);
			}
		}
		return String.join(", ", paths);
	}

	private void projectionMaybe(ObjectNode body, Table table) {
		if (chance(0.3)) {
			Expression names = new Expression();
			body.put("ProjectionExpression", projection(table, names));
			names.into(body);
		}
	}

	private void capacityMaybe(ObjectNode body) {
		if (chance(0.3)) {
			body.put("ReturnConsumedCapacity", pick(List.of("TOTAL", "INDEXES", "NONE")));
		}
	}

	/**
	 * Two scalars of one type in DynamoDB's order (most of the time: a BETWEEN whose bounds are the wrong way round
	 * is a refusal worth comparing too, now and then).
	 */
	private List<JsonNode> ordered(JsonNode one, JsonNode other) {
		String type = one.propertyNames().iterator().next();
		String a = one.get(type).asString();
		String b = other.get(type).asString();
		int order = switch (type) {
			case "N" -> new java.math.BigDecimal(a).compareTo(new java.math.BigDecimal(b));
			case "B" -> java.util.Arrays.compareUnsigned(Base64.getDecoder().decode(a), Base64.getDecoder().decode(b));
			default -> compareCodePoints(a, b);
		};
		return (order <= 0 || chance(0.1)) ? List.of(one, other) : List.of(other, one);
	}

	private static int compareCodePoints(String a, String b) {
		int[] x = a.codePoints().toArray();
		int[] y = b.codePoints().toArray();
		return java.util.Arrays.compare(x, y);
	}

	// Values

	private ObjectNode item(Table table) {
		ObjectNode item = NODES.objectNode();
		ObjectNode key = (chance(0.4) && !table.keys().isEmpty()) ? pick(table.keys()) : newKey(table);
		item.setAll(key);
		for (Index index : table.indexes()) {
			for (Key part : (index.range() != null) ? List.of(index.hash(), index.range()) : List.of(index.hash())) {
				if (!item.has(part.name()) && chance(0.8)) {
					item.set(part.name(), keyValue(part.type()));
				}
			}
		}
		for (String attribute : nonKeyAttributes(table)) {
			if (!item.has(attribute) && chance(0.45)) {
				// The counter holds what arithmetic on it keeps within 38 digits.
				String type = typeOf(attribute);
				item.set(attribute, (attribute.equals("n") && type.equals("N")) ? operand() : value(type, 2));
			}
		}
		if (chance(0.03)) {
			// Large items: pages that end at 1 MB, items near 400 KB, and sizes counted by DynamoDB's rules.
			item.set("big", NODES.objectNode().put("S", "x".repeat(50_000 + this.random.nextInt(360_000))));
		}
		return item;
	}

	private ObjectNode knownOrNewKey(Table table) {
		return (!table.keys().isEmpty() && chance(0.7)) ? pick(table.keys()).deepCopy() : newKey(table);
	}

	private ObjectNode newKey(Table table) {
		ObjectNode key = NODES.objectNode();
		for (Key part : keyParts(table)) {
			key.set(part.name(), keyValue(part.type()));
		}
		return key;
	}

	private static List<Key> keyParts(Table table) {
		return (table.range() != null) ? List.of(table.hash(), table.range()) : List.of(table.hash());
	}

	private List<String> nonKeyAttributes(Table table) {
		List<String> attributes = new ArrayList<>(PLAIN);
		if (chance(0.1)) {
			attributes.add(pick(RESERVED));
		}
		attributes.removeIf((attribute) -> keyParts(table).stream().anyMatch((key) -> key.name().equals(attribute)));
		return attributes;
	}

	/** The type an attribute mostly holds; {@code a} and reserved words hold any. */
	private String typeOf(String attribute) {
		return switch (attribute) {
			case "n", "count" -> chance(0.9) ? "N" : "S";
			case "s", "name", "status" -> chance(0.9) ? "S" : "N";
			case "ss" -> "SS";
			case "ns" -> "NS";
			case "bs" -> "BS";
			case "l" -> "L";
			case "m" -> "M";
			case "flag" -> chance(0.8) ? "BOOL" : "NULL";
			case "b" -> "B";
			case "gpk", "gsk", "lsk", "pk", "sk" -> pick(List.of("S", "N", "B"));
			default -> pick(List.of("S", "N", "B", "BOOL", "NULL", "SS", "NS", "L", "M"));
		};
	}

	/** A key value: from small pools, so that keys meet and sort keys tie and interleave. */
	private JsonNode keyValue(String type) {
		return switch (type) {
			case "S" -> NODES.objectNode().put("S", pick(STRINGS.subList(0, 12)).replace("\u0000", ""));
			case "N" -> NODES.objectNode().put("N", pick(NUMBERS.subList(0, 12)));
			default -> NODES.objectNode().put("B", Base64.getEncoder().encodeToString(bytes(1)));
		};
	}

	private JsonNode value(String type, int depth) {
		return switch (type) {
			case "S" -> NODES.objectNode().put("S", pick(STRINGS));
			case "N" -> number();
			// Never empty: dynalite gives an empty binary no size(), DynamoDB a size of 0 (the engine's unit tests hold
			// that), and a condition on it would leave the two with different items.
			case "B" -> NODES.objectNode().put("B", Base64.getEncoder().encodeToString(bytes(1)));
			case "BOOL" -> NODES.objectNode().put("BOOL", chance(0.5));
			case "TRUE" -> NODES.objectNode().put("BOOL", true);
			case "NULL" -> NODES.objectNode().put("NULL", true);
			case "SS", "NS", "BS" -> set(type);
			case "L" -> list(depth);
			case "M" -> map(depth);
			default -> throw new IllegalArgumentException(type);
		};
	}

	private JsonNode number() {
		return NODES.objectNode().put("N", pick(NUMBERS));
	}

	/**
	 * A number for arithmetic: none of 38 digits, whose sums pass DynamoDB's precision (DynamoDB refuses them;
	 * dynalite stores 39 digits, and the two would hold different items from then on).
	 */
	private JsonNode operand() {
		return NODES.objectNode().put("N", pick(NUMBERS.stream().filter((number) -> number.length() < 20).toList()));
	}

	private JsonNode set(String type) {
		ObjectNode set = NODES.objectNode();
		ArrayNode members = set.putArray(type);
		Set<String> seen = new LinkedHashSet<>();
		int count = 1 + this.random.nextInt(3);
		for (int i = 0; i < count; i++) {
			String member = switch (type) {
				case "SS" -> pick(STRINGS.subList(0, 8));
				case "NS" -> pick(List.of("1", "2", "3", "-1", "0.5", "10"));
				default -> Base64.getEncoder().encodeToString(bytes(1));
			};
			if (seen.add(member)) {
				members.add(member);
			}
		}
		return set;
	}

	private JsonNode list(int depth) {
		ObjectNode list = NODES.objectNode();
		ArrayNode members = list.putArray("L");
		int count = this.random.nextInt(4);
		for (int i = 0; i < count; i++) {
			members.add(value((depth > 0) ? pick(List.of("S", "N", "M", "L", "BOOL")) : pick(List.of("S", "N")), depth - 1));
		}
		return list;
	}

	private JsonNode map(int depth) {
		ObjectNode map = NODES.objectNode();
		ObjectNode members = map.putObject("M");
		for (String name : List.of("x", "y", "name")) {
			if (chance(0.6)) {
				members.set(name, value((depth > 0) ? pick(List.of("S", "N", "M", "L")) : "N", depth - 1));
			}
		}
		return map;
	}

	private byte[] bytes(int least) {
		byte[] bytes = new byte[least + this.random.nextInt(3)];
		for (int i = 0; i < bytes.length; i++) {
			bytes[i] = (byte) (int) pick(List.of(0, 1, 2, 127, 128, 255));
		}
		return bytes;
	}

	// Randomness

	private Table table() {
		return pick(this.tables);
	}

	private boolean chance(double probability) {
		return this.random.nextDouble() < probability;
	}

	private <T> T pick(List<T> choices) {
		return choices.get(this.random.nextInt(choices.size()));
	}

	private static ObjectNode object(String name, String value) {
		return NODES.objectNode().put(name, value);
	}

}
