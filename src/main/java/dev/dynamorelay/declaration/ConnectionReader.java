package dev.dynamorelay.declaration;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

import graphql.language.Directive;
import graphql.language.FieldDefinition;
import graphql.language.InputValueDefinition;
import graphql.language.ObjectTypeDefinition;
import graphql.schema.FieldCoordinates;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

import dev.dynamorelay.declaration.DeclaredConnection.FilterArgument;
import dev.dynamorelay.declaration.DeclaredConnection.SortArgument;
import dev.dynamorelay.model.ConnectionDefinition;
import dev.dynamorelay.model.Entity;
import dev.dynamorelay.model.Item;
import dev.dynamorelay.model.KeyAttribute;
import dev.dynamorelay.model.KeyTemplate;
import dev.dynamorelay.model.KeyValue;
import dev.dynamorelay.model.Table.Index;
import dev.dynamorelay.model.Table;
import dev.dynamorelay.schema.Location;
import dev.dynamorelay.schema.Problem.IndexMistake;
import dev.dynamorelay.schema.Problem.KeyMistake;
import dev.dynamorelay.schema.Problem.MissingArgument;
import dev.dynamorelay.schema.Problem.NotStored;
import dev.dynamorelay.schema.Problem.UnknownName;
import dev.dynamorelay.schema.Problem.UnsupportedCombination;
import dev.dynamorelay.schema.Problem.UselessArgument;
import dev.dynamorelay.schema.Problem.WrongAnswer;

import static dev.dynamorelay.declaration.Directives.argument;
import static dev.dynamorelay.declaration.Directives.bool;
import static dev.dynamorelay.declaration.Directives.directive;
import static dev.dynamorelay.declaration.Directives.isOrder;
import static dev.dynamorelay.declaration.Directives.string;
import static dev.dynamorelay.declaration.Directives.typeName;

/** Reads a connection field ({@code @query}, {@code @scan}) into the engine's definition of its reads and the arguments that fill them. */
final class ConnectionReader {

	private final Reading reading;

	private final KeyValueReader keys;

	private final ArgumentReader arguments;

	ConnectionReader(Reading reading, KeyValueReader keys, ArgumentReader arguments) {
		this.reading = reading;
		this.keys = keys;
		this.arguments = arguments;
	}

	private static final Set<String> RELAY_ARGUMENTS = Set.of("first", "after", "last", "before");

	/** Reads a {@code @query} connection: a Query of one partition of a table or index. */
	void query(ObjectTypeDefinition type, Entity parent, FieldDefinition field, Directive directive) {
		Reads reads = reads(type, field, directive);
		if (reads == null) {
			return;
		}
		String coordinates = reads.coordinates();
		if (argument(field, "last") == null || argument(field, "before") == null) {
			this.reading.problem(field, MissingArgument::new,
					"connection `%s` reads a key range and needs `last` and `before` too (Relay "
				.formatted(coordinates) + "clients page backwards with them).");
		}
		KeyAttribute partitionKey = reads.partitionKey();
		Optional<KeyAttribute> sortKey = reads.sortKey();
		ConnectionDefinition<Item> definition = ConnectionDefinition.query(coordinates, reads.table().physicalName(),
				reads.index().map(Index::name), reads.global(), partitionKey, sortKey, reads.position(),
				reads.consistent(), reads.typing());
		Optional<KeyValue> partition = partition(reads, field, parent, directive);
		if (partition.isEmpty()) {
			return;
		}
		String sortKeyPrefix = sortKeyPrefix(reads, directive);
		List<SortArgument> sortArguments = new ArrayList<>();
		Optional<String> order = Optional.empty();
		for (InputValueDefinition argument : field.getInputValueDefinitions()) {
			Directive sortDirective = directive(argument, "sortKey");
			if (sortDirective != null) {
				SortArgument sort = this.arguments.sortArgument(argument, sortDirective, sortKey, sortKeyPrefix,
						reads.nodes(), coordinates);
				if (sort != null) {
					sortArguments.add(sort);
				}
			}
			if (isOrder(argument)) {
				order = Optional.of(argument.getName());
			}
		}
		List<KeyAttribute> readKeys = sortKey.isPresent() ? List.of(partitionKey, sortKey.get()) : List.of(partitionKey);
		List<FilterArgument> filters = filters(reads, field, readKeys, (argument) -> {
			if (!isPlaceholder(argument.getName(), directive, partitionKey)) {
				this.reading.problem(argument, UselessArgument::new,
						("argument `%s` of `%s` does nothing: give it `@sortKey` or `@filter`, "
						+ "use it in the `partitionKey` template, or remove it.").formatted(argument.getName(), coordinates));
			}
		});
		add(type, field, reads, definition, partition, sortKeyPrefix, sortArguments, filters, order);
	}

