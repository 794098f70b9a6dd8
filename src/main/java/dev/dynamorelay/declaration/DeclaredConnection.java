package dev.dynamorelay.declaration;

import java.util.List;
import java.util.Optional;

import graphql.schema.FieldCoordinates;

import dev.dynamorelay.model.ConnectionDefinition;
import dev.dynamorelay.model.Entity;
import dev.dynamorelay.model.Filter;
import dev.dynamorelay.model.Item;
import dev.dynamorelay.model.KeyCondition;
import dev.dynamorelay.model.KeyValue;
import dev.dynamorelay.model.ValueType;

/**
 * A declared connection field: the engine's definition of its reads, and how the field's arguments
 * (and its parent) become the partition, the sort key condition and the filters of one call.
 *
 * @param coordinates the field, e.g. {@code User.purchases}
 * @param definition the table or index read, its position key and the item typing
 * @param partition the partition key value's template (Query), or empty (Scan)
 * @param sortKeyPrefix constant text every sort key of the connection starts with; empty: none
 * @param sortArguments arguments that become the sort key condition
 * @param filterArguments arguments that become filter conditions
 * @param orderArgument the name of the {@code SortOrder} argument, if the field has one
 * @param nodes the declared types whose items the connection returns
 */
public record DeclaredConnection(FieldCoordinates coordinates, ConnectionDefinition<Item> definition,
		Optional<KeyValue> partition, String sortKeyPrefix, List<SortArgument> sortArguments,
		List<FilterArgument> filterArguments, Optional<String> orderArgument, List<Entity> nodes) {

	public DeclaredConnection {
		nodes = List.copyOf(nodes);
		sortArguments = List.copyOf(sortArguments);
		filterArguments = List.copyOf(filterArguments);
	}

	/** The field as {@code Type.field}, as graphql-java prints its {@link FieldCoordinates}. */
	public String name() {
		return this.coordinates.toString();
	}

	/**
	 * An argument that becomes the sort key condition.
	 *
	 * @param name the argument
	 * @param op the comparison
	 * @param type how its value is written as the sort key (before the connection's prefix)
	 */
	public record SortArgument(String name, KeyCondition.Op op, ValueType type) {
	}

	/**
	 * An argument that becomes a filter condition.
	 *
	 * @param name the argument
	 * @param attribute the attribute it compares
	 * @param op the comparison; {@code EXISTS} turns into {@code NOT_EXISTS} for {@code false}
	 * @param type how its value (each element, for {@code IN}) is written as the attribute's value
	 */
	public record FilterArgument(String name, String attribute, Filter.Op op, ValueType type) {
	}

}
