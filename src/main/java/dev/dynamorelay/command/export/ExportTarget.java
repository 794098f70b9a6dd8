package dev.dynamorelay.command.export;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

import graphql.GraphQLContext;
import graphql.execution.ValuesResolver;
import graphql.schema.GraphQLArgument;
import graphql.schema.GraphQLFieldDefinition;
import graphql.schema.GraphQLInputType;
import graphql.schema.GraphQLNonNull;
import graphql.schema.GraphQLObjectType;
import graphql.schema.GraphQLSchema;
import graphql.schema.GraphQLType;
import graphql.schema.GraphQLTypeUtil;
import graphql.schema.idl.InterfaceWiringEnvironment;
import graphql.schema.idl.RuntimeWiring;
import graphql.schema.idl.SchemaGenerator;
import graphql.schema.idl.TypeDefinitionRegistry;
import graphql.schema.idl.UnionWiringEnvironment;
import graphql.schema.idl.WiringFactory;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.declaration.ArgumentText;
import dev.dynamorelay.declaration.Declarations;
import dev.dynamorelay.declaration.DeclaredConnection;
import dev.dynamorelay.declaration.Scalars;
import dev.dynamorelay.error.ApiException;
import dev.dynamorelay.model.Entity;
import dev.dynamorelay.pagination.ConnectionQueries;
import dev.dynamorelay.pagination.ConnectionQuery;

/**
 * What an export reads: the declared connection its {@code Type.field} names, and its
 * {@code --arg}s as the values GraphQL would hand the connection's data fetcher.
 *
 * <p>Each {@code --arg} is a string; it is converted by the argument's GraphQL type (a list from
 * comma-separated values or a repeated {@code --arg}) and then coerced as a GraphQL variable's value is,
 * by graphql-java with the schema's own scalars: an export takes exactly the values a query takes.
 * Left-out arguments get their schema defaults. A nested connection's parent is named by the
 * placeholders of its type's key templates, also given as {@code --arg}s.
 */
final class ExportTarget {

	final DeclaredConnection connection;

	/** The connection field's own arguments, coerced, with defaults. */
	final Map<String, Object> arguments;

	/** The parent's key placeholders' values, coerced (empty for a root connection). */
	final Map<String, Object> parentKey;

	/** The parent's type, for a nested connection. */
	final Entity parentType;

	private ExportTarget(DeclaredConnection connection, Map<String, Object> arguments, Map<String, Object> parentKey,
			Entity parentType) {
		this.connection = connection;
		this.arguments = arguments;
		this.parentKey = parentKey;
		this.parentType = parentType;
	}

	/**
	 * The executable schema of the declarations' files, with the server's scalars: what the arguments
	 * are coerced by and what nodes are serialized by. Abstract types resolve to nothing: nothing is
	 * executed.
	 */
	static GraphQLSchema schema(TypeDefinitionRegistry registry) {
		RuntimeWiring.Builder wiring = RuntimeWiring.newRuntimeWiring();
		Scalars.wire(wiring);
		Set<String> wired = wiring.build().getScalars().keySet();
		registry.scalars()
			.keySet()
			.stream()
			.filter((name) -> !wired.contains(name))
			.sorted()
			.forEach((name) -> wiring.scalar(Scalars.passThrough(name)));
		wiring.wiringFactory(new WiringFactory() {

			@Override
			public boolean providesTypeResolver(InterfaceWiringEnvironment environment) {
				return true;
			}

			@Override
			public graphql.schema.TypeResolver getTypeResolver(InterfaceWiringEnvironment environment) {
				return (env) -> null;
			}

			@Override
			public boolean providesTypeResolver(UnionWiringEnvironment environment) {
				return true;
			}

			@Override
			public graphql.schema.TypeResolver getTypeResolver(UnionWiringEnvironment environment) {
				return (env) -> null;
			}

		});
		return new SchemaGenerator().makeExecutableSchema(registry, wiring.build());
	}

	/**
	 * The connection {@code coordinates} names, with {@code given} converted.
	 * @throws ExportException (exit code 2) for an unknown connection, argument or a bad value
	 */
	static ExportTarget resolve(GraphQLSchema schema, Declarations declarations, String coordinates,
			Map<String, List<String>> given) {
		DeclaredConnection connection = declarations.connections()
			.stream()
			.filter((each) -> each.name().equals(coordinates))
			.findFirst()
			.orElseThrow(() -> ExportException.usage("`%s` is not a declared connection. Declared connections: %s."
				.formatted(coordinates, String.join(", ", connections(declarations)))));
		GraphQLObjectType type = schema.getObjectType(connection.coordinates().getTypeName());
		GraphQLFieldDefinition field = type.getFieldDefinition(connection.coordinates().getFieldName());
		Entity parentType = declarations.entities().get(type.getName());
		Map<String, GraphQLType> parentKeys = new LinkedHashMap<>();
		if (parentType != null) {
			for (String placeholder : parentType.keyFields()) {
				GraphQLFieldDefinition keyField = type.getFieldDefinition(placeholder);
				parentKeys.put(placeholder, (keyField != null) ? keyField.getType() : graphql.Scalars.GraphQLString);
			}
		}
		checkNames(coordinates, field, parentKeys.keySet(), given.keySet());
		Map<String, Object> parentKey = new LinkedHashMap<>();
		parentKeys.forEach((name, keyType) -> {
			List<String> values = given.get(name);
			if (values == null) {
				throw ExportException.usage(("`%s` is a connection of each %s: name the %s with `--arg %s=...` (its key: "
						+ "%s).").formatted(coordinates, parentType.name(), parentType.name(), name,
								String.join(", ", parentKeys.keySet())));
			}
			parentKey.put(name, coerce(name, values, (GraphQLInputType) GraphQLTypeUtil.unwrapNonNull(keyType)));
		});
		return new ExportTarget(connection, arguments(coordinates, field, given), parentKey, parentType);
	}