	/** Reads a {@code @scan} connection: a Scan of a whole table or index, forwards only. */
	void scan(ObjectTypeDefinition type, Entity parent, FieldDefinition field, Directive directive) {
		Reads reads = reads(type, field, directive);
		if (reads == null) {
			return;
		}
		String coordinates = reads.coordinates();
		ConnectionDefinition<Item> definition = ConnectionDefinition.scan(coordinates, reads.table().physicalName(),
				reads.index().map(Index::name), reads.global(), reads.position(), reads.consistent(), reads.typing());
		for (InputValueDefinition argument : field.getInputValueDefinitions()) {
			if (directive(argument, "sortKey") != null) {
				this.reading.problem(argument, UnsupportedCombination::new,
						"`%s` is a Scan, which has no key range: `@sortKey` needs `@query`."
					.formatted(coordinates));
			}
			if (isOrder(argument)) {
				this.reading.problem(argument, UnsupportedCombination::new,
						"`%s` is a Scan, which reads in DynamoDB's order only: remove `%s`."
					.formatted(coordinates, argument.getName()));
			}
		}
		List<FilterArgument> filters = filters(reads, field, List.of(),
				(argument) -> this.reading.problem(argument, UselessArgument::new,
						("argument `%s` of `%s` does nothing: a Scan has no key to "
						+ "fill; give it `@filter`, or remove it.").formatted(argument.getName(), coordinates)));
		add(type, field, reads, definition, Optional.empty(), "", List.of(), filters, Optional.empty());
	}

	/**
	 * What a connection reads, as its field and directive declare it, whichever way it reads.
	 *
	 * @param coordinates the field, as {@code Type.field}
	 * @param nodes the types its items are
	 * @param table their table
	 * @param index the index read, if any
	 * @param consistent whether reads are strongly consistent
	 * @param position the attributes of an item's position in the reads
	 * @param inTable every type stored in the table
	 * @param typing what tells an item of the table as one of {@code nodes}
	 */
	private record Reads(String coordinates, List<Entity> nodes, Table table, Optional<Index> index, boolean consistent,
			List<KeyAttribute> position, List<Entity> inTable, Function<Map<String, AttributeValue>, Item> typing) {

		boolean global() {
			return this.index.map(Index::global).orElse(false);
		}

		KeyAttribute partitionKey() {
			return this.index.map(Index::partitionKey).orElse(this.table.partitionKey());
		}

		Optional<KeyAttribute> sortKey() {
			return this.index.isPresent() ? this.index.get().sortKey() : this.table.sortKey();
		}

	}

