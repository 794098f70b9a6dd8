package dev.dynamorelay.declaration;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

import graphql.language.Argument;
import graphql.language.AstPrinter;
import graphql.language.BooleanValue;
import graphql.language.Directive;
import graphql.language.DirectivesContainer;
import graphql.language.EnumTypeDefinition;
import graphql.language.EnumValue;
import graphql.language.FieldDefinition;
import graphql.language.InputValueDefinition;
import graphql.language.InterfaceTypeDefinition;
import graphql.language.ListType;
import graphql.language.NonNullType;
import graphql.language.ObjectTypeDefinition;
import graphql.language.StringValue;
import graphql.language.Type;
import graphql.language.TypeDefinition;
import graphql.language.TypeName;
import graphql.language.UnionTypeDefinition;
import graphql.schema.FieldCoordinates;
import graphql.schema.idl.TypeDefinitionRegistry;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

import dev.dynamorelay.declaration.DeclaredConnection.FilterArgument;
import dev.dynamorelay.declaration.DeclaredConnection.SortArgument;
import dev.dynamorelay.declaration.Entity.AttributeField;
import dev.dynamorelay.declaration.Table.Index;
import dev.dynamorelay.pagination.ConnectionDefinition;
import dev.dynamorelay.pagination.Filter;
import dev.dynamorelay.pagination.KeyAttribute;
import dev.dynamorelay.pagination.KeyCondition;
import dev.dynamorelay.schema.DeclarationException;
import dev.dynamorelay.schema.DeclarationException.Problem;
import dev.dynamorelay.schema.Location;
import dev.dynamorelay.schema.SchemaNodes;

/**
 * Reads the declarations out of a parsed schema and checks them, collecting every problem (with its
 * file and line) before failing, so that one start reports all of them.
 */
public final class DeclarationReader {

	private static final Set<String> RELAY_ARGUMENTS = Set.of("first", "after", "last", "before");

	private final TypeDefinitionRegistry registry;

	private final String prefix;

	private final List<Problem> problems = new ArrayList<>();

	private final Map<String, Table> tables = new TreeMap<>();

	private final Map<String, Entity> entities = new TreeMap<>();

	private final Map<String, List<Entity>> abstractTypes = new TreeMap<>();

	private final List<DeclaredConnection> connections = new ArrayList<>();

	private final List<DeclaredLookup> lookups = new ArrayList<>();

	/** Types whose table or key declaration has a problem: fields of theirs and of them are not checked. */
	private final Set<String> unreadable = new HashSet<>();

	private DeclarationReader(TypeDefinitionRegistry registry, String prefix) {
		this.registry = registry;
		this.prefix = prefix;
	}

	/**
	 * The declarations of {@code registry} (the merged schema files, with Connection types generated),
	 * with table names under {@code prefix}.
	 * @throws DeclarationException listing every problem found
	 */
	public static Declarations read(TypeDefinitionRegistry registry, String prefix) {
		DeclarationReader reader = new DeclarationReader(registry, prefix);
		reader.readTypes();
		reader.readFields();
		if (!reader.problems.isEmpty()) {
			throw new DeclarationException("The schema's declarations cannot be served", reader.problems);
		}
		return new Declarations(reader.tables, reader.entities, reader.connections, reader.lookups,
				reader.abstractTypes);
	}

	// ---- types and tables

	/** A type with {@code @table}, before its table's declarations from every type are merged. */
	private record Declared(ObjectTypeDefinition type, Directive table, String tableName, String partitionKey,
			Optional<String> sortKey, Optional<String> typeAttribute, Optional<String> typeValue,
			Map<String, AttributeField> fields, KeyTemplate partition, Optional<KeyTemplate> sort) {
	}

	private void readTypes() {
		List<Declared> declared = new ArrayList<>();
		for (ObjectTypeDefinition type : objectTypes()) {
			Directive table = directive(type, "table");
			if (table == null) {
				for (String name : List.of("key", "globalIndex", "localIndex")) {
					if (directive(type, name) != null) {
						problem(type, "`@%s` on `%s` needs `@table` on the same type: which table does it describe?"
							.formatted(name, type.getName()));
						this.unreadable.add(type.getName());
					}
				}
				continue;
			}
			Declared one = declare(type, table);
			if (one != null) {
				declared.add(one);
			}
			else {
				this.unreadable.add(type.getName());
			}
		}
		Map<String, List<Declared>> byTable = new TreeMap<>();
		declared.forEach((one) -> byTable.computeIfAbsent(one.tableName(), (name) -> new ArrayList<>()).add(one));
		byTable.forEach(this::declareTable);
		readAbstractTypes();
	}

