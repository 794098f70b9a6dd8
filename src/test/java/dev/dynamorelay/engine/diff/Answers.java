package dev.dynamorelay.engine.diff;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Two answers to one call compared member by member: the HTTP status, an error's {@code __type} and message, and
 * every member of a success, with what no two DynamoDBs can share taken out first (creation times, table ids,
 * stream labels, the approximate item counts and sizes DynamoDB refreshes every six hours) and the members of sets
 * sorted (a set has no order). Items, their order, LastEvaluatedKey, Count, ScannedCount, ConsumedCapacity and
 * returned attributes are compared as they are.
 */
final class Answers {

	/** Members that differ between any two DynamoDBs, by name, wherever they appear. */
	private static final Set<String> UNSHARED = Set.of("CreationDateTime", "TableId", "LatestStreamArn",
			"LatestStreamLabel", "LastIncreaseDateTime", "LastDecreaseDateTime", "LastUpdateToPayPerRequestDateTime",
			"NumberOfDecreasesToday");

	/** Members DynamoDB documents as approximate ("updated approximately every six hours"): present, not equal. */
	private static final Set<String> APPROXIMATE = Set.of("ItemCount", "TableSizeBytes", "IndexSizeBytes");

	private static final Set<String> SETS = Set.of("SS", "NS", "BS");

	private Answers() {
	}

	/** One difference: where it is, and each side's value there. */
	record Difference(String path, String reference, String engine) {

		@Override
		public String toString() {
			return this.path + ": dynalite " + this.reference + ", engine " + this.engine;
		}

	}

	static List<Difference> compare(RawDynamoDb.Answer reference, RawDynamoDb.Answer engine) {
		List<Difference> differences = new ArrayList<>();
		if (reference.status() != engine.status()) {
			differences.add(new Difference("status", Integer.toString(reference.status()), Integer.toString(engine.status())));
		}
		if (reference.body() == null || engine.body() == null) {
			if (!reference.text().equals(engine.text())) {
				differences.add(new Difference("body", reference.text(), engine.text()));
			}
			return differences;
		}
		if (reference.type() != null || engine.type() != null) {
			same(differences, "__type", reference.type(), engine.type());
			same(differences, "message", reference.message(), engine.message());
			// Members beside the message: a failed condition's Item, a cancelled transaction's reasons.
			compare(differences, "", strip(reference.body(), Set.of("__type", "message", "Message")),
					strip(engine.body(), Set.of("__type", "message", "Message")));
			return differences;
		}
		compare(differences, "", unordered(normal(reference.body())), unordered(normal(engine.body())));
		return differences;
	}

	/**
	 * BatchGetItem's items of each table in one order: DynamoDB returns them in no particular order (API Reference,
	 * BatchGetItem: "the order of the returned items is not necessarily the same as the order in which they were
	 * requested" is the SDK's wording of it).
	 */
	private static JsonNode unordered(JsonNode body) {
		JsonNode responses = body.get("Responses");
		if (responses == null || !responses.isObject()) {
			return body;
		}
		ObjectNode sorted = JsonNodeFactory.instance.objectNode();
		for (String table : responses.propertyNames()) {
			List<JsonNode> items = new ArrayList<>();
			responses.get(table).forEach(items::add);
			items.sort(Comparator.comparing(JsonNode::toString));
			ArrayNode array = sorted.putArray(table);
			items.forEach(array::add);
		}
		ObjectNode copy = ((ObjectNode) body).deepCopy();
		copy.set("Responses", sorted);
		return copy;
	}

	private static void same(List<Difference> differences, String path, String reference, String engine) {
		if ((reference == null) ? engine != null : !reference.equals(engine)) {
			differences.add(new Difference(path, String.valueOf(reference), String.valueOf(engine)));
		}
	}

	private static void compare(List<Difference> differences, String path, JsonNode reference, JsonNode engine) {
		if (reference.isObject() && engine.isObject()) {
			TreeMap<String, Boolean> names = new TreeMap<>();
			reference.propertyNames().forEach((name) -> names.put(name, true));
			engine.propertyNames().forEach((name) -> names.put(name, true));
			for (String name : names.keySet()) {
				String at = path.isEmpty() ? name : path + "." + name;
				JsonNode one = reference.get(name);
				JsonNode other = engine.get(name);
				if (one == null || other == null) {
					differences.add(new Difference(at, String.valueOf(one), String.valueOf(other)));
				}
				else if (APPROXIMATE.contains(name)) {
					if (!one.isNumber() || !other.isNumber()) {
						differences.add(new Difference(at, one.toString(), other.toString()));
					}
				}
				else {
					compare(differences, at, one, other);
				}
			}
			return;
		}
		if (reference.isArray() && engine.isArray() && reference.size() == engine.size()) {
			for (int i = 0; i < reference.size(); i++) {
				compare(differences, path + "[" + i + "]", reference.get(i), engine.get(i));
			}
			return;
		}
		if (reference.isNumber() && engine.isNumber()) {
			// JSON numbers by value: DynamoDB writes capacity units as 1.0, dynalite as 1; the SDKs read both alike.
			if (reference.decimalValue().compareTo(engine.decimalValue()) != 0) {
				differences.add(new Difference(path, reference.toString(), engine.toString()));
			}
			return;
		}
		if (!reference.equals(engine)) {
			differences.add(new Difference(path, reference.toString(), engine.toString()));
		}
	}

	/** The answer without its unshared members, with the members of every set sorted. */
	private static JsonNode normal(JsonNode node) {
		if (node.isObject()) {
			ObjectNode copy = JsonNodeFactory.instance.objectNode();
			for (String name : node.propertyNames()) {
				if (UNSHARED.contains(name)) {
					continue;
				}
				JsonNode value = node.get(name);
				if (SETS.contains(name) && value.isArray() && node.size() == 1) {
					List<JsonNode> members = new ArrayList<>();
					value.forEach(members::add);
					members.sort(Comparator.comparing(JsonNode::asString));
					ArrayNode sorted = copy.putArray(name);
					members.forEach(sorted::add);
				}
				else {
					copy.set(name, normal(value));
				}
			}
			return copy;
		}
		if (node.isArray()) {
			ArrayNode copy = JsonNodeFactory.instance.arrayNode();
			node.forEach((member) -> copy.add(normal(member)));
			return copy;
		}
		return node;
	}

	private static JsonNode strip(JsonNode body, Set<String> names) {
		ObjectNode copy = ((ObjectNode) body).deepCopy();
		names.forEach(copy::remove);
		return normal(copy);
	}

}
