package dev.dynamorelay.transport.web;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import graphql.language.AstPrinter;
import graphql.parser.Parser;
import graphql.schema.GraphQLArgument;
import graphql.schema.GraphQLEnumType;
import graphql.schema.GraphQLFieldDefinition;
import graphql.schema.GraphQLFieldsContainer;
import graphql.schema.GraphQLInputType;
import graphql.schema.GraphQLInterfaceType;
import graphql.schema.GraphQLNamedType;
import graphql.schema.GraphQLObjectType;
import graphql.schema.GraphQLOutputType;
import graphql.schema.GraphQLScalarType;
import graphql.schema.GraphQLSchema;
import graphql.schema.GraphQLType;
import graphql.schema.GraphQLTypeUtil;
import graphql.schema.GraphQLUnionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

import dev.dynamorelay.declaration.Declarations;
import dev.dynamorelay.declaration.DeclaredConnection;
import dev.dynamorelay.declaration.DeclaredSubscription;
import dev.dynamorelay.model.Entity;
import dev.dynamorelay.model.KeyAttribute;
import dev.dynamorelay.model.KeyTemplate;
import dev.dynamorelay.model.ValueType;

/**
 * The served schema's root connections as the pages show them: {@code /} lists and pages through them, and
 * {@code /graphiql} starts with a ready query on one of them. Served as JSON at {@link WebPages#DESCRIPTION}.
 *
 * <p>Built on the server rather than from introspection in the browser because introspection does not tell
 * what the pages need: which subscription keeps a connection live ({@code @live} is a directive of the
 * schema files, not of the served schema), and by which node field a connection is sorted, where a live
 * change's edge belongs in the list shown. It holds nothing that introspection does not show but those two
 * (no table, index or attribute name), and is not served when introspection is closed.
 *
 * @param sample whether the sample schema is served (the fields the purchases page uses are there)
 * @param readyQuery the query GraphiQL starts with; empty when the schema has no root connection
 * @param readyVariables its variables, as JSON
 * @param connections the root connections: {@code Query} fields that return a Relay connection
 */
