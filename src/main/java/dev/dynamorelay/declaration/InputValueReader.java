package dev.dynamorelay.declaration;

import java.util.Optional;

import graphql.language.Directive;
import graphql.language.InputValueDefinition;

import dev.dynamorelay.declaration.DeclaredMutation.Constraint;
import dev.dynamorelay.declaration.DeclaredMutation.Generated;
import dev.dynamorelay.declaration.DeclaredMutation.InputField;
import dev.dynamorelay.declaration.DeclaredMutation.Kind;
import dev.dynamorelay.model.Entity.AttributeField;
import dev.dynamorelay.model.Entity;
import dev.dynamorelay.model.ValueType;
import dev.dynamorelay.schema.Location;
import dev.dynamorelay.schema.Problem.InvalidValue;
import dev.dynamorelay.schema.Problem.KeyMistake;
import dev.dynamorelay.schema.Problem.NotStored;
import dev.dynamorelay.schema.Problem.UnknownName;
import dev.dynamorelay.schema.Problem.UnsupportedCombination;
import dev.dynamorelay.schema.Problem.WrongType;
import dev.dynamorelay.schema.Suggestions;

import static dev.dynamorelay.declaration.Directives.directive;
import static dev.dynamorelay.declaration.Directives.enumValue;
import static dev.dynamorelay.declaration.Directives.string;
import static dev.dynamorelay.declaration.Directives.typeName;

/**
 * Reads an input field that writes a value of the written type: its GraphQL type against the type stored, and
 * what {@code @generated}, {@code @references} and {@code @constraint} add to it.
 */
final class InputValueReader {

	private final Reading reading;

	InputValueReader(Reading reading) {
		this.reading = reading;
	}

	InputField value(String where, Kind kind, Entity entity, InputValueDefinition field) {
		AttributeField target = entity.fields().get(field.getName());
		if (target == null) {
			Optional<String> closest = Suggestions.closest(field.getName(), entity.fields().keySet());
			this.reading.problem(new UnknownName(Location.of(field), field.getName(), closest,
					"%s is no field of `%s`: an input field writes the field of its name%s".formatted(where, entity.name(),
							closest.map(". Did you mean `%s`? Otherwise rename it, or remove it."::formatted)
								.orElse("; rename it, or remove it."))));
			return null;
		}
		if (entity.version().filter((version) -> version == target).isPresent()) {
			this.reading.problem(field, UnsupportedCombination::new,
					("%s writes `%s.%s`, the `@version`, which the server keeps: remove it, or make it "
					+ "an `@expectedVersion`.").formatted(where, entity.name(), target.name()));
			return null;
		}
		ValueType given = this.reading.valueType(field.getType(), field);
		if (given == null || !fits(given, target.type())) {
			this.reading.problem(field, WrongType::new,
					"%s is `%s`, but `%s.%s` stores %s: declare it as %s.".formatted(where,
					graphql.language.AstPrinter.printAst(field.getType()), entity.name(), target.name(),
					describe(target.type()), expected(target.type())));
			return null;
		}
		Optional<Generated> generated = generated(where, kind, target, field);
		Optional<Entity> references = references(where, entity, field);
		return new InputField.Value(field.getName(), target, generated, constraint(where, target, field), references);
	}

	/** Whether a value given as {@code given} (the input's GraphQL type) can be stored as {@code target}. */
	private static boolean fits(ValueType given, ValueType target) {
		if (target instanceof ValueType.Json) {
			return true;
		}
		if (target instanceof ValueType.ListOf targetList) {
			return given instanceof ValueType.ListOf givenList && fits(givenList.element(), targetList.element());
		}
		if (given instanceof ValueType.ListOf) {
			return false;
		}
		if (target instanceof ValueType.Timestamp) {
			return given instanceof ValueType.Text;
		}
		if (target instanceof ValueType.Number number) {
			if (!(given instanceof ValueType.Number givenNumber)) {
				return false;
			}
			ValueType.Number.Kind kind = givenNumber.kind();
			return switch (number.kind()) {
				case INT -> kind == ValueType.Number.Kind.INT;
				case LONG -> kind == ValueType.Number.Kind.INT || kind == ValueType.Number.Kind.LONG;
				default -> true;
			};
		}
		if (target instanceof ValueType.Enumeration enumeration) {
			return given instanceof ValueType.Enumeration givenEnum && enumeration.values().containsAll(givenEnum.values());
		}
		if (target instanceof ValueType.Text) {
			return given instanceof ValueType.Text || given instanceof ValueType.Enumeration;
		}
		return given.getClass() == target.getClass();
	}

	/** What a stored value is, in a problem's words. */
	static String describe(ValueType type) {
		if (type instanceof ValueType.Timestamp) {
			return "a timestamp";
		}
		if (type instanceof ValueType.Number number) {
			return "a number (" + number.kind().name().toLowerCase(java.util.Locale.ROOT) + ")";
		}
		if (type instanceof ValueType.Enumeration) {
			return "an enum";
		}
		if (type instanceof ValueType.Bool) {
			return "a boolean";
		}
		if (type instanceof ValueType.Binary) {
			return "bytes";
		}
		return (type instanceof ValueType.ListOf) ? "a list" : "a string";
	}

