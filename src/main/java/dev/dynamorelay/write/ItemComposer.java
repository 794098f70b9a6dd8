package dev.dynamorelay.write;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.error.InvalidArgumentException;
import dev.dynamorelay.model.Entity.AttributeField;
import dev.dynamorelay.model.Entity;
import dev.dynamorelay.model.KeyAttribute;
import dev.dynamorelay.model.KeyTemplate;
import dev.dynamorelay.model.KeyValue;
import dev.dynamorelay.model.Table;
import dev.dynamorelay.model.ValueType;

/**
 * Composes what a write stores for an item of a declared type: each field's attribute, the table key from
 * the type's key templates, the type attribute, and the key attributes of the secondary indexes the type's
 * {@code @indexKey} templates fill; and checks it against DynamoDB's rules before anything is sent.
 */
final class ItemComposer {

	/** DynamoDB's limit on an item's size. */
	static final int MAX_ITEM_BYTES = 400 * 1024;

	private ItemComposer() {
	}

	/**
	 * The whole item of {@code entity} holding {@code values} (stored values by field name).
	 * @param where how the client names the values' input (e.g. {@code input}, {@code input[2]})
	 * @throws InvalidArgumentException when a key part is missing or cannot be a key, or the item is too large
	 */
	static Map<String, AttributeValue> item(Entity entity, Map<String, AttributeValue> values, String where) {
		Map<String, AttributeValue> item = new LinkedHashMap<>();
		values.forEach((name, value) -> item.put(entity.fields().get(name).attribute(), value));
		item.putAll(key(entity, values, where));
		entity.typeAttributeValue().ifPresent((type) -> item.put(entity.table().typeAttribute().get(), type));
		indexKeys(entity, values, where).forEach((attribute, value) -> value.ifPresent((given) -> item.put(attribute, given)));
		checkKeys(entity, item, where);
		checkSize(item, where);
		return item;
	}

	/** The table key of the item of {@code entity} holding {@code values}. */
	static Map<String, AttributeValue> key(Entity entity, Map<String, AttributeValue> values, String where) {
		Table table = entity.table();
		Map<String, AttributeValue> key = new LinkedHashMap<>();
		key.put(table.partitionKey().name(), required(entity, entity.partition(), table.partitionKey(), values, where,
				KeyValue.MAX_PARTITION_KEY_BYTES));
		entity.sort().ifPresent((sort) -> key.put(table.sortKey().orElseThrow().name(),
				required(entity, sort, table.sortKey().orElseThrow(), values, where, KeyValue.MAX_SORT_KEY_BYTES)));
		return key;
	}

	/**
	 * The index key attributes the type's {@code @indexKey} templates fill, each with its value; an index the
	 * item does not belong in ({@code when} does not hold) or whose templates cannot all be filled (a
	 * placeholder without a value) has all of them empty, so that the item is left out of it whole.
	 */
	static Map<String, Optional<AttributeValue>> indexKeys(Entity entity, Map<String, AttributeValue> values,
			String where) {
		Map<String, Optional<AttributeValue>> keys = new LinkedHashMap<>();
		for (Entity.IndexKey indexKey : entity.indexKeys().values()) {
			keys.putAll(indexKey(entity, indexKey, values, where));
		}
		return keys;
	}

	/** The key attributes of one index, as {@link #indexKeys} composes them. */
	private static Map<String, Optional<AttributeValue>> indexKey(Entity entity, Entity.IndexKey indexKey,
			Map<String, AttributeValue> values, String where) {
		Table.Index index = indexKey.index();
		// An item outside the index has no key of it to check: a shipped order's values need not fit the open ones' key.
		boolean belongs = indexKey.belongs(values::get);
		Map<String, Optional<AttributeValue>> ofIndex = new LinkedHashMap<>();
		indexKey.partition().ifPresent((template) -> ofIndex.put(index.partitionKey().name(), belongs
				? compose(entity, template, index.partitionKey(), values, where, KeyValue.MAX_PARTITION_KEY_BYTES)
				: Optional.empty()));
		indexKey.sort().ifPresent((template) -> ofIndex.put(index.sortKey().orElseThrow().name(), belongs
				? compose(entity, template, index.sortKey().orElseThrow(), values, where, KeyValue.MAX_SORT_KEY_BYTES)
				: Optional.empty()));
		boolean whole = ofIndex.values().stream().allMatch(Optional::isPresent);
		Map<String, Optional<AttributeValue>> keys = new LinkedHashMap<>();
		ofIndex.forEach((attribute, value) -> keys.put(attribute, whole ? value : Optional.empty()));
		return keys;
	}