	/** What a connection reads; null after a problem that leaves nothing further to check. */
	private Reads reads(ObjectTypeDefinition type, FieldDefinition field, Directive directive) {
		String coordinates = type.getName() + "." + field.getName();
		List<Entity> nodes = connectionNodes(field, coordinates);
		if (nodes == null) {
			return null;
		}
		Table table = nodes.get(0).table();
		for (Entity node : nodes) {
			if (node.table() != table) {
				this.reading.problem(field, WrongAnswer::new,
						("`%s` returns types of two tables (`%s` in `%s`, `%s` in `%s`): a connection "
						+ "reads one.").formatted(coordinates, nodes.get(0).name(), table.name(), node.name(),
								node.table().name()));
				return null;
			}
		}
		String indexName = string(directive, "index");
		Optional<Index> index = Optional.empty();
		if (indexName != null) {
			index = Optional.ofNullable(table.indexes().get(indexName));
			if (index.isEmpty()) {
				graphql.language.Node<?> wrong = Directives.argumentValue(directive, "index");
				this.reading.problem(UnknownName.orElse(Location.of(wrong), "`%s` reads index `%s`, which table `%s` "
					.formatted(coordinates, indexName, table.name()) + "does not declare", indexName,
						table.indexes().keySet(), "add `@globalIndex` or `@localIndex` to a type of that table."));
				return null;
			}
		}
		boolean consistent = bool(directive, "consistentRead", false);
		if (consistent && index.isPresent() && index.get().global()) {
			graphql.language.Node<?> wrong = Directives.argumentValue(directive, "consistentRead");
			this.reading.problem(wrong, IndexMistake::new,
					("`%s` asks for consistent reads of global index `%s`: DynamoDB reads global "
					+ "indexes eventually consistently only; remove `consistentRead`.").formatted(coordinates, indexName));
		}
		for (String relay : List.of("first", "after")) {
			if (argument(field, relay) == null) {
				this.reading.problem(field, MissingArgument::new,
						"connection `%s` needs the argument `%s` (Relay: first, after, last, before)."
					.formatted(coordinates, relay));
			}
		}
		List<Entity> inTable = this.reading.entities.values().stream().filter((entity) -> entity.table() == table).toList();
		return new Reads(coordinates, nodes, table, index, consistent, positionKey(table, index), inTable,
				Declarations.typing(inTable, nodes));
	}

	/** The partition key's template, explicit or {@code {<partition key attribute>}}, bound to its sources. */
	private Optional<KeyValue> partition(Reads reads, FieldDefinition field, Entity parent, Directive directive) {
		KeyAttribute partitionKey = reads.partitionKey();
		String template = string(directive, "partitionKey");
		boolean defaulted = template == null;
		return this.keys.keyValue(partitionKey.name(), defaulted ? "{" + partitionKey.name() + "}" : template,
				KeyValueReader.keyValueType(partitionKey, reads.nodes()), KeyValue.MAX_PARTITION_KEY_BYTES, field, parent,
				directive, reads.coordinates(), defaulted,
				(reads.nodes().size() == 1) ? reads.nodes().get(0).fields() : Map.of());
	}

	/** The sort key prefix: explicit, or the node type's {@code @key} sort prefix on the table's own key. */
	private String sortKeyPrefix(Reads reads, Directive directive) {
		String sortKeyPrefix = "";
		String explicitPrefix = string(directive, "sortKeyPrefix");
		List<Entity> nodes = reads.nodes();
		if (explicitPrefix != null) {
			sortKeyPrefix = explicitPrefix;
		}
		else if (reads.index().isEmpty() && nodes.size() == 1 && nodes.get(0).sort().isPresent()
				&& !nodes.get(0).sort().get().isPlaceholder()) {
			sortKeyPrefix = nodes.get(0).sort().get().constantPrefix();
		}
		Optional<KeyAttribute> sortKey = reads.sortKey();
		if (!sortKeyPrefix.isEmpty() && (sortKey.isEmpty() || sortKey.get().type() != ScalarAttributeType.S)) {
			this.reading.problem(directive, KeyMistake::new,
					"`%s` has a sort key prefix, but its %s has no string sort key."
				.formatted(reads.coordinates(), reads.index().map((i) -> "index").orElse("table")));
		}
		return sortKeyPrefix;
	}

	/**
	 * The connection's {@code @filter} arguments; an argument that is neither a filter, a sort-key argument,
	 * a Relay argument nor the order goes to {@code other}.
	 */
	private List<FilterArgument> filters(Reads reads, FieldDefinition field, List<KeyAttribute> readKeys,
			Consumer<InputValueDefinition> other) {
		List<FilterArgument> filters = new ArrayList<>();
		for (InputValueDefinition argument : field.getInputValueDefinitions()) {
			Directive filter = directive(argument, "filter");
			if (filter != null) {
				FilterArgument one = this.arguments.filterArgument(argument, filter, reads.nodes(), reads.coordinates(),
						readKeys);
				if (one != null) {
					filters.add(one);
				}
			}
			else if (directive(argument, "sortKey") == null && !RELAY_ARGUMENTS.contains(argument.getName())
					&& !isOrder(argument)) {
				other.accept(argument);
			}
		}
		return filters;
	}

