package dev.dynamorelay.write;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.model.Filter;

/**
 * The expressions of one write: its update and its condition, with the attribute names and values they
 * share, each named once ({@code #a0}, {@code :v0}, ...), so that no name clashes and none goes unused
 * (DynamoDB refuses both).
 */
final class Expressions {

	private final Map<String, String> names = new LinkedHashMap<>();

	private final Map<String, String> byAttribute = new HashMap<>();

	private final Map<String, AttributeValue> values = new LinkedHashMap<>();

	private final List<String> conditions = new ArrayList<>();

	private final List<String> sets = new ArrayList<>();

	private final List<String> removes = new ArrayList<>();

	private final Map<String, AttributeValue> assigned = new LinkedHashMap<>();

	private final List<String> removed = new ArrayList<>();

	/** The placeholder of an attribute's name. */
	String name(String attribute) {
		return this.byAttribute.computeIfAbsent(attribute, (key) -> {
			String placeholder = "#a" + this.names.size();
			this.names.put(placeholder, key);
			return placeholder;
		});
	}

	/** A new placeholder holding {@code value}. */
	String value(AttributeValue value) {
		String placeholder = ":v" + this.values.size();
		this.values.put(placeholder, value);
		return placeholder;
	}

	/** The item must (not) exist: its key attribute is there (or not). */
	Expressions exists(String keyAttribute, boolean exists) {
		this.conditions.add((exists ? "attribute_exists(" : "attribute_not_exists(") + name(keyAttribute) + ")");
		return this;
	}

	/** The stored attribute compares with a value as {@code filter} says. */
	Expressions condition(Filter filter) {
		String prefix = ":v" + this.values.size() + "_";
		String expression = filter.expression(name(filter.attribute()), prefix);
		for (int i = 0; i < filter.values().size(); i++) {
			this.values.put(prefix + i, filter.values().get(i));
		}
		this.conditions.add(expression);
		return this;
	}

	/**
	 * The stored version is {@code expected}: an item written elsewhere without a version counts as 0.
	 */
	Expressions version(String attribute, long expected) {
		String name = name(attribute);
		String value = value(AttributeValue.fromN(Long.toString(expected)));
		this.conditions.add((expected == 0) ? "(attribute_not_exists(" + name + ") OR " + name + " = " + value + ")"
				: name + " = " + value);
		return this;
	}

	/**
	 * The item belongs to {@code identity} (its owner attribute holds it), or does not exist: a write of an
	 * item the caller owns, or of one that is not there.
	 */
	Expressions ownedOrAbsent(String keyAttribute, String ownerAttribute, String identity) {
		this.conditions.add("(attribute_not_exists(" + name(keyAttribute) + ") OR " + name(ownerAttribute) + " = "
				+ value(AttributeValue.fromS(identity)) + ")");
		return this;
	}

	/** An attribute the stored item must hold as read, or not hold. */
	Expressions unchanged(String attribute, Optional<AttributeValue> read) {
		if (read.isEmpty()) {
			this.conditions.add("attribute_not_exists(" + name(attribute) + ")");
		}
		else {
			this.conditions.add(name(attribute) + " = " + value(read.get()));
		}
		return this;
	}

	/** {@code SET attribute = value}. */
	Expressions set(String attribute, AttributeValue value) {
		this.sets.add(name(attribute) + " = " + value(value));
		this.assigned.put(attribute, value);
		return this;
	}

	/** {@code REMOVE attribute}. */
	Expressions remove(String attribute) {
		this.removes.add(name(attribute));
		this.removed.add(attribute);
		return this;
	}

	/**
	 * Whether {@code item} holds what the update sets and lacks what it removes: it may be the update's own
	 * work (the version it raises aside).
	 */
	boolean madeBy(Map<String, AttributeValue> item) {
		return this.assigned.entrySet().stream().allMatch((set) -> set.getValue().equals(item.get(set.getKey())))
				&& this.removed.stream().noneMatch(item::containsKey);
	}

	/** The version goes up by 1 (from 0 when the item has none). */
	Expressions increment(String attribute) {
		String name = name(attribute);
		this.sets.add(name + " = if_not_exists(" + name + ", " + value(AttributeValue.fromN("0")) + ") + "
				+ value(AttributeValue.fromN("1")));
		return this;
	}

	/** The condition expression, if any condition was added. */
	Optional<String> condition() {
		return this.conditions.isEmpty() ? Optional.empty() : Optional.of(String.join(" AND ", this.conditions));
	}

	/** The update expression, if anything is set or removed. */
	Optional<String> update() {
		StringBuilder update = new StringBuilder();
		if (!this.sets.isEmpty()) {
			update.append("SET ").append(String.join(", ", this.sets));
		}
		if (!this.removes.isEmpty()) {
			update.append(update.isEmpty() ? "" : " ").append("REMOVE ").append(String.join(", ", this.removes));
		}
		return update.isEmpty() ? Optional.empty() : Optional.of(update.toString());
	}

	/** The names, or null when there are none (DynamoDB refuses an empty map). */
	Map<String, String> names() {
		return this.names.isEmpty() ? null : Map.copyOf(this.names);
	}

	/** The values, or null when there are none. */
	Map<String, AttributeValue> values() {
		return this.values.isEmpty() ? null : Map.copyOf(this.values);
	}

}
