package dev.dynamorelay.declaration;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.error.InvalidArgumentException;

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
 */
public record Declarations(Map<String, Table> tables, Map<String, Entity> entities,
		List<DeclaredConnection> connections, List<DeclaredLookup> lookups, Map<String, List<Entity>> abstractTypes) {

	public Declarations {
		tables = Map.copyOf(tables);
		entities = Map.copyOf(entities);
		connections = List.copyOf(connections);
		lookups = List.copyOf(lookups);
		abstractTypes = Map.copyOf(abstractTypes);
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
	 * A function that recognises an item as one of {@code candidates} (the most specific key template
	 * wins), or returns {@code null} for an item of none of them.
	 */
	public static Function<Map<String, AttributeValue>, Item> typing(List<Entity> candidates) {
		List<Entity> ordered = candidates.stream()
			.sorted(Comparator.comparingInt(Entity::specificity).reversed().thenComparing(Entity::name))
			.toList();
		if (ordered.size() == 1) {
			Entity only = ordered.get(0);
			return (item) -> only.matches(item) ? new Item(only, item) : null;
		}
		return (item) -> {
			for (Entity entity : ordered) {
				if (entity.matches(item)) {
					return new Item(entity, item);
				}
			}
			return null;
		};
	}

	/** Refuses an id that names a declared type but not this one. */
	public static NodeIds.Key expect(NodeIds.Key key, String typeName, String argument) {
		if (!key.entity().name().equals(typeName)) {
			throw new InvalidArgumentException("`%s` is not the id of a %s.".formatted(argument, typeName));
		}
		return key;
	}

}
