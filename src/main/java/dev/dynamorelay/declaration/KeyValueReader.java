package dev.dynamorelay.declaration;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import graphql.language.Directive;
import graphql.language.FieldDefinition;
import graphql.language.InputValueDefinition;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

import dev.dynamorelay.model.Entity.AttributeField;
import dev.dynamorelay.model.Entity;
import dev.dynamorelay.model.KeyAttribute;
import dev.dynamorelay.model.KeyTemplate;
import dev.dynamorelay.model.KeyValue;
import dev.dynamorelay.model.ValueType;
import dev.dynamorelay.schema.Location;
import dev.dynamorelay.schema.Problem.KeyMistake;
import dev.dynamorelay.schema.Problem.UnknownName;

import static dev.dynamorelay.declaration.Directives.argument;

/** Reads a key template of a connection or lookup and binds each placeholder to an argument or a parent's field. */
final class KeyValueReader {

	private final Reading reading;

	KeyValueReader(Reading reading) {
		this.reading = reading;
	}

	/**
	 * A key template with each placeholder bound to an argument of {@code field} or a field of the parent.
	 * A defaulted template ({@code {attribute}}) also finds the parent's field that stores the attribute.
	 */
	Optional<KeyValue> keyValue(String attribute, String source, ValueType keyType, int maxBytes,
			FieldDefinition field, Entity parent, Directive at, String coordinates, boolean defaulted,
			Map<String, AttributeField> placeholderFields) {
		KeyTemplate template;
		try {
			template = KeyTemplate.parse(source);
		}
		catch (IllegalArgumentException ex) {
			this.reading.problem(Directives.argumentValue(at, (maxBytes == KeyValue.MAX_SORT_KEY_BYTES) ? "sortKey"
					: "partitionKey"), KeyMistake::new, ex.getMessage() + ".");
			return Optional.empty();
		}
		Map<String, KeyValue.Source> sources = new LinkedHashMap<>();
		for (String placeholder : template.placeholders()) {
			InputValueDefinition argument = argument(field, placeholder);
			if (argument != null) {
				// In a composed key, an argument is written as the field it fills (a timestamp as its stored digits).
				AttributeField filled = placeholderFields.get(placeholder);
				ValueType type = template.isPlaceholder() ? keyType
						: (filled != null) ? filled.type() : this.reading.valueType(argument.getType(), argument);
				sources.put(placeholder, new KeyValue.Source(placeholder, true, (type != null) ? type : new ValueType.Text()));
				continue;
			}
			AttributeField parentField = (parent != null) ? parent.fields().get(placeholder) : null;
			if (parentField == null && parent != null && defaulted) {
				parentField = parent.fields().values().stream()
					.filter((candidate) -> candidate.attribute().equals(placeholder))
					.findFirst()
					.orElse(null);
			}
			if (parentField != null) {
				sources.put(placeholder, new KeyValue.Source(parentField.name(), false, parentField.type()));
				continue;
			}
			String where = (parent != null) ? "no argument of `%s` and no field of `%s`".formatted(field.getName(),
					parent.name()) : "no argument of `%s`".formatted(field.getName());
			String templateArgument = (maxBytes == KeyValue.MAX_SORT_KEY_BYTES) ? "sortKey" : "partitionKey";
			java.util.Set<String> names = new java.util.TreeSet<>();
			field.getInputValueDefinitions().forEach((each) -> names.add(each.getName()));
			if (parent != null) {
				names.addAll(parent.fields().keySet());
			}
			// A template written in the directive is reported there; one that the key's name gave, at the directive.
			this.reading.problem(UnknownName.orElse(Location.of(Directives.argumentValue(at, templateArgument)),
					"`%s` fills key `%s` from `{%s}`, but `%s` is %s".formatted(coordinates, attribute, placeholder,
							placeholder, where), placeholder, names, "add the argument, or give `@%s(%s: ...)` a template "
								.formatted(at.getName(), templateArgument) + "such as `\"CUSTOMER#{customerId}\"`."));
			return Optional.empty();
		}
		return Optional.of(new KeyValue(attribute, template, sources, keyType, maxBytes));
	}

	/** How a key attribute's value is written from an argument: as the node type's field, else by its type. */
	static ValueType keyValueType(KeyAttribute attribute, List<Entity> nodes) {
		for (Entity node : nodes) {
			for (AttributeField field : node.fields().values()) {
				if (field.attribute().equals(attribute.name()) && field.type().keyType().equals(Optional.of(attribute.type()))) {
					return field.type();
				}
			}
		}
		return byKeyType(attribute.type());
	}

	private static ValueType byKeyType(ScalarAttributeType type) {
		return switch (type) {
			case N -> new ValueType.Number(ValueType.Number.Kind.DECIMAL);
			case B -> new ValueType.Binary();
			default -> new ValueType.Text();
		};
	}

}