	/** The templates that fill index keys, with the attribute each fills. */
	static Map<String, KeyTemplate> indexTemplates(Entity entity) {
		Map<String, KeyTemplate> templates = new LinkedHashMap<>();
		for (Entity.IndexKey indexKey : entity.indexKeys().values()) {
			indexKey.partition().ifPresent((template) -> templates.put(indexKey.index().partitionKey().name(), template));
			indexKey.sort().ifPresent((template) -> templates.put(indexKey.index().sortKey().orElseThrow().name(), template));
		}
		return templates;
	}

	private static AttributeValue required(Entity entity, KeyTemplate template, KeyAttribute attribute,
			Map<String, AttributeValue> values, String where, int maxBytes) {
		return compose(entity, template, attribute, values, where, maxBytes).orElseThrow(() -> {
			List<String> missing = template.placeholders().stream().filter((name) -> values.get(name) == null).toList();
			return new InvalidArgumentException("`%s.%s` is needed: it is a part of the key of %s `%s`.".formatted(where,
					missing.get(0), entity.name(), template));
		});
	}

	/**
	 * A key template filled with {@code values}: a single placeholder is the value itself (as the key's type),
	 * a composed template the text of each value; empty when a value is missing.
	 * @throws InvalidArgumentException for a value that is empty, holds the template's separator, or makes
	 * the key too long
	 */
	static Optional<AttributeValue> compose(Entity entity, KeyTemplate template, KeyAttribute attribute,
			Map<String, AttributeValue> values, String where, int maxBytes) {
		if (template.isPlaceholder()) {
			String name = template.placeholders().get(0);
			AttributeValue value = values.get(name);
			if (value == null) {
				return Optional.empty();
			}
			return Optional.of(ValueType.checkKey(where + "." + name, retype(value, attribute), maxBytes));
		}
		List<String> missing = new ArrayList<>();
		String key = template.fill((name) -> {
			AttributeValue value = values.get(name);
			AttributeField field = entity.fields().get(name);
			String text = (value != null && field != null) ? field.type().keyText(value) : null;
			if (text == null) {
				missing.add(name);
				return "";
			}
			if (text.isEmpty()) {
				throw new InvalidArgumentException("`%s.%s` must not be empty: it is a part of the key `%s`."
					.formatted(where, name, template));
			}
			template.refusal(name, text).ifPresent((refusal) -> {
				throw new InvalidArgumentException("`%s.%s` %s".formatted(where, name, refusal));
			});
			return text;
		});
		if (!missing.isEmpty()) {
			return Optional.empty();
		}
		return Optional.of(ValueType.checkKey(where + " (key " + attribute.name() + ")", AttributeValue.fromS(key),
				maxBytes));
	}

	/** A field's value as a key attribute's type (a number kept as text in an S key, or the other way). */
	private static AttributeValue retype(AttributeValue value, KeyAttribute attribute) {
		return switch (attribute.type()) {
			case N -> (value.n() == null && value.s() != null) ? AttributeValue.fromN(value.s()) : value;
			case S -> (value.s() == null && value.n() != null) ? AttributeValue.fromS(value.n()) : value;
			default -> value;
		};
	}

	/**
	 * Refuses an item whose index key attributes DynamoDB would refuse: empty strings or bytes in a key of the
	 * table's indexes.
	 */
	static void checkKeys(Entity entity, Map<String, AttributeValue> item, String where) {
		for (Table.Index index : entity.table().indexes().values()) {
			List<KeyAttribute> keys = new ArrayList<>(List.of(index.partitionKey()));
			index.sortKey().ifPresent(keys::add);
			for (KeyAttribute key : keys) {
				AttributeValue value = item.get(key.name());
				boolean empty = value != null && ((value.s() != null && value.s().isEmpty())
						|| (value.b() != null && value.b().asByteArrayUnsafe().length == 0));
				if (empty) {
					String field = entity.fieldOf(key.name()).map(AttributeField::name).orElse(key.name());
					throw new InvalidArgumentException("`%s.%s` must not be empty: it is a key of index `%s`."
						.formatted(where, field, index.name()));
				}
			}
		}
	}

	/** Refuses an item over DynamoDB's 400 KB, measured as DynamoDB measures it. */
	static void checkSize(Map<String, AttributeValue> item, String where) {
		long size = 0;
		for (Map.Entry<String, AttributeValue> attribute : item.entrySet()) {
			size += attribute.getKey().getBytes(StandardCharsets.UTF_8).length + size(attribute.getValue());
		}
		if (size > MAX_ITEM_BYTES) {
			throw new InvalidArgumentException(("`%s` makes an item of %d bytes, over DynamoDB's limit of %d (400 KB): "
					+ "nothing was written.").formatted(where, size, MAX_ITEM_BYTES));
		}
	}