	/** A type's table and keys; null when they have a problem, so that no later check reads them. */
	private Declared declare(ObjectTypeDefinition type, Directive table) {
		int problems = this.problems.size();
		String tableName = string(table, "name");
		String partitionKey = string(table, "partitionKey");
		Optional<String> sortKey = Optional.ofNullable(string(table, "sortKey"));
		if (tableName == null || tableName.isBlank() || partitionKey == null || partitionKey.isBlank()) {
			problem(table, "`@table` on `%s` needs a `name` and a `partitionKey`.".formatted(type.getName()));
			return null;
		}
		Map<String, AttributeField> fields = new LinkedHashMap<>();
		boolean node = implementsNode(type);
		for (FieldDefinition field : fields(type)) {
			if (isDeclaredField(field) || (node && field.getName().equals("id"))) {
				continue;
			}
			ValueType valueType = valueType(field.getType(), field);
			if (valueType == null) {
				continue;
			}
			Directive attribute = directive(field, "attribute");
			String name = (attribute != null) ? string(attribute, "name") : field.getName();
			fields.put(field.getName(), new AttributeField(field.getName(), name, valueType));
		}
		Directive key = directive(type, "key");
		KeyTemplate partition;
		Optional<KeyTemplate> sort = Optional.empty();
		try {
			if (key != null) {
				partition = KeyTemplate.parse(string(key, "partitionKey"));
				String sortTemplate = string(key, "sortKey");
				if (sortTemplate != null) {
					sort = Optional.of(KeyTemplate.parse(sortTemplate));
				}
			}
			else {
				partition = KeyTemplate.of(fieldOf(fields, partitionKey, type, table, "partition"));
				if (sortKey.isPresent()) {
					sort = Optional.of(KeyTemplate.of(fieldOf(fields, sortKey.get(), type, table, "sort")));
				}
			}
		}
		catch (IllegalArgumentException ex) {
			problem((key != null) ? key : table, ex.getMessage() + ".");
			return null;
		}
		if (sort.isPresent() && sortKey.isEmpty()) {
			problem(key, "`@key` of `%s` has a `sortKey`, but table `%s` declares none: add `sortKey` to `@table`."
				.formatted(type.getName(), tableName));
		}
		if (sort.isEmpty() && sortKey.isPresent()) {
			problem((key != null) ? key : table, "`%s` needs a sort key template: table `%s` has sort key `%s`."
				.formatted(type.getName(), tableName, sortKey.get()));
		}
		for (KeyTemplate template : sort.isPresent() ? List.of(partition, sort.get()) : List.of(partition)) {
			for (String placeholder : template.placeholders()) {
				AttributeField field = fields.get(placeholder);
				if (field == null) {
					problem((key != null) ? key : table, "key template `%s` of `%s` names `{%s}`, which is no field of `%s`."
						.formatted(template, type.getName(), placeholder, type.getName()));
				}
				else if (field.type().keyType().isEmpty()) {
					problem((key != null) ? key : table, "`%s.%s` is in a key but is neither a string, a number nor bytes."
						.formatted(type.getName(), placeholder));
				}
			}
		}
		if (this.problems.size() > problems) {
			return null;
		}
		return new Declared(type, table, tableName, partitionKey, sortKey,
				Optional.ofNullable(string(table, "typeAttribute")), Optional.ofNullable(string(table, "typeValue")),
				fields, partition, sort);
	}

	/** The field that holds key attribute {@code attribute} (named so, or by {@code @attribute}). */
	private String fieldOf(Map<String, AttributeField> fields, String attribute, ObjectTypeDefinition type,
			Directive table, String which) {
		for (AttributeField field : fields.values()) {
			if (field.attribute().equals(attribute)) {
				return field.name();
			}
		}
		throw new IllegalArgumentException(("`%s` has no field for the table's %s key `%s`: add a field `%s` "
				+ "(or one with `@attribute(name: \"%s\")`), or give the key's template with `@key`")
			.formatted(type.getName(), which, attribute, attribute, attribute));
	}

	private void declareTable(String name, List<Declared> types) {
		Declared first = types.get(0);
		for (Declared other : types.subList(1, types.size())) {
			if (!other.partitionKey().equals(first.partitionKey()) || !other.sortKey().equals(first.sortKey())
					|| !other.typeAttribute().equals(first.typeAttribute())) {
				problem(other.table(), ("`@table` of `%s` declares table `%s` with other keys or type attribute than "
						+ "`%s` does (%s): every type in one table declares the same `partitionKey`, `sortKey` and "
						+ "`typeAttribute`.").formatted(other.type().getName(), name, first.type().getName(),
								Location.of(first.table())));
			}
		}
		KeyAttribute partitionKey = keyAttribute(first.partitionKey(), types, true, first.table());
		Optional<KeyAttribute> sortKey = first.sortKey().map((sort) -> keyAttribute(sort, types, false, first.table()));
		Map<String, Index> indexes = new TreeMap<>();
		for (Declared type : types) {
			for (Directive directive : type.type().getDirectives()) {
				boolean global = directive.getName().equals("globalIndex");
				if (!global && !directive.getName().equals("localIndex")) {
					continue;
				}
				String indexName = string(directive, "name");
				if (!global && first.sortKey().isEmpty()) {
					problem(directive, ("local index `%s` needs table `%s` to have a sort key: DynamoDB has local indexes on "
							+ "tables with a partition and a sort key only; declare the table's `sortKey`, or "
							+ "`@globalIndex(name: \"%s\", partitionKey: \"%s\", sortKey: \"%s\")`.").formatted(indexName, name,
									indexName, first.partitionKey(), string(directive, "sortKey")));
					continue;
				}
				KeyAttribute indexPartition = global ? attributeType(string(directive, "partitionKey"), types, directive)
						: partitionKey;
				String indexSortName = string(directive, "sortKey");
				Optional<KeyAttribute> indexSort = Optional.ofNullable(indexSortName)
					.map((sort) -> attributeType(sort, types, directive));
				Index index = new Index(indexName, global, indexPartition, indexSort, Location.of(directive));
				Index known = indexes.putIfAbsent(indexName, index);
				if (known != null && !(known.global() == index.global()
						&& known.partitionKey().equals(index.partitionKey()) && known.sortKey().equals(index.sortKey()))) {
					problem(directive, "index `%s` of table `%s` is declared with other keys at %s."
						.formatted(indexName, name, known.location()));
				}
			}
		}
		Table table = new Table(name, this.prefix + name, partitionKey, sortKey, indexes, first.typeAttribute(),
				Location.of(first.table()));
		this.tables.put(name, table);
		List<Entity> inTable = new ArrayList<>();
		for (Declared type : types) {
			Entity entity = new Entity(type.type().getName(), table, type.partition(), type.sort(), type.typeValue(),
					type.fields(), implementsNode(type.type()), Location.of(type.type()));
			this.entities.put(entity.name(), entity);
			inTable.add(entity);
		}
		if (table.typeAttribute().isEmpty()) {
			for (int i = 0; i < inTable.size(); i++) {
				for (int j = i + 1; j < inTable.size(); j++) {
					Entity a = inTable.get(i);
					Entity b = inTable.get(j);
					if (sameShape(a, b)) {
						problem(types.get(j).table(), ("`%s` and `%s` share table `%s` with keys of the same shape, so "
								+ "their items cannot be told apart: give them `@key` templates with distinct constant "
								+ "text (e.g. `ORDER#{orderId}`), or `@table(typeAttribute: ...)`.")
							.formatted(a.name(), b.name(), name));
					}
				}
			}
		}
	}

