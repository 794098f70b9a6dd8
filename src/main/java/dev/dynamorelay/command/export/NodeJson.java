package dev.dynamorelay.command.export;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import graphql.GraphQLContext;
import graphql.schema.GraphQLEnumType;
import graphql.schema.GraphQLFieldDefinition;
import graphql.schema.GraphQLFieldsContainer;
import graphql.schema.GraphQLInterfaceType;
import graphql.schema.GraphQLList;
import graphql.schema.GraphQLNamedType;
import graphql.schema.GraphQLObjectType;
import graphql.schema.GraphQLOutputType;
import graphql.schema.GraphQLScalarType;
import graphql.schema.GraphQLSchema;
import graphql.schema.GraphQLType;
import graphql.schema.GraphQLTypeUtil;
import graphql.schema.GraphQLUnionType;
import tools.jackson.core.JsonGenerator;

import dev.dynamorelay.declaration.DeclaredConnection;
import dev.dynamorelay.model.Entity;
import dev.dynamorelay.model.Item;
import dev.dynamorelay.model.NodeIds;

/**
 * A node as one JSON object: what a GraphQL query selecting every scalar field of the node would answer
 * for it, so that the export writes the same JSON as GraphQL (and the REST view, which runs GraphQL) does.
 *
 * <p>The object holds {@code __typename} first when asked (a connection whose nodes are of a union or
 * interface), then {@code id} for a type that implements {@code Node}, then every field that reads an
 * attribute, in the order the schema declares them, each serialized by its GraphQL type's own coercing
 * ({@code Long}, {@code Decimal}, {@code Bytes}, {@code JSON}, timestamps as GraphQL serves them); an
 * attribute the item lacks is {@code null}. Connections and lookups are left out: they are reads of
 * their own. Thread-safe: the export's segments write nodes concurrently.
 */
public final class NodeJson {

	private final GraphQLSchema schema;

	/** Each declared type's fields in schema order, resolved once. */
	private final Map<Entity, List<Field>> fields = new ConcurrentHashMap<>();

	public NodeJson(GraphQLSchema schema) {
		this.schema = schema;
	}

	/**
	 * Whether the nodes of {@code connection} are of an abstract type (a union or interface), so that each
	 * line names its type with {@code __typename}.
	 */
	public boolean abstractNodes(DeclaredConnection connection) {
		GraphQLObjectType parent = this.schema.getObjectType(connection.coordinates().getTypeName());
		GraphQLType type = unwrap(parent.getFieldDefinition(connection.coordinates().getFieldName()).getType());
		GraphQLType edge = unwrap(((GraphQLFieldsContainer) type).getFieldDefinition("edges").getType());
		GraphQLType node = unwrap(((GraphQLFieldsContainer) edge).getFieldDefinition("node").getType());
		return node instanceof GraphQLInterfaceType || node instanceof GraphQLUnionType;
	}

	/** Writes {@code item} as one JSON object. */
	public void write(JsonGenerator json, Item item, boolean typename) {
		json.writeStartObject();
		if (typename) {
			json.writeName("__typename");
			json.writeString(item.typeName());
		}
		for (Field field : this.fields.computeIfAbsent(item.entity(), this::fields)) {
			json.writeName(field.name());
			if (field.attribute() == null) {
				json.writeString(NodeIds.encode(item.entity(), item.attributes()));
				continue;
			}
			Object value = item.entity().read(item.attributes(), field.attribute());
			writeValue(json, serialize(field.type(), value));
		}
		json.writeEndObject();
	}

	/** The fields a node of {@code entity} writes, in the schema's order: {@code id} has no attribute. */
	private List<Field> fields(Entity entity) {
		GraphQLObjectType type = this.schema.getObjectType(entity.name());
		if (type == null) {
			throw new IllegalStateException("the schema has no type " + entity.name());
		}
		List<Field> fields = new ArrayList<>();
		for (GraphQLFieldDefinition definition : type.getFieldDefinitions()) {
			Entity.AttributeField attribute = entity.fields().get(definition.getName());
			if (attribute != null) {
				fields.add(new Field(definition.getName(), attribute, definition.getType()));
			}
			else if (entity.node() && definition.getName().equals("id")) {
				fields.add(new Field("id", null, definition.getType()));
			}
		}
		return List.copyOf(fields);
	}

	/** A value as GraphQL serializes it for a field of {@code type}. */
	private static Object serialize(GraphQLOutputType type, Object value) {
		if (value == null) {
			return null;
		}
		GraphQLType bare = GraphQLTypeUtil.unwrapNonNull(type);
		if (bare instanceof GraphQLList list) {
			GraphQLOutputType element = (GraphQLOutputType) list.getWrappedType();
			Collection<?> values = (value instanceof Collection<?> collection) ? collection : List.of(value);
			List<Object> serialized = new ArrayList<>(values.size());
			for (Object each : values) {
				serialized.add(serialize(element, each));
			}
			return serialized;
		}
		if (bare instanceof GraphQLScalarType scalar) {
			return scalar.getCoercing().serialize(value, GraphQLContext.getDefault(), Locale.ROOT);
		}
		if (bare instanceof GraphQLEnumType enumeration) {
			return enumeration.serialize(value, GraphQLContext.getDefault(), Locale.ROOT);
		}
		return value;
	}

	/** Writes a serialized value: null, a string, number, boolean, list or map (JSON scalars). */
	private static void writeValue(JsonGenerator json, Object value) {
		if (value == null) {
			json.writeNull();
		}
		else if (value instanceof String text) {
			json.writeString(text);
		}
		else if (value instanceof Boolean bool) {
			json.writeBoolean(bool);
		}
		else if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
			json.writeNumber(((Number) value).longValue());
		}
		else if (value instanceof Double || value instanceof Float) {
			json.writeNumber(((Number) value).doubleValue());
		}
		else if (value instanceof BigDecimal decimal) {
			json.writeNumber(decimal);
		}
		else if (value instanceof BigInteger integer) {
			json.writeNumber(integer);
		}
		else if (value instanceof Map<?, ?> map) {
			json.writeStartObject();
			for (Map.Entry<?, ?> entry : map.entrySet()) {
				json.writeName(String.valueOf(entry.getKey()));
				writeValue(json, entry.getValue());
			}
			json.writeEndObject();
		}
		else if (value instanceof Collection<?> collection) {
			json.writeStartArray();
			for (Object each : collection) {
				writeValue(json, each);
			}
			json.writeEndArray();
		}
		else {
			json.writeString(value.toString());
		}
	}

	private static GraphQLType unwrap(GraphQLType type) {
		return (GraphQLNamedType) GraphQLTypeUtil.unwrapAll(type);
	}

	/** A field of a node: {@code attribute} null for the global id. */
	private record Field(String name, Entity.AttributeField attribute, GraphQLOutputType type) {
	}

}
