package dev.dynamorelay.command.schemagen;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * Finds the kinds of items of a single-table design in a sample: items whose string keys start with
 * entity prefixes ({@code CUSTOMER#c1}, {@code ORDER#2025-01-01}) are grouped by the partition key's
 * prefix and the sort key's prefix or constant value ({@code PROFILE}).
 */
final class EntityGroups {

	/** Constant sort-key values one partition prefix may have; more look like data, not kinds of items. */
	static final int MAX_CONSTANTS = 3;

	/** The text in front of an entity prefix's {@code #}. */
	private static final Pattern PREFIX_TEXT = Pattern.compile("[A-Za-z][A-Za-z0-9_.-]*");

	/** A constant sort-key value such as {@code PROFILE} or {@code METADATA}. */
	private static final Pattern CONSTANT = Pattern.compile("[A-Za-z][A-Za-z0-9_.:-]*");

	/** Key attribute names that say nothing of the item: {@code PK}, {@code SK}, {@code GSI1PK}... */
	private static final Pattern GENERIC_KEY = Pattern
		.compile("((g|l)si\\d*)?(pk|sk|hk|rk|partitionkey|sortkey|hashkey|rangekey)\\d*");

	private EntityGroups() {
	}

	/**
	 * The kinds of items of the sample, sorted by their key templates; empty unless every sampled item's
	 * partition key is a string with an entity prefix, every string sort key has a prefix or one of a few
	 * constant values, and there are at least two kinds or the keys have generic names ({@code PK}).
	 */
	static Optional<List<EntityGroup>> find(TableKeys keys, List<Map<String, AttributeValue>> items) {
		if (keys.type(keys.partitionKey()) != ScalarAttributeType.S || items.isEmpty()) {
			return Optional.empty();
		}
		Map<List<KeyTemplate>, List<Map<String, AttributeValue>>> groups = new TreeMap<>(
				Comparator.comparing((List<KeyTemplate> templates) -> templates.get(0), KeyTemplate.ORDER)
					.thenComparing((templates) -> templates.get(1), KeyTemplate.ORDER));
		for (Map<String, AttributeValue> item : items) {
			String partitionPrefix = prefix(item.get(keys.partitionKey()).s());
			if (partitionPrefix == null) {
				return Optional.empty();
			}
			KeyTemplate sort = sortTemplate(keys, item);
			if (sort == null) {
				return Optional.empty();
			}
			groups.computeIfAbsent(List.of(KeyTemplate.prefix(partitionPrefix), sort), (key) -> new ArrayList<>())
				.add(item);
		}
		Map<String, Integer> constants = new HashMap<>();
		for (List<KeyTemplate> templates : groups.keySet()) {
			if (templates.get(1).kind() == KeyTemplate.Kind.CONSTANT
					&& constants.merge(templates.get(0).text(), 1, Integer::sum) > MAX_CONSTANTS) {
				return Optional.empty();
			}
		}
		if (groups.size() < 2 && !isGeneric(keys.partitionKey())
				&& (keys.sortKey() == null || !isGeneric(keys.sortKey()))) {
			return Optional.empty();
		}
		List<EntityGroup> found = new ArrayList<>();
		groups.forEach((templates, members) -> found.add(new EntityGroup(templates.get(0),
				(keys.sortKey() != null) ? templates.get(1) : null, List.copyOf(members))));
		return Optional.of(List.copyOf(found));
	}

	/** The sort key's template in an item; {@link KeyTemplate.Kind#NONE} without a sort key; null when it fits none. */
	private static KeyTemplate sortTemplate(TableKeys keys, Map<String, AttributeValue> item) {
		if (keys.sortKey() == null) {
			return KeyTemplate.NONE;
		}
		if (keys.type(keys.sortKey()) != ScalarAttributeType.S) {
			return KeyTemplate.WHOLE;
		}
		String value = item.get(keys.sortKey()).s();
		String prefix = prefix(value);
		if (prefix != null) {
			return KeyTemplate.prefix(prefix);
		}
		return CONSTANT.matcher(value).matches() ? KeyTemplate.constant(value) : null;
	}

	/** The text up to and including the first {@code #}, when it is an entity prefix ({@code CUSTOMER#}). */
	static String prefix(String value) {
		int hash = value.indexOf('#');
		if (hash <= 0 || !PREFIX_TEXT.matcher(value.substring(0, hash)).matches()) {
			return null;
		}
		return value.substring(0, hash + 1);
	}

	/** Whether a key attribute's name says nothing of its values ({@code PK}, {@code GSI1SK}, {@code sortKey}). */
	static boolean isGeneric(String attribute) {
		String letters = attribute.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
		return GENERIC_KEY.matcher(letters).matches();
	}

	/**
	 * One kind of item.
	 *
	 * @param partitionKey the partition key's template: always an entity prefix
	 * @param sortKey the sort key's template, or null when the table has no sort key
	 * @param items the sampled items of this kind
	 */
	record EntityGroup(KeyTemplate partitionKey, KeyTemplate sortKey, List<Map<String, AttributeValue>> items) {
	}

	/**
	 * The constant part of a key of one kind of item.
	 *
	 * @param kind how the key is made of constant text and a placeholder
	 * @param text the entity prefix or the constant value; empty for the other kinds
	 */
	record KeyTemplate(Kind kind, String text) {

		static final KeyTemplate WHOLE = new KeyTemplate(Kind.WHOLE, "");

		static final KeyTemplate NONE = new KeyTemplate(Kind.NONE, "");

		static final Comparator<KeyTemplate> ORDER = Comparator.comparing(KeyTemplate::kind)
			.thenComparing(KeyTemplate::text);

		static KeyTemplate prefix(String prefix) {
			return new KeyTemplate(Kind.PREFIX, prefix);
		}

		static KeyTemplate constant(String value) {
			return new KeyTemplate(Kind.CONSTANT, value);
		}

		/** How a key is made. */
		enum Kind {

			/** The entity prefix, then a placeholder: {@code CUSTOMER#{customerId}}. */
			PREFIX,

			/** A constant value: {@code PROFILE}. */
			CONSTANT,

			/** The whole value is a placeholder (a number or binary sort key). */
			WHOLE,

			/** The table has no sort key. */
			NONE

		}

	}

}