	/**
	 * That every {@code --arg} names an argument of the connection's field or a key field of its parent, and none
	 * a Relay argument.
	 */
	private static void checkNames(String coordinates, GraphQLFieldDefinition field, Set<String> parentKeys,
			Set<String> given) {
		Set<String> known = new TreeSet<>(parentKeys);
		for (GraphQLArgument argument : field.getArguments()) {
			if (!ConnectionQueries.RELAY_ARGUMENTS.contains(argument.getName())) {
				known.add(argument.getName());
			}
		}
		for (String name : given) {
			if (ConnectionQueries.RELAY_ARGUMENTS.contains(name)) {
				throw ExportException.usage(("`--arg %s`: an export reads the whole connection; `first`, `after`, `last` "
						+ "and `before` are not taken (use --resume to continue an export).").formatted(name));
			}
			if (!known.contains(name)) {
				throw ExportException.usage("`--arg %s`: `%s` takes no argument `%s`. It takes: %s.".formatted(name,
						coordinates, name, known.isEmpty() ? "none" : String.join(", ", known)));
			}
		}
	}

	/** The field's arguments, given or by default; a non-null one without either is a usage error. */
	private static Map<String, Object> arguments(String coordinates, GraphQLFieldDefinition field,
			Map<String, List<String>> given) {
		Map<String, Object> arguments = new LinkedHashMap<>();
		for (GraphQLArgument argument : field.getArguments()) {
			String name = argument.getName();
			if (ConnectionQueries.RELAY_ARGUMENTS.contains(name)) {
				continue;
			}
			List<String> values = given.get(name);
			Object value;
			if (values != null) {
				value = coerce(name, values, argument.getType());
			}
			else if (argument.hasSetDefaultValue()) {
				value = ValuesResolver.valueToInternalValue(argument.getArgumentDefaultValue(), argument.getType(),
						GraphQLContext.getDefault(), Locale.ROOT);
			}
			else if (argument.getType() instanceof GraphQLNonNull) {
				throw ExportException.usage("`%s` needs `--arg %s=...` (%s).".formatted(coordinates, name,
						GraphQLTypeUtil.simplePrint(argument.getType())));
			}
			else {
				continue;
			}
			if (value != null) {
				arguments.put(name, value);
			}
		}
		return arguments;
	}

	/**
	 * The query of the connection for these arguments under {@code parent}; empty when the parent holds
	 * no value for the connection's key (the connection is then empty, as in GraphQL).
	 * @throws ExportException (exit code 2) for arguments the connection refuses
	 */
	Optional<ConnectionQuery> query(dev.dynamorelay.model.Item parent) {
		Function<String, Object> values = this.arguments::get;
		try {
			Optional<AttributeValue> partition = this.connection.partition()
				.flatMap((key) -> key.value(values, parent));
			if (this.connection.partition().isPresent() && partition.isEmpty()) {
				return Optional.empty();
			}
			return Optional.of(ConnectionQueries.query(this.connection, partition, values, List.of()));
		}
		catch (ApiException ex) {
			throw ExportException.usage(ex.getMessage());
		}
	}

	/**
	 * Coerces the strings of one {@code --arg} as GraphQL coerces a variable's value of {@code type}; a
	 * list from a repeated {@code --arg} or one split at its commas.
	 */
	private static Object coerce(String name, List<String> strings, GraphQLInputType type) {
		try {
			return ArgumentText.coerce(name, strings, type, true);
		}
		catch (ApiException ex) {
			throw ExportException.usage("`--arg %s`: %s".formatted(name, ex.getMessage()));
		}
	}

	/** Every declared connection's coordinates, for messages. */
	private static List<String> connections(Declarations declarations) {
		return declarations.connections()
			.stream()
			.map(DeclaredConnection::name)
			.sorted()
			.toList();
	}

	/** The key of the parent named by {@link #parentKey}: its table's key attributes. */
	Map<String, AttributeValue> parentItemKey() {
		try {
			return this.parentType.key(this.parentKey::get);
		}
		catch (ApiException ex) {
			throw ExportException.usage(ex.getMessage());
		}
	}

}
