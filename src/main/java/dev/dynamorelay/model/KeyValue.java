package dev.dynamorelay.model;

import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.error.InvalidArgumentException;

/**
 * A key template of a connection or lookup, with where each placeholder's value comes from: an
 * argument of the field, or a field of the parent item.
 *
 * @param attribute the key attribute the template fills (for messages)
 * @param template the template
 * @param sources each placeholder's source, by placeholder name
 * @param keyType how the key attribute is stored, for a template that is a single placeholder
 * @param maxBytes DynamoDB's limit on this key's value
 */
public record KeyValue(String attribute, KeyTemplate template, Map<String, Source> sources, ValueType keyType,
		int maxBytes) {

	/** DynamoDB's limit on a partition key value. */
	public static final int MAX_PARTITION_KEY_BYTES = 2048;

	/** DynamoDB's limit on a sort key value. */
	public static final int MAX_SORT_KEY_BYTES = 1024;

	public KeyValue {
		sources = Map.copyOf(sources);
	}

	/**
	 * The key value for a call with {@code arguments} under {@code parent}; empty when the parent has no
	 * value for a placeholder (the connection or lookup is then empty, not an error).
	 * @throws InvalidArgumentException when an argument is left out or cannot be a key
	 */
	public Optional<AttributeValue> value(Function<String, Object> arguments, Item parent) {
		if (this.template.isPlaceholder()) {
			Source source = this.sources.get(this.template.placeholders().get(0));
			AttributeValue value;
			if (source.argument()) {
				value = this.keyType.write(source.name(), required(source, arguments));
			}
			else {
				value = parentValue(source, parent);
				if (value == null) {
					return Optional.empty();
				}
				value = retype(value);
			}
			return Optional.of(ValueType.checkKey(source.argument() ? source.name() : this.attribute, value,
					this.maxBytes));
		}
		StringBuilder missing = new StringBuilder();
		String key = this.template.fill((name) -> {
			Source source = this.sources.get(name);
			String text;
			if (source.argument()) {
				text = source.type().keyText(source.type().write(source.name(), required(source, arguments)));
				if (text == null || text.isEmpty()) {
					throw new InvalidArgumentException("`%s` must not be empty.".formatted(source.name()));
				}
				this.template.refusal(name, text).ifPresent((refusal) -> {
					throw new InvalidArgumentException("`%s` %s".formatted(source.name(), refusal));
				});
			}
			else {
				AttributeValue value = parentValue(source, parent);
				text = (value != null) ? source.type().keyText(value) : null;
			}
			if (text == null || text.isEmpty()) {
				missing.append(name);
				return "";
			}
			return text;
		});
		if (!missing.isEmpty()) {
			return Optional.empty();
		}
		return Optional.of(ValueType.checkKey(this.attribute, AttributeValue.fromS(key), this.maxBytes));
	}

	/** An argument that fills a key: it selects what is read, so it cannot be left out. */
	private static Object required(Source source, Function<String, Object> arguments) {
		Object argument = arguments.apply(source.name());
		if (argument == null) {
			throw new InvalidArgumentException("Pass `%s`: it selects the items to read.".formatted(source.name()));
		}
		return argument;
	}

	private static AttributeValue parentValue(Source source, Item parent) {
		if (parent == null) {
			return null;
		}
		Entity.AttributeField field = parent.entity().fields().get(source.name());
		return (field != null) ? parent.entity().raw(parent.attributes(), field) : null;
	}

	/** A parent's attribute as the key's type (an N key from a parent that stores the number as text). */
	private AttributeValue retype(AttributeValue value) {
		var type = this.keyType.keyType().orElseThrow();
		return switch (type) {
			case N -> (value.n() != null) ? value : (value.s() != null ? AttributeValue.fromN(value.s()) : value);
			case S -> (value.s() != null) ? value : (value.n() != null ? AttributeValue.fromS(value.n()) : value);
			default -> value;
		};
	}

	/**
	 * Where a placeholder's value comes from.
	 *
	 * @param name the argument's or the parent field's name
	 * @param argument an argument of the field, or a field of the parent
	 * @param type how the value is written into a key
	 */
	public record Source(String name, boolean argument, ValueType type) {
	}

}
