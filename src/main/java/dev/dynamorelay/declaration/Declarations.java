package dev.dynamorelay.declaration;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.error.InvalidArgumentException;
import dev.dynamorelay.model.Entity;
import dev.dynamorelay.model.Item;
import dev.dynamorelay.model.NodeIds;
import dev.dynamorelay.model.Table;

/**
 * Everything the schema files declare, checked once: tables, the types stored in them, connection
 * fields, lookups and the abstract types connections return.
 *
 * <p>Read by {@link DeclarationReader}; the GraphQL layer wires a data fetcher to each declared field,
 * and start-up checks the tables against DynamoDB.
 *
 * @param tables the declared tables by declared name
 * @param entities the declared types by GraphQL type name
 * @param connections the connection fields
 * @param lookups the one-to-one fields
 * @param abstractTypes interfaces and unions that declared types implement or belong to, with those types
 * @param mutations the mutation fields
 * @param subscriptions the live connections
 */
public record Declarations(Map<String, Table> tables, Map<String, Entity> entities,
		List<DeclaredConnection> connections, List<DeclaredLookup> lookups, Map<String, List<Entity>> abstractTypes,
		List<DeclaredMutation> mutations, List<DeclaredSubscription> subscriptions) {

	public Declarations {
		tables = Map.copyOf(tables);
		entities = Map.copyOf(entities);
		connections = List.copyOf(connections);
		lookups = List.copyOf(lookups);
		abstractTypes = Map.copyOf(abstractTypes);
		mutations = List.copyOf(mutations);
		subscriptions = List.copyOf(subscriptions);
	}

	/** Whether a live connection reads {@code table}, which then needs a stream of new and old images. */
	public boolean live(Table table) {
		return this.subscriptions.stream()
			.anyMatch((subscription) -> subscription.connection().definition().table().equals(table.physicalName()));
	}

	/** The declared type named {@code name}, which the sample's own code relies on. */
	public Entity entity(String name) {
		Entity entity = this.entities.get(name);
		if (entity == null) {
			throw new IllegalStateException("the schema declares no type " + name);
		}
		return entity;
	}

	/** The declared type of a node id, and the item key it names. */
	public NodeIds.Key decode(String id) {
		return NodeIds.decode(id, (type) -> Optional.ofNullable(this.entities.get(type)).filter(Entity::node));
	}

	/**
	 * A function that recognises an item as the type of {@code inTable} whose key templates (or type
	 * value) it matches, the most specific template winning, and returns it when that type is one of
	 * {@code served}, else {@code null}. Every type of the table takes part, so that an item of another
	 * type whose key merely starts like a served type's is not taken for one.
	 */
	public static Function<Map<String, AttributeValue>, Item> typing(List<Entity> inTable, Collection<Entity> served) {
		List<Entity> ordered = inTable.stream()
			.sorted(Comparator.comparingInt(Entity::specificity).reversed().thenComparing(Entity::name))
			.toList();
		Set<Entity> accepted = Set.copyOf(served);
		if (ordered.size() == 1) {
			Entity only = ordered.get(0);
			return accepted.contains(only) ? (item) -> only.matches(item) ? new Item(only, item) : null : (item) -> null;
		}
		return (item) -> {
			for (Entity entity : ordered) {
				if (entity.matches(item)) {
					return accepted.contains(entity) ? new Item(entity, item) : null;
				}
			}
			return null;
		};
	}

	/**
	 * The types whose creates write items of {@code entity} as their {@code @children}: its items are under
	 * an item of each (its key holds each one's key fields), whose rules decide who writes them.
	 */
	public List<Entity> parentsOf(Entity entity) {
		return this.mutations.stream()
			.filter((mutation) -> mutation.input()
				.shape()
				.all(DeclaredMutation.InputField.Children.class)
				.stream()
				.anyMatch((children) -> children.entity().name().equals(entity.name())))
			.map(DeclaredMutation::entity)
			.distinct()
			.toList();
	}

	/** The declared types stored in {@code table}. */
	public List<Entity> entitiesIn(Table table) {
		return this.entities.values().stream().filter((entity) -> entity.table().name().equals(table.name())).toList();
	}

	/** Refuses an id that names a declared type but not this one. */
	public static NodeIds.Key expect(NodeIds.Key key, String typeName, String argument) {
		if (!key.entity().name().equals(typeName)) {
			throw new InvalidArgumentException("`%s` is not the id of a %s.".formatted(argument, typeName));
		}
		return key;
	}

}