	private static boolean sameShape(Entity a, Entity b) {
		return shape(a.partition()).equals(shape(b.partition()))
				&& a.sort().map(DeclarationReader::shape).equals(b.sort().map(DeclarationReader::shape));
	}

	private static String shape(KeyTemplate template) {
		StringBuilder shape = new StringBuilder();
		template.parts().forEach((part) -> shape.append(part.isConstant() ? part.text() : "{}"));
		return shape.toString();
	}

	/** A table key attribute's type: from the types' key templates, which must agree. */
	private KeyAttribute keyAttribute(String attribute, List<Declared> types, boolean partition, Directive at) {
		ScalarAttributeType found = null;
		for (Declared type : types) {
			Optional<KeyTemplate> template = partition ? Optional.of(type.partition()) : type.sort();
			if (template.isEmpty()) {
				continue;
			}
			ScalarAttributeType each = template.get().isPlaceholder()
					? type.fields().get(template.get().placeholders().get(0)).type().keyType().orElse(ScalarAttributeType.S)
					: ScalarAttributeType.S;
			if (found != null && found != each) {
				problem(type.table(), "the types of table `%s` store its key `%s` as both %s and %s."
					.formatted(type.tableName(), attribute, found, each));
			}
			found = each;
		}
		return new KeyAttribute(attribute, (found != null) ? found : ScalarAttributeType.S);
	}

	/** An index key attribute's type: from a field that stores it, else a string. */
	private KeyAttribute attributeType(String attribute, List<Declared> types, Directive at) {
		if (attribute == null || attribute.isBlank()) {
			problem(at, "`@%s` needs its key attribute names.".formatted(at.getName()));
			return KeyAttribute.string("?");
		}
		for (Declared type : types) {
			if (attribute.equals(type.partitionKey()) && type.partition().isPlaceholder()
					|| type.sortKey().filter(attribute::equals).isPresent() && type.sort().get().isPlaceholder()) {
				KeyTemplate template = attribute.equals(type.partitionKey()) ? type.partition() : type.sort().get();
				return new KeyAttribute(attribute,
						type.fields().get(template.placeholders().get(0)).type().keyType().orElse(ScalarAttributeType.S));
			}
			for (AttributeField field : type.fields().values()) {
				if (field.attribute().equals(attribute) && field.type().keyType().isPresent()) {
					return new KeyAttribute(attribute, field.type().keyType().get());
				}
			}
		}
		return KeyAttribute.string(attribute);
	}

	private void readAbstractTypes() {
		for (ObjectTypeDefinition type : objectTypes()) {
			Entity entity = this.entities.get(type.getName());
			if (entity == null) {
				continue;
			}
			for (Type<?> implemented : type.getImplements()) {
				String name = ((TypeName) implemented).getName();
				this.abstractTypes.computeIfAbsent(name, (key) -> new ArrayList<>()).add(entity);
			}
		}
		for (UnionTypeDefinition union : this.registry.getTypes(UnionTypeDefinition.class)) {
			List<Entity> members = new ArrayList<>();
			for (Type<?> member : union.getMemberTypes()) {
				Entity entity = this.entities.get(((TypeName) member).getName());
				if (entity != null) {
					members.add(entity);
				}
			}
			if (!members.isEmpty()) {
				this.abstractTypes.put(union.getName(), members);
			}
		}
	}

	// ---- fields: connections and lookups

	private void readFields() {
		for (ObjectTypeDefinition type : objectTypes()) {
			if (this.unreadable.contains(type.getName())) {
				continue;
			}
			Entity parent = this.entities.get(type.getName());
			for (FieldDefinition field : fields(type)) {
				Directive query = directive(field, "query");
				Directive scan = directive(field, "scan");
				Directive lookup = directive(field, "lookup");
				int count = ((query != null) ? 1 : 0) + ((scan != null) ? 1 : 0) + ((lookup != null) ? 1 : 0);
				if (count > 1) {
					problem(field, "`%s.%s` has more than one of `@query`, `@scan` and `@lookup`: keep one."
						.formatted(type.getName(), field.getName()));
					continue;
				}
				if (parent == null && count > 0 && !isRootType(type)) {
					problem(field, ("`%s.%s` is declared on `%s`, which has no `@table`: connections and lookups belong "
							+ "to `Query` or to a type stored in a table.").formatted(type.getName(), field.getName(),
									type.getName()));
					continue;
				}
				if (query != null || scan != null) {
					connection(type, parent, field, (query != null) ? query : scan, scan != null);
				}
				else if (lookup != null) {
					lookup(type, parent, field, lookup);
				}
				else {
					field.getInputValueDefinitions().forEach((argument) -> noConnectionArgument(type, field, argument));
				}
			}
		}
	}

	/** Reports {@code @sortKey}/{@code @filter} on an argument of a field that is no connection. */
	private void noConnectionArgument(ObjectTypeDefinition type, FieldDefinition field, InputValueDefinition argument) {
		if (directive(argument, "sortKey") != null || directive(argument, "filter") != null) {
			problem(argument, "argument `%s` of `%s.%s` has `@sortKey`/`@filter`, but the field is no "
				.formatted(argument.getName(), type.getName(), field.getName()) + "`@query` or `@scan` connection.");
		}
	}

