package dev.dynamorelay.declaration;

import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import graphql.language.Directive;
import graphql.language.FieldDefinition;
import graphql.language.InputValueDefinition;
import graphql.language.ListType;
import graphql.language.ObjectTypeDefinition;
import graphql.schema.FieldCoordinates;

import dev.dynamorelay.model.Entity;
import dev.dynamorelay.model.KeyTemplate;
import dev.dynamorelay.model.KeyValue;
import dev.dynamorelay.model.Table;
import dev.dynamorelay.schema.Problem.NotStored;
import dev.dynamorelay.schema.Problem.UselessArgument;
import dev.dynamorelay.schema.Problem.WrongAnswer;

import static dev.dynamorelay.declaration.Directives.directive;
import static dev.dynamorelay.declaration.Directives.string;
import static dev.dynamorelay.declaration.Directives.typeName;
import static dev.dynamorelay.declaration.Directives.unwrapNonNull;

/** Reads a {@code @lookup} field: the target type's key, filled from the field's arguments or its parent. */
final class LookupReader {

	private final Reading reading;

	private final KeyValueReader keys;

	LookupReader(Reading reading, KeyValueReader keys) {
		this.reading = reading;
		this.keys = keys;
	}

	void read(ObjectTypeDefinition type, Entity parent, FieldDefinition field, Directive directive) {
		String coordinates = type.getName() + "." + field.getName();
		if (unwrapNonNull(field.getType()) instanceof ListType) {
			this.reading.problem(field, WrongAnswer::new,
					"`%s` is a `@lookup` of one item: return the type, not a list; a list is a connection."
				.formatted(coordinates));
			return;
		}
		field.getInputValueDefinitions().forEach((argument) -> this.reading.noConnectionArgument(type, field, argument));
		Entity target = this.reading.entities.get(typeName(field.getType()));
		if (target == null && this.reading.isUnreadable(typeName(field.getType()))) {
			return;
		}
		if (target == null) {
			this.reading.problem(field, NotStored::new,
					"`%s` looks up `%s`, which is stored in no table: give it a `@table`."
				.formatted(coordinates, typeName(field.getType())));
			return;
		}
		Table table = target.table();
		String partitionSource = Optional.ofNullable(string(directive, "partitionKey"))
			.orElse(target.partition().source());
		Optional<KeyValue> partition = this.keys.keyValue(table.partitionKey().name(), partitionSource,
				KeyValueReader.keyValueType(table.partitionKey(), List.of(target)), KeyValue.MAX_PARTITION_KEY_BYTES, field, parent,
				directive, coordinates, false, target.fields());
		Optional<KeyValue> sort = Optional.empty();
		if (table.sortKey().isPresent()) {
			String sortSource = Optional.ofNullable(string(directive, "sortKey"))
				.orElse(target.sort().map(KeyTemplate::source).orElse(null));
			sort = this.keys.keyValue(table.sortKey().get().name(), sortSource, KeyValueReader.keyValueType(table.sortKey().get(), List.of(target)),
					KeyValue.MAX_SORT_KEY_BYTES, field, parent, directive, coordinates, false, target.fields());
			if (sort.isEmpty()) {
				return;
			}
		}
		if (partition.isEmpty()) {
			return;
		}
		Set<String> used = new HashSet<>(partition.get().template().placeholders());
		sort.ifPresent((value) -> used.addAll(value.template().placeholders()));
		for (InputValueDefinition argument : field.getInputValueDefinitions()) {
			if (!used.contains(argument.getName()) && directive(argument, "sortKey") == null
					&& directive(argument, "filter") == null) {
				this.reading.problem(argument, UselessArgument::new,
						("argument `%s` of `%s` does nothing: a `@lookup` reads one item by its key; use the "
						+ "argument in a key template (`@lookup(partitionKey: ..., sortKey: ...)`), or remove it.")
					.formatted(argument.getName(), coordinates));
			}
		}
		this.reading.lookups.add(new DeclaredLookup(FieldCoordinates.coordinates(type.getName(), field.getName()), target,
				partition.get(), sort));
	}

}
