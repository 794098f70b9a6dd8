package dev.dynamorelay.access;

import java.util.List;
import java.util.Map;

import graphql.schema.FieldCoordinates;

/**
 * The schema's {@code @auth} rules, checked at start.
 *
 * @param types the rules of declared types (who may read their items), by type name
 * @param fields the rules of fields (who may call them), by field
 */
public record AccessRules(Map<String, List<AuthRule>> types, Map<FieldCoordinates, List<AuthRule>> fields) {

	public AccessRules {
		types = Map.copyOf(types);
		fields = Map.copyOf(fields);
	}

	public List<AuthRule> type(String name) {
		return this.types.getOrDefault(name, List.of());
	}

	public List<AuthRule> field(FieldCoordinates coordinates) {
		return this.fields.getOrDefault(coordinates, List.of());
	}

	public boolean isEmpty() {
		return this.types.isEmpty() && this.fields.isEmpty();
	}

}
