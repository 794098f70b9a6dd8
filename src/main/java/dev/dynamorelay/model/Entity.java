package dev.dynamorelay.model;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.schema.Location;

/**
 * A declared object type whose items live in a table: how its key is composed, how its items are told
 * apart from other types' in the same table, and how each field reads its attribute.
 *
 * @param name the GraphQL type name
 * @param table the table its items live in
 * @param partition the partition key's template over this type's fields
 * @param sort the sort key's template, when the table has a sort key
 * @param typeValue this type's value of the table's type attribute, when the table has one
 * @param fields the fields that read attributes, by field name
 * @param node whether the type implements {@code Node} (its {@code id} is the global id)
 * @param location where the type is declared
 * @param version the field that holds the item's optimistic version ({@code @version}), if any
 * @param indexKeys how a write fills the key attributes of the table's secondary indexes that are no fields
 * of this type ({@code @indexKey}), by index name
 */
public record Entity(String name, Table table, KeyTemplate partition, Optional<KeyTemplate> sort,
		Optional<String> typeValue, Map<String, AttributeField> fields, boolean node, Location location,
		Optional<AttributeField> version, Map<String, IndexKey> indexKeys) {

	public Entity {
		fields = Map.copyOf(fields);
		indexKeys = Map.copyOf(indexKeys);
	}

	/** A type whose items the server only reads: no version, no index key templates. */
	public Entity(String name, Table table, KeyTemplate partition, Optional<KeyTemplate> sort,
			Optional<String> typeValue, Map<String, AttributeField> fields, boolean node, Location location) {
		this(name, table, partition, sort, typeValue, fields, node, location, Optional.empty(), Map.of());
	}

	/**
	 * How this type's items fill the key attributes of one secondary index when the server writes them.
	 *
	 * @param index the index
	 * @param partition the template of the index's partition key, when it is no field of the type
	 * @param sort the template of the index's sort key, when it has one that is no field of the type
	 * @param when the conditions on the item's fields that must all hold for it to be in the index
	 * ({@code @indexKey(when:)}); none: every item whose templates can be filled is
	 */
	public record IndexKey(Table.Index index, Optional<KeyTemplate> partition, Optional<KeyTemplate> sort,
			List<Membership> when) {

		public IndexKey {
			when = List.copyOf(when);
		}

		public IndexKey(Table.Index index, Optional<KeyTemplate> partition, Optional<KeyTemplate> sort) {
			this(index, partition, sort, List.of());
		}

		/** The fields the templates and the conditions read, each once. */
		public java.util.Set<String> fields() {
			java.util.Set<String> fields = new java.util.LinkedHashSet<>();
			this.partition.ifPresent((template) -> fields.addAll(template.placeholders()));
			this.sort.ifPresent((template) -> fields.addAll(template.placeholders()));
			this.when.forEach((condition) -> fields.add(condition.field()));
			return fields;
		}

		/** Whether an item with these stored values (by field name; a missing one has none) meets every condition. */
		public boolean belongs(java.util.function.Function<String, AttributeValue> values) {
			return this.when.stream().allMatch((condition) -> condition.holds(values.apply(condition.field())));
		}

	}

	/**
	 * One condition of {@code @indexKey(when:)} on a field's stored value.
	 *
	 * @param field the field's name
	 * @param in the values one of which the field must hold, if given
	 * @param notIn the values none of which the field may hold, if given (a field without a value holds none)
	 * @param exists whether the field must have a value (or must not), if given
	 */
	public record Membership(String field, Optional<List<AttributeValue>> in, Optional<List<AttributeValue>> notIn,
			Optional<Boolean> exists) {

		/** Whether a stored value ({@code null}: none) meets the condition. */
		public boolean holds(AttributeValue value) {
			boolean present = value != null && !Boolean.TRUE.equals(value.nul());
			if (this.exists.isPresent() && this.exists.get() != present) {
				return false;
			}
			if (this.in.isPresent() && (!present || this.in.get().stream().noneMatch((each) -> same(each, value)))) {
				return false;
			}
			return this.notIn.isEmpty() || !present || this.notIn.get().stream().noneMatch((each) -> same(each, value));
		}

		/** Equal stored values: numbers by their value ({@code 3} and {@code 3.0}), anything else as DynamoDB compares it. */
		private static boolean same(AttributeValue expected, AttributeValue stored) {
			if (expected.n() != null && stored.n() != null) {
				try {
					return new java.math.BigDecimal(expected.n()).compareTo(new java.math.BigDecimal(stored.n())) == 0;
				}
				catch (NumberFormatException ex) {
					return false;
				}
			}
			return expected.equals(stored);
		}

	}

	/** The value this type's items hold in the table's type attribute, when the table has one. */
	public Optional<AttributeValue> typeAttributeValue() {
		return this.table.typeAttribute().map((attribute) -> AttributeValue.fromS(this.typeValue.orElse(this.name)));
	}

	/** The field that stores {@code attribute} under its own name, if any. */
	public Optional<AttributeField> fieldOf(String attribute) {
		return this.fields.values().stream().filter((field) -> field.attribute().equals(attribute)).findFirst();
	}

	/**
	 * The fields an item of this type is named by: the placeholders of its partition key template, then
	 * of its sort key template, each once.
	 */
	public List<String> keyFields() {
		java.util.Set<String> fields = new java.util.LinkedHashSet<>(this.partition.placeholders());
		this.sort.ifPresent((template) -> fields.addAll(template.placeholders()));
		return List.copyOf(fields);
	}

	/**
	 * The table key of the item whose key fields have {@code values} (as GraphQL hands arguments of the
	 * fields' types to a data fetcher), written as a lookup writes it.
	 * @throws dev.dynamorelay.error.InvalidArgumentException for a value missing, empty, holding a composed
	 * key's separator, or too long for a key
	 */
	public Map<String, AttributeValue> key(java.util.function.Function<String, Object> values) {
		Map<String, AttributeValue> key = new java.util.HashMap<>();
		key.put(this.table.partitionKey().name(), keyValue(this.table.partitionKey().name(), this.partition,
				KeyValue.MAX_PARTITION_KEY_BYTES).value(values, null).orElseThrow());
		this.sort.ifPresent((template) -> {
			String attribute = this.table.sortKey().orElseThrow().name();
			key.put(attribute, keyValue(attribute, template, KeyValue.MAX_SORT_KEY_BYTES).value(values, null).orElseThrow());
		});
		return key;
	}

	/** A key template of this type with each placeholder filled from the value of the field of its name. */
	private KeyValue keyValue(String attribute, KeyTemplate template, int maxBytes) {
		Map<String, KeyValue.Source> sources = new java.util.HashMap<>();
		ValueType keyType = new ValueType.Text();
		for (String placeholder : template.placeholders()) {
			ValueType type = this.fields.get(placeholder).type();
			sources.put(placeholder, new KeyValue.Source(placeholder, true, type));
			keyType = type;
		}
		return new KeyValue(attribute, template, sources, keyType, maxBytes);
	}

	/** Whether {@code item} is of this type: its type attribute, else the constant text of its key templates. */
	public boolean matches(Map<String, AttributeValue> item) {
		if (this.table.typeAttribute().isPresent()) {
			AttributeValue type = item.get(this.table.typeAttribute().get());
			return type != null && this.typeValue.orElse(this.name).equals(type.s());
		}
		return matches(this.partition, item.get(this.table.partitionKey().name()))
				&& (this.sort.isEmpty() || matches(this.sort.get(), item.get(this.table.sortKey().orElseThrow().name())));
	}

	/** How specific the key templates are: the longer their constant text, the better a match. */
	public int specificity() {
		return this.partition.constantLength() + this.sort.map(KeyTemplate::constantLength).orElse(0);
	}

	/**
	 * The stored value of a field: its attribute, or, for a field that is a placeholder of this type's
	 * key templates and is not stored on its own, the text the key holds for it.
	 */
	public AttributeValue raw(Map<String, AttributeValue> item, AttributeField field) {
		AttributeValue value = item.get(field.attribute());
		if (value != null) {
			return value;
		}
		String fromKey = fromKey(this.partition, item.get(this.table.partitionKey().name()), field.name());
		if (fromKey == null && this.sort.isPresent()) {
			fromKey = fromKey(this.sort.get(), item.get(this.table.sortKey().orElseThrow().name()), field.name());
		}
		if (fromKey == null) {
			return null;
		}
		return switch (field.type().keyType().orElse(software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType.S)) {
			case N -> AttributeValue.fromN(fromKey);
			default -> AttributeValue.fromS(fromKey);
		};
	}

	/** The value a field serves for {@code item}: its declared version counts as 0 on an item written elsewhere. */
	public Object read(Map<String, AttributeValue> item, AttributeField field) {
		Object value = field.type().read(raw(item, field));
		if (value == null && version().filter((version) -> version == field).isPresent()) {
			return 0; // an item written elsewhere, without a version, counts as version 0
		}
		return value;
	}

	private static boolean matches(KeyTemplate template, AttributeValue key) {
		if (template.isPlaceholder()) {
			return key != null;
		}
		return key != null && key.s() != null && template.match(key.s()).isPresent();
	}

	private static String fromKey(KeyTemplate template, AttributeValue key, String field) {
		if (template.isPlaceholder() || key == null || key.s() == null || !template.placeholders().contains(field)) {
			return null;
		}
		return template.match(key.s()).map((values) -> values.get(field)).orElse(null);
	}

	/**
	 * The value of a field that an owner check compares, from a key or an item: as {@link #raw}, but null
	 * when the field is read from a composed key that splits more than one way (a value holding the
	 * template's separator), so that no other owner's key can pass for the caller's.
	 */
	public AttributeValue exactly(Map<String, AttributeValue> item, AttributeField field) {
		AttributeValue value = item.get(field.attribute());
		if (value != null) {
			return value;
		}
		for (KeyTemplate template : this.sort.isPresent() ? List.of(this.partition, this.sort.get()) : List.of(this.partition)) {
			String attribute = (template == this.partition) ? this.table.partitionKey().name()
					: this.table.sortKey().orElseThrow().name();
			AttributeValue key = item.get(attribute);
			if (template.isPlaceholder() || key == null || key.s() == null || !template.placeholders().contains(field.name())) {
				continue;
			}
			return template.matchExactly(key.s()).map((values) -> AttributeValue.fromS(values.get(field.name())))
				.orElse(null);
		}
		return null;
	}

	/**
	 * A field that reads one attribute.
	 *
	 * @param name the GraphQL field name
	 * @param attribute the attribute it reads
	 * @param type how the attribute is stored and served
	 * @param named whether the schema names the attribute ({@code @attribute}): a part of a composed key so
	 * named is stored as an attribute of its own too (as the server's writes store every field)
	 */
	public record AttributeField(String name, String attribute, ValueType type, boolean named) {

		public AttributeField(String name, String attribute, ValueType type) {
			this(name, attribute, type, false);
		}

	}

}