	/** The GraphQL types an input may declare for a stored value. */
	private static String expected(ValueType type) {
		if (type instanceof ValueType.Timestamp) {
			return "a `String` of ISO-8601 instants";
		}
		if (type instanceof ValueType.Number number) {
			return switch (number.kind()) {
				case INT -> "`Int`";
				case LONG -> "`Int` or `Long`";
				default -> "a number (`Int`, `Long`, `Float` or `Decimal`)";
			};
		}
		if (type instanceof ValueType.Enumeration) {
			return "the same enum";
		}
		if (type instanceof ValueType.Bool) {
			return "`Boolean`";
		}
		if (type instanceof ValueType.Binary) {
			return "`Bytes`";
		}
		return (type instanceof ValueType.ListOf) ? "a list of the same" : "`String` or `ID`";
	}

	private Optional<Generated> generated(String where, Kind kind, AttributeField target, InputValueDefinition field) {
		Directive directive = directive(field, "generated");
		if (directive == null) {
			return Optional.empty();
		}
		Generated generated = Generated.valueOf(enumValue(directive, "value"));
		if (kind != Kind.CREATE && kind != Kind.REPLACE) {
			this.reading.problem(directive, UnsupportedCombination::new,
					"%s has `@generated`, which fills in what a create leaves out: an %s does not."
				.formatted(where, kind.directive()));
			return Optional.empty();
		}
		boolean fits = (generated == Generated.NOW) ? target.type() instanceof ValueType.Timestamp
				: target.type() instanceof ValueType.Text;
		if (!fits) {
			this.reading.problem(Directives.argumentValue(directive, "value"), InvalidValue::new,
					"%s is `@generated(value: %s)`, which fills "
				.formatted(where, generated) + "%s; `%s` is not one.".formatted((generated == Generated.NOW)
						? "a `@timestamp` field" : "a `String` or `ID` field", target.name()));
			return Optional.empty();
		}
		return Optional.of(generated);
	}

	private Optional<Entity> references(String where, Entity entity, InputValueDefinition field) {
		Directive directive = directive(field, "references");
		if (directive == null) {
			return Optional.empty();
		}
		String typeName = string(directive, "type");
		Entity referenced = this.reading.entities.get(typeName);
		if (referenced == null) {
			if (this.reading.isUnreadable(typeName)) {
				return Optional.empty();
			}
			this.reading.problem(Directives.argumentValue(directive, "type"), NotStored::new,
					"%s references `%s`, which is stored in no "
				.formatted(where, typeName) + "table: give it a `@table`.%s"
					.formatted(Suggestions.didYouMean(typeName, this.reading.entities.keySet())));
			return Optional.empty();
		}
		if (!referenced.keyFields().contains(field.getName())) {
			this.reading.problem(Directives.argumentValue(directive, "type"), KeyMistake::new,
					("%s references `%s`, whose key has no "
					+ "`{%s}`: the field fills the placeholder of its name in the key of `%s`.").formatted(where, typeName,
							field.getName(), typeName));
			return Optional.empty();
		}
		return Optional.of(referenced);
	}

	private Constraint constraint(String where, AttributeField target, InputValueDefinition field) {
		Directive directive = directive(field, "constraint");
		if (directive == null) {
			return Constraint.NONE;
		}
		boolean notBlank = Directives.bool(directive, "notBlank", false);
		Optional<Integer> maxBytes = integer(directive, "maxBytes");
		Optional<Double> min = number(directive, "min");
		Optional<Double> max = number(directive, "max");
		boolean text = target.type() instanceof ValueType.Text;
		boolean numeric = target.type() instanceof ValueType.Number;
		if ((notBlank || maxBytes.isPresent()) && !text) {
			this.reading.problem(Directives.argumentValue(directive, notBlank ? "notBlank" : "maxBytes"), UnsupportedCombination::new,
					"%s: `notBlank` and `maxBytes` bound strings; `%s` is not one."
				.formatted(where, target.name()));
		}
		if ((min.isPresent() || max.isPresent()) && !numeric) {
			this.reading.problem(Directives.argumentValue(directive, min.isPresent() ? "min" : "max"), UnsupportedCombination::new,
					"%s: `min` and `max` bound numbers; `%s` is not one.".formatted(where, target.name()));
		}
		return new Constraint(notBlank, maxBytes, min, max);
	}

	private static Optional<Integer> integer(Directive directive, String name) {
		graphql.language.Argument argument = directive.getArgument(name);
		return (argument != null && argument.getValue() instanceof graphql.language.IntValue value)
				? Optional.of(value.getValue().intValueExact()) : Optional.empty();
	}

	private static Optional<Double> number(Directive directive, String name) {
		graphql.language.Argument argument = directive.getArgument(name);
		if (argument == null) {
			return Optional.empty();
		}
		if (argument.getValue() instanceof graphql.language.FloatValue value) {
			return Optional.of(value.getValue().doubleValue());
		}
		if (argument.getValue() instanceof graphql.language.IntValue value) {
			return Optional.of(value.getValue().doubleValue());
		}
		return Optional.empty();
	}

}