	private void connection(ObjectTypeDefinition type, Entity parent, FieldDefinition field, Directive directive,
			boolean scan) {
		String coordinates = type.getName() + "." + field.getName();
		List<Entity> nodes = connectionNodes(field, coordinates);
		if (nodes == null) {
			return;
		}
		Table table = nodes.get(0).table();
		for (Entity node : nodes) {
			if (node.table() != table) {
				problem(field, "`%s` returns types of two tables (`%s` in `%s`, `%s` in `%s`): a connection reads one."
					.formatted(coordinates, nodes.get(0).name(), table.name(), node.name(), node.table().name()));
				return;
			}
		}
		String indexName = string(directive, "index");
		Optional<Index> index = Optional.empty();
		if (indexName != null) {
			index = Optional.ofNullable(table.indexes().get(indexName));
			if (index.isEmpty()) {
				problem(directive, "`%s` reads index `%s`, which table `%s` does not declare: add `@globalIndex` or "
					.formatted(coordinates, indexName, table.name()) + "`@localIndex` to a type of that table.");
				return;
			}
		}
		boolean consistent = bool(directive, "consistentRead", false);
		if (consistent && index.isPresent() && index.get().global()) {
			problem(directive, ("`%s` asks for consistent reads of global index `%s`: DynamoDB reads global indexes "
					+ "eventually consistently only; remove `consistentRead`.").formatted(coordinates, indexName));
		}
		for (String relay : List.of("first", "after")) {
			if (argument(field, relay) == null) {
				problem(field, "connection `%s` needs the argument `%s` (Relay: first, after, last, before)."
					.formatted(coordinates, relay));
			}
		}
		if (!scan && (argument(field, "last") == null || argument(field, "before") == null)) {
			problem(field, "connection `%s` reads a key range and needs `last` and `before` too (Relay clients page "
				.formatted(coordinates) + "backwards with them).");
		}
		KeyAttribute partitionKey = index.map(Index::partitionKey).orElse(table.partitionKey());
		Optional<KeyAttribute> sortKey = index.isPresent() ? index.get().sortKey() : table.sortKey();
		List<KeyAttribute> position = positionKey(table, index);
		List<Entity> inTable = this.entities.values().stream().filter((entity) -> entity.table() == table).toList();
		var typing = Declarations.typing(inTable, nodes);
		ConnectionDefinition<Item> definition;
		Optional<KeyValue> partition = Optional.empty();
		String sortKeyPrefix = "";
		List<SortArgument> sortArguments = new ArrayList<>();
		Optional<String> order = Optional.empty();
		if (scan) {
			definition = ConnectionDefinition.scan(coordinates, table.physicalName(), index.map(Index::name),
					index.map(Index::global).orElse(false), position, consistent, typing);
			for (InputValueDefinition argument : field.getInputValueDefinitions()) {
				if (directive(argument, "sortKey") != null) {
					problem(argument, "`%s` is a Scan, which has no key range: `@sortKey` needs `@query`."
						.formatted(coordinates));
				}
				if (isOrder(argument)) {
					problem(argument, "`%s` is a Scan, which reads in DynamoDB's order only: remove `%s`."
						.formatted(coordinates, argument.getName()));
				}
			}
		}
		else {
			definition = ConnectionDefinition.query(coordinates, table.physicalName(), index.map(Index::name),
					index.map(Index::global).orElse(false), partitionKey, sortKey, position, consistent, typing);
			String template = string(directive, "partitionKey");
			boolean defaulted = template == null;
			ValueType keyType = keyValueType(partitionKey, nodes);
			partition = keyValue(partitionKey.name(), defaulted ? "{" + partitionKey.name() + "}" : template, keyType,
					KeyValue.MAX_PARTITION_KEY_BYTES, field, parent, directive, coordinates, defaulted,
					(nodes.size() == 1) ? nodes.get(0).fields() : Map.of());
			if (partition.isEmpty()) {
				return;
			}
			String explicitPrefix = string(directive, "sortKeyPrefix");
			if (explicitPrefix != null) {
				sortKeyPrefix = explicitPrefix;
			}
			else if (index.isEmpty() && nodes.size() == 1 && nodes.get(0).sort().isPresent()
					&& !nodes.get(0).sort().get().isPlaceholder()) {
				sortKeyPrefix = nodes.get(0).sort().get().constantPrefix();
			}
			if (!sortKeyPrefix.isEmpty() && (sortKey.isEmpty() || sortKey.get().type() != ScalarAttributeType.S)) {
				problem(directive, "`%s` has a sort key prefix, but its %s has no string sort key."
					.formatted(coordinates, index.map((i) -> "index").orElse("table")));
			}
			for (InputValueDefinition argument : field.getInputValueDefinitions()) {
				Directive sortDirective = directive(argument, "sortKey");
				if (sortDirective != null) {
					SortArgument sort = sortArgument(argument, sortDirective, sortKey, sortKeyPrefix, nodes, coordinates);
					if (sort != null) {
						sortArguments.add(sort);
					}
				}
				if (isOrder(argument)) {
					order = Optional.of(argument.getName());
				}
			}
		}
		List<FilterArgument> filters = new ArrayList<>();
		for (InputValueDefinition argument : field.getInputValueDefinitions()) {
			Directive filter = directive(argument, "filter");
			if (filter != null) {
				FilterArgument one = filterArgument(argument, filter, nodes, coordinates, scan ? List.of()
						: (sortKey.isPresent() ? List.of(partitionKey, sortKey.get()) : List.of(partitionKey)));
				if (one != null) {
					filters.add(one);
				}
			}
			else if (directive(argument, "sortKey") == null && !RELAY_ARGUMENTS.contains(argument.getName())
					&& !isOrder(argument) && (scan || !isPlaceholder(argument.getName(), directive, partitionKey))) {
				problem(argument, (scan ? "argument `%s` of `%s` does nothing: a Scan has no key to fill; give it "
						+ "`@filter`, or remove it." : "argument `%s` of `%s` does nothing: give it `@sortKey` or `@filter`, "
								+ "use it in the `partitionKey` template, or remove it.").formatted(argument.getName(),
										coordinates));
			}
		}
		if (inTable.size() > nodes.size()) {
			// The reads may match items of the table's other types: totalCount counts only this connection's.
			List<String> telling = new ArrayList<>();
			position.forEach((attribute) -> telling.add(attribute.name()));
			table.typeAttribute().ifPresent(telling::add);
			definition = definition.withTypedCount(telling);
		}
		this.connections.add(new DeclaredConnection(FieldCoordinates.coordinates(type.getName(), field.getName()),
				definition, partition, sortKeyPrefix, sortArguments, filters, order, nodes));
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

	private static boolean isOrder(InputValueDefinition argument) {
		return typeName(argument.getType()).equals("SortOrder") && !(argument.getType() instanceof ListType);
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
		ObjectTypeDefinition connection = objectType(connectionName);
		FieldDefinition edges = (connection != null) ? field(connection, "edges") : null;
		if (connection == null || edges == null || field(connection, "pageInfo") == null) {
			problem(field, ("`%s` returns `%s`, which is no connection type: return `XConnection` (with `edges` and "
					+ "`pageInfo`, or left undefined to be generated) for a node type `X`.")
				.formatted(coordinates, connectionName));
			return null;
		}
		ObjectTypeDefinition edge = objectType(typeName(edges.getType()));
		FieldDefinition node = (edge != null) ? field(edge, "node") : null;
		if (node == null) {
			problem(field, "`%s`'s edges have no `node` field.".formatted(connectionName));
			return null;
		}
		String nodeType = typeName(node.getType());
		Entity entity = this.entities.get(nodeType);
		if (entity != null) {
			return List.of(entity);
		}
		if (isUnreadable(nodeType)) {
			return null;
		}
		List<Entity> members = this.abstractTypes.get(nodeType);
		if (members == null || members.isEmpty()) {
			problem(field, ("`%s`'s node type `%s` is stored in no table: give `%s` a `@table` (or make it an "
					+ "interface or union of such types).").formatted(coordinates, nodeType, nodeType));
			return null;
		}
		return members;
	}

	/** How a key attribute's value is written from an argument: as the node type's field, else by its type. */
	private static ValueType keyValueType(KeyAttribute attribute, List<Entity> nodes) {
		for (Entity node : nodes) {
			for (AttributeField field : node.fields().values()) {
				if (field.attribute().equals(attribute.name()) && field.type().keyType().equals(Optional.of(attribute.type()))) {
					return field.type();
				}
			}
		}
		return byKeyType(attribute.type());
	}

	private static ValueType byKeyType(ScalarAttributeType type) {
		return switch (type) {
			case N -> new ValueType.Number(ValueType.Number.Kind.DECIMAL);
			case B -> new ValueType.Binary();
			default -> new ValueType.Text();
		};
	}

	/**
	 * A key template with each placeholder bound to an argument of {@code field} or a field of the parent.
	 * A defaulted template ({@code {attribute}}) also finds the parent's field that stores the attribute.
	 */
	private Optional<KeyValue> keyValue(String attribute, String source, ValueType keyType, int maxBytes,
			FieldDefinition field, Entity parent, Directive at, String coordinates, boolean defaulted,
			Map<String, AttributeField> placeholderFields) {
		KeyTemplate template;
		try {
			template = KeyTemplate.parse(source);
		}
		catch (IllegalArgumentException ex) {
			problem(at, ex.getMessage() + ".");
			return Optional.empty();
		}
		Map<String, KeyValue.Source> sources = new LinkedHashMap<>();
		for (String placeholder : template.placeholders()) {
			InputValueDefinition argument = argument(field, placeholder);
			if (argument != null) {
				// In a composed key, an argument is written as the field it fills (a timestamp as its stored digits).
				AttributeField filled = placeholderFields.get(placeholder);
				ValueType type = template.isPlaceholder() ? keyType
						: (filled != null) ? filled.type() : valueType(argument.getType(), argument);
				sources.put(placeholder, new KeyValue.Source(placeholder, true, (type != null) ? type : new ValueType.Text()));
				continue;
			}
			AttributeField parentField = (parent != null) ? parent.fields().get(placeholder) : null;
			if (parentField == null && parent != null && defaulted) {
				parentField = parent.fields().values().stream()
					.filter((candidate) -> candidate.attribute().equals(placeholder))
					.findFirst()
					.orElse(null);
			}
			if (parentField != null) {
				sources.put(placeholder, new KeyValue.Source(parentField.name(), false, parentField.type()));
				continue;
			}
			String where = (parent != null) ? "no argument of `%s` and no field of `%s`".formatted(field.getName(),
					parent.name()) : "no argument of `%s`".formatted(field.getName());
			String templateArgument = (maxBytes == KeyValue.MAX_SORT_KEY_BYTES) ? "sortKey" : "partitionKey";
			problem(at, ("`%s` fills key `%s` from `{%s}`, but `%s` is %s: add the argument, or give `@%s(%s: ...)` "
					+ "a template such as `\"CUSTOMER#{customerId}\"`.").formatted(coordinates, attribute, placeholder,
							placeholder, where, at.getName(), templateArgument));
			return Optional.empty();
		}
		return Optional.of(new KeyValue(attribute, template, sources, keyType, maxBytes));
	}

	private SortArgument sortArgument(InputValueDefinition argument, Directive directive,
			Optional<KeyAttribute> sortKey, String prefix, List<Entity> nodes, String coordinates) {
		if (sortKey.isEmpty()) {
			problem(argument, "`%s(%s:)` compares the sort key, but the table or index read has none."
				.formatted(coordinates, argument.getName()));
			return null;
		}
		KeyCondition.Op op = KeyCondition.Op.valueOf(enumValue(directive, "op"));
		boolean list = unwrapNonNull(argument.getType()) instanceof ListType;
		if ((op == KeyCondition.Op.BETWEEN) != list) {
			problem(argument, (op == KeyCondition.Op.BETWEEN)
					? "`%s(%s:)` is BETWEEN: declare it as a list of two values, e.g. `[String!]`."
						.formatted(coordinates, argument.getName())
					: "`%s(%s:)` takes one value; only BETWEEN takes a list.".formatted(coordinates, argument.getName()));
			return null;
		}
		if (op == KeyCondition.Op.BEGINS_WITH && sortKey.get().type() == ScalarAttributeType.N) {
			problem(argument, "`%s(%s:)` is BEGINS_WITH, but sort key `%s` is a number."
				.formatted(coordinates, argument.getName(), sortKey.get().name()));
			return null;
		}
		if (!prefix.isEmpty() && op == KeyCondition.Op.LT) {
			problem(argument, ("`%s(%s:)` is LT on sort keys that start with `%s`: one key condition cannot say both; "
					+ "use LE, or BETWEEN.").formatted(coordinates, argument.getName(), prefix));
			return null;
		}
		ValueType type = prefix.isEmpty() ? keyValueType(sortKey.get(), nodes) : prefixedType(prefix, nodes);
		if (!prefix.isEmpty() && type instanceof ValueType.Timestamp) {
			ValueType argumentType = valueType(argument.getType(), argument);
			if (argumentType instanceof ValueType.ListOf listOf) {
				argumentType = listOf.element();
			}
			if (!(argumentType instanceof ValueType.Text)) {
				problem(argument, "`%s(%s:)` compares a timestamp in sort keys `%s...`: declare it as a `String` of ISO-8601 instants%s."
					.formatted(coordinates, argument.getName(), prefix, (op == KeyCondition.Op.BETWEEN) ? " (`[String!]`)" : ""));
				return null;
			}
		}
		if (prefix.isEmpty()) {
			ValueType argumentType = valueType(argument.getType(), argument);
			// An argument of a plain scalar on a field that stores the key otherwise (a timestamp) converts.
			if (argumentType instanceof ValueType.ListOf listOf) {
				argumentType = listOf.element();
			}
			if (type instanceof ValueType.Timestamp && !(argumentType instanceof ValueType.Text)) {
				problem(argument, "`%s(%s:)` compares timestamp `%s`: declare it as a `String` of ISO-8601 instants%s."
					.formatted(coordinates, argument.getName(), sortKey.get().name(),
							(op == KeyCondition.Op.BETWEEN) ? " (`[String!]`)" : ""));
				return null;
			}
			if (argumentType != null && !(type instanceof ValueType.Timestamp)
					&& argumentType.keyType().isPresent() && !argumentType.keyType().equals(Optional.of(sortKey.get().type()))) {
				problem(argument, "`%s(%s:)` is `%s`, but sort key `%s` is %s: declare it as %s."
					.formatted(coordinates, argument.getName(), typeName(argument.getType()), sortKey.get().name(),
							sortKey.get().type(), switch (sortKey.get().type()) {
								case N -> "`Int`, `Long`, `Float` or `Decimal`";
								case B -> "`Bytes`";
								default -> "`String`";
							}));
				return null;
			}
		}
		return new SortArgument(argument.getName(), op, type);
	}

	/**
	 * How a sort-key argument is written after a prefix: as the field of the node type's sort template
	 * that follows the prefix (a timestamp stored as epoch milliseconds is compared as those digits), or
	 * as text.
	 */
	private static ValueType prefixedType(String prefix, List<Entity> nodes) {
		if (nodes.size() == 1 && nodes.get(0).sort().isPresent()) {
			KeyTemplate sort = nodes.get(0).sort().get();
			List<KeyTemplate.Part> parts = sort.parts();
			if (parts.size() >= 2 && parts.get(0).isConstant() && parts.get(0).text().equals(prefix)
					&& !parts.get(1).isConstant()) {
				AttributeField field = nodes.get(0).fields().get(parts.get(1).text());
				if (field != null) {
					return field.type();
				}
			}
		}
		return new ValueType.Text();
	}

	private FilterArgument filterArgument(InputValueDefinition argument, Directive directive, List<Entity> nodes,
			String coordinates, List<KeyAttribute> readKeys) {
		String attribute = Optional.ofNullable(string(directive, "attribute")).orElse(argument.getName());
		String opName = enumValue(directive, "op");
		Filter.Op op = Filter.Op.valueOf(opName);
		boolean list = unwrapNonNull(argument.getType()) instanceof ListType;
		if (readKeys.stream().anyMatch((key) -> key.name().equals(attribute))) {
			problem(argument, ("`%s(%s:)` filters on key attribute `%s`: DynamoDB refuses a filter on a key of a "
					+ "Query; compare the sort key with `@sortKey` instead.").formatted(coordinates, argument.getName(),
							attribute));
			return null;
		}
		if ((op == Filter.Op.IN) != list) {
			problem(argument, (op == Filter.Op.IN) ? "`%s(%s:)` is IN: declare it as a list, e.g. `[String!]`."
				.formatted(coordinates, argument.getName())
					: "`%s(%s:)` takes one value; only IN takes a list.".formatted(coordinates, argument.getName()));
			return null;
		}
		if (op == Filter.Op.IN && !(((ListType) unwrapNonNull(argument.getType())).getType() instanceof NonNullType)) {
			problem(argument, "`%s(%s:)` is IN: declare its values non-null, e.g. `[%s!]`; DynamoDB compares no null."
				.formatted(coordinates, argument.getName(), typeName(argument.getType())));
			return null;
		}
		if (op == Filter.Op.EXISTS && !typeName(argument.getType()).equals("Boolean")) {
			problem(argument, "`%s(%s:)` is EXISTS: declare it as a `Boolean` (true: exists, false: does not)."
				.formatted(coordinates, argument.getName()));
			return null;
		}
		ValueType type = null;
		for (Entity node : nodes) {
			for (AttributeField field : node.fields().values()) {
				if (field.attribute().equals(attribute)) {
					type = field.type();
				}
			}
		}
		ValueType argumentType = valueType(argument.getType(), argument);
		if (argumentType instanceof ValueType.ListOf listOf) {
			argumentType = listOf.element();
		}
		boolean listAttribute = type instanceof ValueType.ListOf;
		boolean declaredAttribute = type != null && !(type instanceof ValueType.Json);
		if (type instanceof ValueType.ListOf listOf) {
			if (op != Filter.Op.CONTAINS && op != Filter.Op.EXISTS) {
				problem(argument, "`%s(%s:)` compares list attribute `%s`: only CONTAINS and EXISTS apply to a list."
					.formatted(coordinates, argument.getName(), attribute));
				return null;
			}
			type = listOf.element();
		}
		if (type instanceof ValueType.Timestamp && op != Filter.Op.EXISTS && !(argumentType instanceof ValueType.Text)) {
			problem(argument, "`%s(%s:)` compares timestamp `%s`: declare it as a `String` of ISO-8601 instants."
				.formatted(coordinates, argument.getName(), attribute));
			return null;
		}
		if (type == null || type instanceof ValueType.Json || (type instanceof ValueType.Text
				&& argumentType != null && !(argumentType instanceof ValueType.Text))) {
			type = (argumentType != null) ? argumentType : new ValueType.Text();
		}
		// DynamoDB refuses every read whose operand does not fit the operator (a 400, not an empty page).
		String fits = switch (op) {
			case BEGINS_WITH -> (isString(type) || type instanceof ValueType.Binary) ? null
					: "BEGINS_WITH compares strings and bytes only.";
			case LT, LE, GT, GE -> type.keyType().isPresent() ? null
					: "LT, LE, GT and GE compare strings, numbers and bytes only.";
			// An attribute no field declares may be a list or set of any element.
			case CONTAINS -> (listAttribute || !declaredAttribute || isString(type)) ? null
					: "CONTAINS finds a substring of a string or an element of a list or set only.";
			default -> null;
		};
		if (fits != null) {
			problem(argument, "`%s(%s:)` is %s on `%s`, compared as %s: %s".formatted(coordinates, argument.getName(),
					op, attribute, describe(type), fits));
			return null;
		}
		return new FilterArgument(argument.getName(), attribute, op, type);
	}

	/** Values stored as strings (S): text, enums and ISO timestamps. */
	private static boolean isString(ValueType type) {
		return type instanceof ValueType.Text || type instanceof ValueType.Enumeration
				|| type instanceof ValueType.Timestamp timestamp && timestamp.format() == ValueType.Timestamp.Format.ISO;
	}

	/** What a value compares as, in a problem's words. */
	private static String describe(ValueType type) {
		if (type instanceof ValueType.Number) {
			return "a number";
		}
		if (type instanceof ValueType.Bool) {
			return "a boolean";
		}
		if (type instanceof ValueType.Binary) {
			return "bytes";
		}
		if (type instanceof ValueType.Timestamp timestamp) {
			return (timestamp.format() == ValueType.Timestamp.Format.ISO) ? "a timestamp stored as a string"
					: "a timestamp stored as a number";
		}
		if (type instanceof ValueType.ListOf) {
			return "a list";
		}
		return (type instanceof ValueType.Json) ? "JSON" : "a string";
	}

	private void lookup(ObjectTypeDefinition type, Entity parent, FieldDefinition field, Directive directive) {
		String coordinates = type.getName() + "." + field.getName();
		if (unwrapNonNull(field.getType()) instanceof ListType) {
			problem(field, "`%s` is a `@lookup` of one item: return the type, not a list; a list is a connection."
				.formatted(coordinates));
			return;
		}
		field.getInputValueDefinitions().forEach((argument) -> noConnectionArgument(type, field, argument));
		Entity target = this.entities.get(typeName(field.getType()));
		if (target == null && isUnreadable(typeName(field.getType()))) {
			return;
		}
		if (target == null) {
			problem(field, "`%s` looks up `%s`, which is stored in no table: give it a `@table`."
				.formatted(coordinates, typeName(field.getType())));
			return;
		}
		Table table = target.table();
		String partitionSource = Optional.ofNullable(string(directive, "partitionKey"))
			.orElse(target.partition().source());
		Optional<KeyValue> partition = keyValue(table.partitionKey().name(), partitionSource,
				keyValueType(table.partitionKey(), List.of(target)), KeyValue.MAX_PARTITION_KEY_BYTES, field, parent,
				directive, coordinates, false, target.fields());
		Optional<KeyValue> sort = Optional.empty();
		if (table.sortKey().isPresent()) {
			String sortSource = Optional.ofNullable(string(directive, "sortKey"))
				.orElse(target.sort().map(KeyTemplate::source).orElse(null));
			sort = keyValue(table.sortKey().get().name(), sortSource, keyValueType(table.sortKey().get(), List.of(target)),
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
				problem(argument, ("argument `%s` of `%s` does nothing: a `@lookup` reads one item by its key; use the "
						+ "argument in a key template (`@lookup(partitionKey: ..., sortKey: ...)`), or remove it.")
					.formatted(argument.getName(), coordinates));
			}
		}
		this.lookups.add(new DeclaredLookup(FieldCoordinates.coordinates(type.getName(), field.getName()), target,
				partition.get(), sort));
	}

	// ---- GraphQL types to storage types

	/** How a field or argument of {@code type} is stored; null for object types (not an attribute). */
	private ValueType valueType(Type<?> type, DirectivesContainer<?> at) {
		if (at instanceof FieldDefinition field && field.getType() == type && directive(field, "timestamp") != null
				&& !Set.of("String", "ID").contains(typeName(type))) {
			problem(field, "`%s` is `%s` with `@timestamp`, which serves ISO-8601 strings: declare it as `String` (or a "
				.formatted(coordinates(field), AstPrinter.printAst(type)) + "list of `String`).");
		}
		Type<?> bare = unwrapNonNull(type);
		if (bare instanceof ListType list) {
			ValueType element = valueType(list.getType(), at);
			return (element != null) ? new ValueType.ListOf(element) : null;
		}
		Directive timestamp = directive(at, "timestamp");
		if (timestamp != null) {
			String format = enumValue(timestamp, "format");
			return new ValueType.Timestamp(ValueType.Timestamp.Format.valueOf(format));
		}
		String name = ((TypeName) bare).getName();
		return switch (name) {
			case "String", "ID" -> new ValueType.Text();
			case "Int" -> new ValueType.Number(ValueType.Number.Kind.INT);
			case "Long" -> new ValueType.Number(ValueType.Number.Kind.LONG);
			case "Float" -> new ValueType.Number(ValueType.Number.Kind.FLOAT);
			case "Decimal" -> new ValueType.Number(ValueType.Number.Kind.DECIMAL);
			case "Boolean" -> new ValueType.Bool();
			case "Bytes" -> new ValueType.Binary();
			case "JSON" -> new ValueType.Json();
			default -> {
				TypeDefinition<?> definition = this.registry.getType(name).orElse(null);
				if (definition instanceof EnumTypeDefinition enumeration) {
					Set<String> values = new HashSet<>();
					enumeration.getEnumValueDefinitions().forEach((value) -> values.add(value.getName()));
					yield new ValueType.Enumeration(values);
				}
				if (definition instanceof ObjectTypeDefinition || definition instanceof InterfaceTypeDefinition
						|| definition instanceof UnionTypeDefinition) {
					yield null;
				}
				// A custom scalar: served as stored, strings as strings and numbers as their digits.
				yield new ValueType.Text();
			}
		};
	}

	// ---- reading the registry

	/** {@code Type.field} of a field of an object type. */
	private String coordinates(FieldDefinition field) {
		return objectTypes().stream()
			.filter((type) -> fields(type).stream().anyMatch((each) -> each == field))
			.findFirst()
			.map((type) -> type.getName() + "." + field.getName())
			.orElse(field.getName());
	}

	/** Whether a type, or a member of a union or interface, has a problem in its table or key declaration. */
	private boolean isUnreadable(String typeName) {
		if (this.unreadable.contains(typeName)) {
			return true;
		}
		TypeDefinition<?> definition = this.registry.getType(typeName).orElse(null);
		if (definition instanceof UnionTypeDefinition union) {
			return union.getMemberTypes().stream().anyMatch((member) -> this.unreadable.contains(typeName(member)));
		}
		return definition instanceof InterfaceTypeDefinition && objectTypes().stream()
			.anyMatch((type) -> this.unreadable.contains(type.getName()) && type.getImplements()
				.stream()
				.anyMatch((implemented) -> typeName(implemented).equals(typeName)));
	}

	private List<ObjectTypeDefinition> objectTypes() {
		return this.registry.getTypes(ObjectTypeDefinition.class)
			.stream()
			.filter((type) -> !type.getName().startsWith("__"))
			.toList();
	}

	private ObjectTypeDefinition objectType(String name) {
		return this.registry.getType(name, ObjectTypeDefinition.class).orElse(null);
	}

	/** A type's fields, with those of its {@code extend type} definitions. */
	private List<FieldDefinition> fields(ObjectTypeDefinition type) {
		return SchemaNodes.fields(this.registry, type);
	}

	private FieldDefinition field(ObjectTypeDefinition type, String name) {
		return fields(type).stream().filter((field) -> field.getName().equals(name)).findFirst().orElse(null);
	}

	private boolean isRootType(ObjectTypeDefinition type) {
		return Set.of("Query", "Mutation", "Subscription").contains(type.getName());
	}

	private static boolean isDeclaredField(FieldDefinition field) {
		return field.hasDirective("query") || field.hasDirective("scan") || field.hasDirective("lookup");
	}

	private static boolean implementsNode(ObjectTypeDefinition type) {
		return type.getImplements().stream().anyMatch((implemented) -> ((TypeName) implemented).getName().equals("Node"));
	}

	private static InputValueDefinition argument(FieldDefinition field, String name) {
		return field.getInputValueDefinitions()
			.stream()
			.filter((argument) -> argument.getName().equals(name))
			.findFirst()
			.orElse(null);
	}

	private static Directive directive(DirectivesContainer<?> container, String name) {
		List<Directive> directives = container.getDirectives(name);
		return directives.isEmpty() ? null : directives.get(0);
	}

	private static String string(Directive directive, String name) {
		Argument argument = directive.getArgument(name);
		return (argument != null && argument.getValue() instanceof StringValue value) ? value.getValue() : null;
	}

	private static boolean bool(Directive directive, String name, boolean fallback) {
		Argument argument = directive.getArgument(name);
		return (argument != null && argument.getValue() instanceof BooleanValue value) ? value.isValue() : fallback;
	}

	private static String enumValue(Directive directive, String name) {
		Argument argument = directive.getArgument(name);
		return (argument != null && argument.getValue() instanceof EnumValue value) ? value.getName() : null;
	}

	private static Type<?> unwrapNonNull(Type<?> type) {
		return (type instanceof NonNullType nonNull) ? nonNull.getType() : type;
	}

	private static String typeName(Type<?> type) {
		return SchemaNodes.typeName(type);
	}

	private void problem(graphql.language.Node<?> at, String message) {
		this.problems.add(new Problem(Location.of(at), Objects.requireNonNull(message)));
	}

}