	/** An attribute value's size: strings and bytes by length, numbers by digits, documents with overhead. */
	static long size(AttributeValue value) {
		if (value.s() != null) {
			return value.s().getBytes(StandardCharsets.UTF_8).length;
		}
		if (value.n() != null) {
			String digits = value.n().replaceAll("[^0-9]", "").replaceFirst("^0+", "");
			return (digits.length() + 1) / 2 + 1;
		}
		if (value.b() != null) {
			return value.b().asByteArrayUnsafe().length;
		}
		if (value.hasSs()) {
			return value.ss().stream().mapToLong((each) -> each.getBytes(StandardCharsets.UTF_8).length).sum();
		}
		if (value.hasNs()) {
			return value.ns().stream().mapToLong((each) -> size(AttributeValue.fromN(each))).sum();
		}
		if (value.hasBs()) {
			return value.bs().stream().mapToLong((each) -> each.asByteArrayUnsafe().length).sum();
		}
		if (value.hasL()) {
			return 3 + value.l().stream().mapToLong((each) -> 1 + size(each)).sum();
		}
		if (value.hasM()) {
			return 3 + value.m()
				.entrySet()
				.stream()
				.mapToLong((each) -> 1 + each.getKey().getBytes(StandardCharsets.UTF_8).length + size(each.getValue()))
				.sum();
		}
		return 1;
	}

	/** Bytes as an attribute value, for values read back from text. */
	static AttributeValue bytes(byte[] value) {
		return AttributeValue.fromB(SdkBytes.fromByteArray(value));
	}

	/**
	 * The fields of the indexes an update touches (a placeholder or a {@code when} field given or cleared) whose
	 * values it neither gives nor has in the key, and which decide the index's key attributes after the write:
	 * none for an index the update takes the item out of whatever the rest holds (a placeholder cleared, or a
	 * {@code when} that the values known already fail and the unknown ones cannot make hold).
	 */
	static List<String> unknownPlaceholders(Entity entity, Set<String> changed, Set<String> cleared,
			Map<String, AttributeValue> known) {
		Set<String> unknown = new java.util.LinkedHashSet<>();
		for (Entity.IndexKey indexKey : entity.indexKeys().values()) {
			if (!touched(indexKey, changed, cleared) || placeholders(indexKey).stream().anyMatch(cleared::contains)) {
				continue;
			}
			if (leaves(indexKey, known, cleared)) {
				continue;
			}
			indexKey.fields()
				.stream()
				.filter((name) -> !known.containsKey(name) && !cleared.contains(name))
				.forEach(unknown::add);
		}
		return List.copyOf(unknown);
	}

	/** Whether a condition of the index fails on a field whose value is known (given or in the key) or cleared. */
	private static boolean leaves(Entity.IndexKey indexKey, Map<String, AttributeValue> known, Set<String> cleared) {
		return indexKey.when()
			.stream()
			.anyMatch((condition) -> (known.containsKey(condition.field()) || cleared.contains(condition.field()))
					&& !condition.holds(known.get(condition.field())));
	}

	/** Whether an update that gives {@code changed} and clears {@code cleared} may change the item's place in the index. */
	private static boolean touched(Entity.IndexKey indexKey, Set<String> changed, Set<String> cleared) {
		return indexKey.fields().stream().anyMatch((name) -> changed.contains(name) || cleared.contains(name));
	}

	private static List<String> placeholders(Entity.IndexKey indexKey) {
		List<String> placeholders = new ArrayList<>();
		indexKey.partition().ifPresent((template) -> placeholders.addAll(template.placeholders()));
		indexKey.sort().ifPresent((template) -> placeholders.addAll(template.placeholders()));
		return placeholders;
	}

	/**
	 * The index key attributes of every index whose templates or {@code when} fields the update touches: SET
	 * when the item is in the index after the write (it enters, or its key changes), REMOVEd when it is not (it
	 * leaves: its {@code when} no longer holds, or a template can no longer be filled).
	 * @param values the item's values after the write, by field name: the key's, the given ones and those read
	 */
	static void recompose(Entity entity, Set<String> changed, Set<String> cleared,
			Map<String, AttributeValue> values, Expressions expressions, InputObject input) {
		String where = input.where().isEmpty() ? "input" : input.where();
		for (Entity.IndexKey indexKey : entity.indexKeys().values()) {
			if (!touched(indexKey, changed, cleared)) {
				continue;
			}
			indexKey(entity, indexKey, values, where).forEach((attribute, value) -> {
				if (value.isPresent()) {
					expressions.set(attribute, value.get());
				}
				else {
					expressions.remove(attribute);
				}
			});
		}
	}

}