public record ServedConnections(boolean sample, String readyQuery, String readyVariables,
		List<Connection> connections) {

	/** How many items a page asks for: as many as fit a screen or two. */
	static final int PAGE = 20;

	/** How many items GraphiQL's ready query asks for. */
	static final int READY_PAGE = 5;

	/** Arguments the pages set themselves, never asked of the user. */
	private static final List<String> PAGING = List.of("first", "after", "last", "before");

	public ServedConnections {
		connections = List.copyOf(connections);
	}

	/**
	 * A root connection.
	 *
	 * @param field the {@code Query} field
	 * @param description its description, if any
	 * @param type the connection type
	 * @param arguments its arguments but the paging ones, required ones first
	 * @param nodeSelection the selection of a node: its scalar fields (per type for an interface or union)
	 * @param sortField the node field whose value orders the connection, if one does (null for a Scan)
	 * @param sortNumeric whether that field's values compare as numbers (else as strings)
	 * @param descending whether the connection's default order is descending
	 * @param live the subscription that keeps it live, if one does
	 */
	public record Connection(String field, String description, String type, List<Argument> arguments,
			String nodeSelection, String sortField, boolean sortNumeric, boolean descending, Live live) {

		public Connection {
			arguments = List.copyOf(arguments);
		}

	}

	/**
	 * An argument of a connection.
	 *
	 * @param name its name
	 * @param type its type as GraphQL writes it, e.g. {@code String!}
	 * @param required whether a value must be given (non-null, no default)
	 * @param input how a page asks for it: {@code text}, {@code integer}, {@code number}, {@code boolean},
	 * {@code enum} or {@code json} (lists and input objects)
	 * @param values an enum's values; empty otherwise
	 * @param defaultValue its default as GraphQL writes it; null when it has none
	 */
	public record Argument(String name, String type, boolean required, String input, List<String> values,
			String defaultValue) {

		public Argument {
			values = List.copyOf(values);
		}

	}

	/**
	 * The subscription that keeps a connection live ({@code @live}).
	 *
	 * @param field the {@code Subscription} field
	 * @param arguments its arguments (with their types) but {@code after}, which the connection's arguments of
	 * the same name fill
	 * @param after the argument that resumes after an event id, if any
	 * @param edge the change type's edge field, if any
	 * @param deletedId the change type's field for the id of an item that left, if any
	 * @param eventId the change type's event id field, if any
	 */
	public record Live(String field, Map<String, String> arguments, String after, String edge, String deletedId,
			String eventId) {

		public Live {
			arguments = new LinkedHashMap<>(arguments);
		}

	}

	/** The description of what {@code schema} serves, {@code declarations} being its declared reads. */
	public static ServedConnections of(GraphQLSchema schema, Declarations declarations) {
		List<Connection> connections = new ArrayList<>();
		for (GraphQLFieldDefinition field : schema.getQueryType().getFieldDefinitions()) {
			GraphQLObjectType type = connectionType(field.getType());
			if (type == null) {
				continue;
			}
			connections.add(connection(schema, declarations, field, type));
		}
		// Ready query: a connection the user can run as it is first (no argument to fill), then by name.
		Optional<Connection> ready = connections.stream()
			.min(Comparator.comparing((Connection connection) -> connection.arguments().stream().anyMatch(Argument::required))
				.thenComparing(Connection::field));
		boolean sample = servesSample(schema);
		return new ServedConnections(sample, ready.map(ServedConnections::readyQuery).orElse(""),
				ready.map(ServedConnections::readyVariables).orElse("{}"), connections);
	}

	/**
	 * Whether the purchases page can run on {@code schema}: the fields it uses are there, as the sample
	 * serves them, whichever files declare them.
	 */
	static boolean servesSample(GraphQLSchema schema) {
		GraphQLObjectType query = schema.getQueryType();
		GraphQLObjectType mutation = schema.getMutationType();
		GraphQLObjectType subscription = schema.getSubscriptionType();
		if (mutation == null || subscription == null || query.getFieldDefinition("users") == null
				|| query.getFieldDefinition("user") == null
				|| query.getFieldDefinition("user").getArgument("userId") == null
				|| mutation.getFieldDefinition("addPurchase") == null
				|| mutation.getFieldDefinition("removePurchase") == null
				|| subscription.getFieldDefinition("purchaseChanges") == null) {
			return false;
		}
		GraphQLType user = GraphQLTypeUtil.unwrapAll(query.getFieldDefinition("user").getType());
		return user instanceof GraphQLObjectType object && object.getFieldDefinition("purchases") != null;
	}

	/** The connection type a field returns: edges with cursor and node, and pageInfo; null for any other. */
	private static GraphQLObjectType connectionType(GraphQLOutputType type) {
		if (GraphQLTypeUtil.isList(GraphQLTypeUtil.unwrapNonNull(type))
				|| !(GraphQLTypeUtil.unwrapAll(type) instanceof GraphQLObjectType object)) {
			return null;
		}
		GraphQLFieldDefinition edges = object.getFieldDefinition("edges");
		if (edges == null || object.getFieldDefinition("pageInfo") == null
				|| !GraphQLTypeUtil.isList(GraphQLTypeUtil.unwrapNonNull(edges.getType()))
				|| !(GraphQLTypeUtil.unwrapAll(edges.getType()) instanceof GraphQLObjectType edge)
				|| edge.getFieldDefinition("cursor") == null || edge.getFieldDefinition("node") == null) {
			return null;
		}
		return object;
	}

	private static Connection connection(GraphQLSchema schema, Declarations declarations, GraphQLFieldDefinition field,
			GraphQLObjectType type) {
		List<Argument> arguments = field.getArguments()
			.stream()
			.filter((argument) -> !PAGING.contains(argument.getName()))
			.map(ServedConnections::argument)
			.sorted(Comparator.comparing((Argument argument) -> !argument.required()))
			.toList();
		GraphQLObjectType edge = (GraphQLObjectType) GraphQLTypeUtil.unwrapAll(type.getFieldDefinition("edges").getType());
		GraphQLNamedType node = (GraphQLNamedType) GraphQLTypeUtil.unwrapAll(edge.getFieldDefinition("node").getType());
		String selection = selection(schema, node);
		Optional<DeclaredConnection> declared = declarations.connections()
			.stream()
			.filter((connection) -> connection.coordinates().getTypeName().equals(schema.getQueryType().getName())
					&& connection.coordinates().getFieldName().equals(field.getName()))
			.findFirst();
		SortField sort = declared.map(ServedConnections::sortField).orElse(null);
		boolean descending = declared.flatMap(DeclaredConnection::orderArgument)
			.flatMap((order) -> arguments.stream().filter((argument) -> argument.name().equals(order)).findFirst())
			.map((order) -> "DESC".equals(order.defaultValue()))
			.orElse(false);
		Live live = declared.flatMap((connection) -> declarations.subscriptions()
			.stream()
			.filter((subscription) -> subscription.connection().coordinates().equals(connection.coordinates()))
			.findFirst())
			.map((subscription) -> live(schema, subscription))
			.orElse(null);
		return new Connection(field.getName(), field.getDescription(), type.getName(), arguments, selection,
				(sort != null) ? sort.field() : null, sort != null && sort.numeric(), descending, live);
	}

	private static Argument argument(GraphQLArgument argument) {
		GraphQLInputType type = argument.getType();
		boolean required = GraphQLTypeUtil.isNonNull(type) && !argument.hasSetDefaultValue();
		GraphQLType unwrapped = GraphQLTypeUtil.unwrapNonNull(type);
		String input;
		List<String> values = List.of();
		if (unwrapped instanceof GraphQLEnumType enumeration) {
			input = "enum";
			values = enumeration.getValues().stream().map((value) -> value.getName()).toList();
		}
		else if (unwrapped instanceof GraphQLScalarType scalar) {
			input = switch (scalar.getName()) {
				case "Int", "Long" -> "integer";
				case "Float" -> "number";
				case "Boolean" -> "boolean";
				default -> "text";
			};
		}
		else {
			input = "json";
		}
		String defaultValue = null;
		if (argument.hasSetDefaultValue() && argument.getArgumentDefaultValue().isLiteral()
				&& argument.getArgumentDefaultValue().getValue() instanceof graphql.language.Value<?> literal) {
			defaultValue = AstPrinter.printAst(literal);
		}
		else if (argument.hasSetDefaultValue()) {
			defaultValue = String.valueOf(argument.getArgumentDefaultValue().getValue());
		}
		return new Argument(argument.getName(), GraphQLTypeUtil.simplePrint(type), required, input, values,
				defaultValue);
	}

	/**
	 * A node's selection: its scalar and enum fields (their leaves); for an interface, its own such fields and
	 * those of each object type that implements it; for a union, those of each member. {@code __typename}
	 * first when the node can be of several types. A field of a member whose type differs from a field of the
	 * same name selected before is aliased {@code <field><Type>}: GraphQL refuses one name of two types.
	 */
	static String selection(GraphQLSchema schema, GraphQLNamedType node) {
		Map<String, String> seen = new LinkedHashMap<>();
		if (node instanceof GraphQLObjectType object) {
			String leaves = leaves(object, seen);
			// A node of object fields only: a selection must select something.
			return leaves.isEmpty() ? "__typename" : leaves;
		}
		List<GraphQLObjectType> members;
		String own = "";
		if (node instanceof GraphQLInterfaceType abstractType) {
			members = schema.getImplementations(abstractType);
			own = leaves(abstractType, seen);
		}
		else if (node instanceof GraphQLUnionType union) {
			members = union.getTypes().stream().map(GraphQLObjectType.class::cast).toList();
		}
		else {
			return "__typename";
		}
		StringBuilder selection = new StringBuilder("__typename");
		if (!own.isEmpty()) {
			selection.append(' ').append(own);
		}
		members.stream().sorted(Comparator.comparing(GraphQLObjectType::getName)).forEach((member) -> {
			String leaves = leaves(member, seen);
			if (!leaves.isEmpty()) {
				selection.append(" ... on ").append(member.getName()).append(" { ").append(leaves).append(" }");
			}
		});
		return selection.toString();
	}

	/**
	 * The fields of {@code type} that are scalars or enums (or lists of them) and take no required argument;
	 * {@code seen}: the types of the names selected so far.
	 */
	private static String leaves(GraphQLFieldsContainer type, Map<String, String> seen) {
		return type.getFieldDefinitions()
			.stream()
			.filter((field) -> GraphQLTypeUtil.isLeaf(GraphQLTypeUtil.unwrapAll(field.getType())))
			.filter((field) -> field.getArguments()
				.stream()
				.noneMatch((argument) -> GraphQLTypeUtil.isNonNull(argument.getType()) && !argument.hasSetDefaultValue()))
			.map((field) -> {
				String shape = GraphQLTypeUtil.simplePrint(field.getType());
				String before = seen.putIfAbsent(field.getName(), shape);
				return (before == null || before.equals(shape)) ? field.getName()
						: field.getName() + type.getName() + ": " + field.getName();
			})
			.collect(Collectors.joining(" "));
	}

	/** A node field that orders a connection, and whether its values compare as numbers. */
	private record SortField(String field, boolean numeric) {
	}

	/**
	 * The node field whose value the connection's sort key holds, for every type the connection returns: the
	 * key's template is that one field, after constant text at most (so that the field's order is the key's);
	 * null for a Scan, a connection without a sort key, or one whose types disagree.
	 */
	private static SortField sortField(DeclaredConnection connection) {
		if (connection.definition().isScan() || connection.definition().sortKey().isEmpty()) {
			return null;
		}
		KeyAttribute key = connection.definition().sortKey().get();
		Optional<String> index = connection.definition().index();
		SortField found = null;
		for (Entity entity : connection.nodes()) {
			SortField field = sortField(entity, key, index);
			if (field == null || (found != null && !found.equals(field))) {
				return null;
			}
			found = field;
		}
		return found;
	}

	private static SortField sortField(Entity entity, KeyAttribute key, Optional<String> index) {
		Optional<Entity.AttributeField> stored = entity.fieldOf(key.name());
		if (stored.isPresent()) {
			return new SortField(stored.get().name(), numeric(stored.get().type(), key));
		}
		Optional<KeyTemplate> template = index.isEmpty() ? entity.sort()
				: Optional.ofNullable(entity.indexKeys().get(index.get())).flatMap(Entity.IndexKey::sort);
		if (template.isEmpty() || template.get().placeholders().size() != 1) {
			return null;
		}
		List<KeyTemplate.Part> parts = template.get().parts();
		if (!parts.get(parts.size() - 1).isConstant() && parts.stream().filter(KeyTemplate.Part::isConstant).count() <= 1) {
			Entity.AttributeField field = entity.fields().get(template.get().placeholders().get(0));
			return (field != null) ? new SortField(field.name(), numeric(field.type(), key)) : null;
		}
		return null;
	}

	/** Whether values compare as numbers: a number stored as a number (a timestamp is served as ISO text). */
	private static boolean numeric(ValueType type, KeyAttribute key) {
		return type instanceof ValueType.Number && key.type() == ScalarAttributeType.N;
	}

	private static Live live(GraphQLSchema schema, DeclaredSubscription subscription) {
		GraphQLFieldDefinition field = schema.getSubscriptionType().getFieldDefinition(subscription.coordinates().getFieldName());
		Map<String, String> arguments = new LinkedHashMap<>();
		for (GraphQLArgument argument : field.getArguments()) {
			if (!subscription.after().filter(argument.getName()::equals).isPresent()) {
				arguments.put(argument.getName(), GraphQLTypeUtil.simplePrint(argument.getType()));
			}
		}
		DeclaredSubscription.ChangeType change = subscription.change();
		return new Live(field.getName(), arguments, subscription.after().orElse(null), change.edge().orElse(null),
				change.deletedId().orElse(null), change.eventId().orElse(null));
	}

	/**
	 * GraphiQL's ready query: the connection's first page ({@code first}, each edge's cursor and node, pageInfo),
	 * its required arguments as variables, with comments that say how to page on.
	 */
	static String readyQuery(Connection connection) {
		List<Argument> required = connection.arguments().stream().filter(Argument::required).toList();
		StringBuilder query = new StringBuilder();
		// Lines of at most some 50 characters: what GraphiQL's editor shows without scrolling on a laptop.
		query.append("# ").append(connection.field()).append(": a Relay cursor connection read\n")
			.append("# from DynamoDB, ").append(READY_PAGE).append(" at a time.\n#\n");
		if (!required.isEmpty()) {
			query.append("# Set ")
				.append(required.stream().map((argument) -> "\"" + argument.name() + "\"").collect(Collectors.joining(", ")))
				.append(" in the variables below\n# to ").append(required.size() == 1 ? "a value" : "values")
				.append(" of yours.\n#\n");
		}
		query.append("# Run it (the play button or Ctrl/Cmd+Enter),\n")
			.append("# then copy pageInfo.endCursor from the result\n")
			.append("# into the \"after\" variable below and run it\n")
			.append("# again for the next page. Repeat until\n")
			.append("# hasNextPage is false. Cursors are signed and\n")
			.append("# only valid for the same connection and arguments.\n");
		String name = Character.toUpperCase(connection.field().charAt(0)) + connection.field().substring(1);
		StringBuilder document = new StringBuilder("query ").append(name).append("(");
		for (Argument argument : required) {
			document.append('$').append(argument.name()).append(": ").append(argument.type()).append(", ");
		}
		document.append("$after: String) { ").append(connection.field()).append("(");
		for (Argument argument : required) {
			document.append(argument.name()).append(": $").append(argument.name()).append(", ");
		}
		document.append("first: ").append(READY_PAGE).append(", after: $after) { edges { cursor node { ")
			.append(connection.nodeSelection())
			.append(" } } pageInfo { hasNextPage endCursor } } }");
		// graphql-java's printer lays the document out, one field a line, as GraphiQL's prettify would.
		return query.append(AstPrinter.printAst(Parser.parse(document.toString())).strip()).append('\n').toString();
	}

	/** The ready query's variables: a plausible value for each required argument, and {@code after}. */
	static String readyVariables(Connection connection) {
		StringBuilder variables = new StringBuilder("{\n");
		for (Argument argument : connection.arguments()) {
			if (argument.required()) {
				variables.append("  \"").append(argument.name()).append("\": ").append(plausible(argument)).append(",\n");
			}
		}
		return variables.append("  \"after\": null\n}").toString();
	}

	private static String plausible(Argument argument) {
		return switch (argument.input()) {
			case "integer", "number" -> "0";
			case "boolean" -> "false";
			case "enum" -> argument.values().isEmpty() ? "null" : "\"" + argument.values().get(0) + "\"";
			case "json" -> argument.type().startsWith("[") ? "[]" : "{}";
			default -> "\"" + argument.name() + "-1\"";
		};
	}

}