	/** Declares the connection, counting only its own items where its reads may match the table's other types. */
	private void add(ObjectTypeDefinition type, FieldDefinition field, Reads reads, ConnectionDefinition<Item> definition,
			Optional<KeyValue> partition, String sortKeyPrefix, List<SortArgument> sortArguments,
			List<FilterArgument> filters, Optional<String> order) {
		if (reads.inTable().size() > reads.nodes().size()) {
			List<String> telling = new ArrayList<>();
			reads.position().forEach((attribute) -> telling.add(attribute.name()));
			reads.table().typeAttribute().ifPresent(telling::add);
			definition = definition.withTypedCount(telling);
		}
		this.reading.connections.add(new DeclaredConnection(FieldCoordinates.coordinates(type.getName(), field.getName()),
				definition, partition, sortKeyPrefix, sortArguments, filters, order, reads.nodes()));
	}

	private boolean isPlaceholder(String argument, Directive directive, KeyAttribute partitionKey) {
		String template = string(directive, "partitionKey");
		if (template == null) {
			return argument.equals(partitionKey.name());
		}
		try {
			return KeyTemplate.parse(template).placeholders().contains(argument);
		}
		catch (IllegalArgumentException ex) {
			return false;
		}
	}

	/**
	 * The position of an item in a read: the keys of {@code ExclusiveStartKey} (the index keys, then the
	 * table keys), each once.
	 */
	private static List<KeyAttribute> positionKey(Table table, Optional<Index> index) {
		List<KeyAttribute> position = new ArrayList<>();
		if (index.isPresent()) {
			position.add(index.get().partitionKey());
			index.get().sortKey().ifPresent(position::add);
		}
		for (KeyAttribute attribute : table.primaryKey()) {
			if (position.stream().noneMatch((known) -> known.name().equals(attribute.name()))) {
				position.add(attribute);
			}
		}
		return position;
	}

	/** The node types of a connection field: its Connection type's edges' node type, made concrete. */
	private List<Entity> connectionNodes(FieldDefinition field, String coordinates) {
		String connectionName = typeName(field.getType());
		ObjectTypeDefinition connection = this.reading.objectType(connectionName);
		FieldDefinition edges = (connection != null) ? this.reading.field(connection, "edges") : null;
		if (connection == null || edges == null || this.reading.field(connection, "pageInfo") == null) {
			this.reading.problem(field, WrongAnswer::new,
					("`%s` returns `%s`, which is no connection type: return `XConnection` (with `edges` and "
					+ "`pageInfo`, or left undefined to be generated) for a node type `X`.")
				.formatted(coordinates, connectionName));
			return null;
		}
		ObjectTypeDefinition edge = this.reading.objectType(typeName(edges.getType()));
		FieldDefinition node = (edge != null) ? this.reading.field(edge, "node") : null;
		if (node == null) {
			this.reading.problem(field, WrongAnswer::new, "`%s`'s edges have no `node` field.".formatted(connectionName));
			return null;
		}
		String nodeType = typeName(node.getType());
		Entity entity = this.reading.entities.get(nodeType);
		if (entity != null) {
			return List.of(entity);
		}
		if (this.reading.isUnreadable(nodeType)) {
			return null;
		}
		List<Entity> members = this.reading.abstractTypes.get(nodeType);
		if (members == null || members.isEmpty()) {
			this.reading.problem(field, NotStored::new,
					("`%s`'s node type `%s` is stored in no table: give `%s` a `@table` (or make it an "
					+ "interface or union of such types).").formatted(coordinates, nodeType, nodeType));
			return null;
		}
		return members;
	}

}
