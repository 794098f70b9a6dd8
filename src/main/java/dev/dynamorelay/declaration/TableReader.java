package dev.dynamorelay.declaration;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import graphql.language.Directive;
import graphql.language.FieldDefinition;
import graphql.language.ObjectTypeDefinition;
import graphql.language.Type;
import graphql.language.TypeName;
import graphql.language.UnionTypeDefinition;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

import dev.dynamorelay.model.Entity.AttributeField;
import dev.dynamorelay.model.Entity;
import dev.dynamorelay.model.KeyAttribute;
import dev.dynamorelay.model.KeyTemplate;
import dev.dynamorelay.model.Table.Index;
import dev.dynamorelay.model.Table;
import dev.dynamorelay.model.ValueType;
import dev.dynamorelay.schema.Location;
import dev.dynamorelay.schema.Problem.ConflictingDeclarations;
import dev.dynamorelay.schema.Problem.IndexMistake;
import dev.dynamorelay.schema.Problem.KeyMistake;
import dev.dynamorelay.schema.Problem.MisplacedDirective;
import dev.dynamorelay.schema.Problem.MissingArgument;
import dev.dynamorelay.schema.Problem.UnknownName;
import dev.dynamorelay.schema.Problem.WrongType;
import dev.dynamorelay.schema.Suggestions;

import static dev.dynamorelay.declaration.Directives.directive;
import static dev.dynamorelay.declaration.Directives.implementsNode;
import static dev.dynamorelay.declaration.Directives.isDeclaredField;
import static dev.dynamorelay.declaration.Directives.string;

/**
 * Reads the types stored in tables ({@code @table}, {@code @key}, {@code @globalIndex}, {@code @localIndex}):
 * each type's key templates and attributes, and each table as all its types declare it together.
 */
final class TableReader {

	private final Reading reading;

	TableReader(Reading reading) {
		this.reading = reading;
	}

	/** A type with {@code @table}, before its table's declarations from every type are merged. */
	private record Declared(ObjectTypeDefinition type, Directive table, String tableName, String partitionKey,
			Optional<String> sortKey, Optional<String> typeAttribute, Optional<String> typeValue,
			Map<String, AttributeField> fields, KeyTemplate partition, Optional<KeyTemplate> sort) {
	}

	void read() {
		List<Declared> declared = new ArrayList<>();
		for (ObjectTypeDefinition type : this.reading.objectTypes()) {
			Directive table = directive(type, "table");
			if (table == null) {
				for (String name : List.of("key", "globalIndex", "localIndex")) {
					if (directive(type, name) != null) {
						this.reading.problem(type, MisplacedDirective::new,
								"`@%s` on `%s` needs `@table` on the same type: which table does it describe?"
							.formatted(name, type.getName()));
						this.reading.unreadable.add(type.getName());
					}
				}
				continue;
			}
			Declared one = declare(type, table);
			if (one != null) {
				declared.add(one);
			}
			else {
				this.reading.unreadable.add(type.getName());
			}
		}
		Map<String, List<Declared>> byTable = new TreeMap<>();
		declared.forEach((one) -> byTable.computeIfAbsent(one.tableName(), (name) -> new ArrayList<>()).add(one));
		byTable.forEach(this::declareTable);
		readAbstractTypes();
	}

	/** A type's table and keys; null when they have a problem, so that no later check reads them. */
	private Declared declare(ObjectTypeDefinition type, Directive table) {
		int problems = this.reading.problems.size();
		String tableName = string(table, "name");
		String partitionKey = string(table, "partitionKey");
		Optional<String> sortKey = Optional.ofNullable(string(table, "sortKey"));
		if (tableName == null || tableName.isBlank() || partitionKey == null || partitionKey.isBlank()) {
			this.reading.problem(table, MissingArgument::new,
					"`@table` on `%s` needs a `name` and a `partitionKey`.".formatted(type.getName()));
			return null;
		}
		Map<String, AttributeField> fields = attributeFields(type);
		Directive key = directive(type, "key");
		Keys keys = keys(type, table, key, fields, partitionKey, sortKey);
		if (keys == null) {
			return null;
		}
		checkKeys(type, table, key, fields, tableName, sortKey, keys);
		if (this.reading.problems.size() > problems) {
			return null;
		}
		return new Declared(type, table, tableName, partitionKey, sortKey,
				Optional.ofNullable(string(table, "typeAttribute")), Optional.ofNullable(string(table, "typeValue")),
				fields, keys.partition(), keys.sort());
	}

	/** A type's key templates, as {@code @key} writes them or as the table's key attributes name fields. */
	private record Keys(KeyTemplate partition, Optional<KeyTemplate> sort) {
	}

	/** The fields of a stored type that are attributes of its items, by field name. */
	private Map<String, AttributeField> attributeFields(ObjectTypeDefinition type) {
		Map<String, AttributeField> fields = new LinkedHashMap<>();
		boolean node = implementsNode(type);
		for (FieldDefinition field : this.reading.fields(type)) {
			if (isDeclaredField(field) || (node && field.getName().equals("id"))) {
				continue;
			}
			ValueType valueType = this.reading.valueType(field.getType(), field);
			if (valueType == null) {
				continue;
			}
			Directive attribute = directive(field, "attribute");
			String name = (attribute != null) ? string(attribute, "name") : field.getName();
			fields.put(field.getName(), new AttributeField(field.getName(), name, valueType, attribute != null));
		}
		return fields;
	}

	/** The type's key templates; null when one cannot be read (reported at the argument read). */
	private Keys keys(ObjectTypeDefinition type, Directive table, Directive key, Map<String, AttributeField> fields,
			String partitionKey, Optional<String> sortKey) {
		KeyTemplate partition;
		Optional<KeyTemplate> sort = Optional.empty();
		// The argument whose value is read: a problem with it is reported there.
		String reading = "partitionKey";
		try {
			if (key != null) {
				partition = KeyTemplate.parse(string(key, "partitionKey"));
				String sortTemplate = string(key, "sortKey");
				if (sortTemplate != null) {
					reading = "sortKey";
					sort = Optional.of(KeyTemplate.parse(sortTemplate));
				}
			}
			else {
				partition = KeyTemplate.of(fieldOf(fields, partitionKey, type, "partition"));
				if (sortKey.isPresent()) {
					reading = "sortKey";
					sort = Optional.of(KeyTemplate.of(fieldOf(fields, sortKey.get(), type, "sort")));
				}
			}
		}
		catch (IllegalArgumentException ex) {
			String message = ex.getMessage();
			this.reading.problem(Directives.argumentValue((key != null) ? key : table, reading), KeyMistake::new,
					message.endsWith(".") ? message : message + ".");
			return null;
		}
		return new Keys(partition, sort);
	}

	/** That the type's templates fill the table's keys, from fields that a key can hold. */
	private void checkKeys(ObjectTypeDefinition type, Directive table, Directive key, Map<String, AttributeField> fields,
			String tableName, Optional<String> sortKey, Keys keys) {
		if (keys.sort().isPresent() && sortKey.isEmpty()) {
			graphql.language.Node<?> wrong = Directives.argumentValue(key, "sortKey");
			this.reading.problem(wrong, KeyMistake::new,
					"`@key` of `%s` has a `sortKey`, but table `%s` declares none: add `sortKey` to `@table`."
				.formatted(type.getName(), tableName));
		}
		if (keys.sort().isEmpty() && sortKey.isPresent()) {
			this.reading.problem((key != null) ? key : table, KeyMistake::new,
					"`%s` needs a sort key template: table `%s` has sort key `%s`."
				.formatted(type.getName(), tableName, sortKey.get()));
		}
		Map<String, KeyTemplate> templates = new LinkedHashMap<>();
		templates.put("partitionKey", keys.partition());
		keys.sort().ifPresent((template) -> templates.put("sortKey", template));
		for (Map.Entry<String, KeyTemplate> each : templates.entrySet()) {
			KeyTemplate template = each.getValue();
			graphql.language.Node<?> at = Directives.argumentValue((key != null) ? key : table, each.getKey());
			for (String placeholder : template.placeholders()) {
				AttributeField field = fields.get(placeholder);
				if (field == null) {
					this.reading.problem(UnknownName.of(Location.of(at), "key template `%s` of `%s` names `{%s}`, which is "
						.formatted(template, type.getName(), placeholder) + "no field of `%s`.".formatted(type.getName()),
							placeholder, fields.keySet()));
				}
				else if (field.type().keyType().isEmpty()) {
					this.reading.problem(at, KeyMistake::new,
							"`%s.%s` is in a key but is neither a string, a number nor bytes."
						.formatted(type.getName(), placeholder));
				}
			}
		}
	}

	/** The field that holds key attribute {@code attribute} (named so, or by {@code @attribute}). */
	private String fieldOf(Map<String, AttributeField> fields, String attribute, ObjectTypeDefinition type,
			String which) {
		for (AttributeField field : fields.values()) {
			if (field.attribute().equals(attribute)) {
				return field.name();
			}
		}
		throw new IllegalArgumentException("`%s` has no field for the table's %s key `%s`%s".formatted(type.getName(), which,
				attribute, Suggestions.orElse(attribute, fields.values().stream().map(AttributeField::attribute).toList(),
						"add a field `%s` (or one with `@attribute(name: \"%s\")`), or give the key's template with `@key`."
							.formatted(attribute, attribute))));
	}

	/** A table as all its types declare it, and the types stored in it. */
	private void declareTable(String name, List<Declared> types) {
		Declared first = types.get(0);
		checkSameKeys(name, types);
		KeyAttribute partitionKey = keyAttribute(first.partitionKey(), types, true, first.table());
		Optional<KeyAttribute> sortKey = first.sortKey().map((sort) -> keyAttribute(sort, types, false, first.table()));
		Table table = new Table(name, this.reading.prefix + name, partitionKey, sortKey,
				indexes(name, types, partitionKey), first.typeAttribute(), Location.of(first.table()));
		this.reading.tables.put(name, table);
		List<Entity> inTable = new ArrayList<>();
		for (Declared type : types) {
			Entity entity = new Entity(type.type().getName(), table, type.partition(), type.sort(), type.typeValue(),
					type.fields(), implementsNode(type.type()), Location.of(type.type()), version(type),
					new IndexKeyReader(this.reading).indexKeys(type.type(), type.fields(), table));
			this.reading.entities.put(entity.name(), entity);
			inTable.add(entity);
		}
		if (table.typeAttribute().isEmpty()) {
			checkDistinct(name, types, inTable);
		}
	}

	/** That every type of a table declares its keys and type attribute alike. */
	private void checkSameKeys(String name, List<Declared> types) {
		Declared first = types.get(0);
		for (Declared other : types.subList(1, types.size())) {
			if (!other.partitionKey().equals(first.partitionKey()) || !other.sortKey().equals(first.sortKey())
					|| !other.typeAttribute().equals(first.typeAttribute())) {
				this.reading.problem(other.table(), ConflictingDeclarations::new,
						("`@table` of `%s` declares table `%s` with other keys or type attribute than "
						+ "`%s` does (%s): every type in one table declares the same `partitionKey`, `sortKey` and "
						+ "`typeAttribute`.").formatted(other.type().getName(), name, first.type().getName(),
								Location.of(first.table())));
			}
		}
	}

	/** The indexes the types of a table declare, by name; one declared twice must have the same keys. */
	private Map<String, Index> indexes(String name, List<Declared> types, KeyAttribute partitionKey) {
		Declared first = types.get(0);
		Map<String, Index> indexes = new TreeMap<>();
		for (Declared type : types) {
			for (Directive directive : type.type().getDirectives()) {
				boolean global = directive.getName().equals("globalIndex");
				if (!global && !directive.getName().equals("localIndex")) {
					continue;
				}
				String indexName = string(directive, "name");
				if (!global && first.sortKey().isEmpty()) {
					this.reading.problem(directive, IndexMistake::new,
							("local index `%s` needs table `%s` to have a sort key: DynamoDB has local indexes on "
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
					this.reading.problem(directive, ConflictingDeclarations::new,
							"index `%s` of table `%s` is declared with other keys at %s."
						.formatted(indexName, name, known.location()));
				}
			}
		}
		return indexes;
	}

	/** That the items of two types in a table without a type attribute can be told apart by their keys. */
	private void checkDistinct(String name, List<Declared> types, List<Entity> inTable) {
		for (int i = 0; i < inTable.size(); i++) {
			for (int j = i + 1; j < inTable.size(); j++) {
				Entity a = inTable.get(i);
				Entity b = inTable.get(j);
				if (sameShape(a, b)) {
					this.reading.problem(types.get(j).table(), ConflictingDeclarations::new,
							("`%s` and `%s` share table `%s` with keys of the same shape, so "
							+ "their items cannot be told apart: give them `@key` templates with distinct constant "
							+ "text (e.g. `ORDER#{orderId}`), or `@table(typeAttribute: ...)`.")
						.formatted(a.name(), b.name(), name));
				}
			}
		}
	}

	/** The type's {@code @version} field: an {@code Int} or {@code Long} of its own, at most one. */
	private Optional<AttributeField> version(Declared type) {
		Optional<AttributeField> version = Optional.empty();
		for (FieldDefinition field : this.reading.fields(type.type())) {
			Directive directive = directive(field, "version");
			if (directive == null) {
				continue;
			}
			String coordinates = type.type().getName() + "." + field.getName();
			AttributeField declared = type.fields().get(field.getName());
			if (declared == null || !(declared.type() instanceof ValueType.Number number)
					|| (number.kind() != ValueType.Number.Kind.INT && number.kind() != ValueType.Number.Kind.LONG)) {
				this.reading.problem(directive, WrongType::new,
						"`%s` is a `@version`, which counts writes: declare it as `Int` or `Long`."
					.formatted(coordinates));
				continue;
			}
			if (type.partition().placeholders().contains(field.getName())
					|| type.sort().map((sort) -> sort.placeholders().contains(field.getName())).orElse(false)) {
				this.reading.problem(directive, KeyMistake::new,
						"`%s` is in the key of `%s`: a `@version` changes with every write, a key never."
					.formatted(coordinates, type.type().getName()));
				continue;
			}
			if (version.isPresent()) {
				this.reading.problem(directive, ConflictingDeclarations::new,
						"`%s` has two `@version` fields, `%s` and `%s`: keep one."
					.formatted(type.type().getName(), version.get().name(), field.getName()));
				continue;
			}
			version = Optional.of(declared);
		}
		return version;
	}

	private static boolean sameShape(Entity a, Entity b) {
		return shape(a.partition()).equals(shape(b.partition()))
				&& a.sort().map(TableReader::shape).equals(b.sort().map(TableReader::shape));
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
				this.reading.problem(type.table(), ConflictingDeclarations::new,
						"the types of table `%s` store its key `%s` as both %s and %s."
					.formatted(type.tableName(), attribute, found, each));
			}
			found = each;
		}
		return new KeyAttribute(attribute, (found != null) ? found : ScalarAttributeType.S);
	}

	/** An index key attribute's type: from a field that stores it, else a string. */
	private KeyAttribute attributeType(String attribute, List<Declared> types, Directive at) {
		if (attribute == null || attribute.isBlank()) {
			this.reading.problem(at, MissingArgument::new, "`@%s` needs its key attribute names.".formatted(at.getName()));
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
		for (ObjectTypeDefinition type : this.reading.objectTypes()) {
			Entity entity = this.reading.entities.get(type.getName());
			if (entity == null) {
				continue;
			}
			for (Type<?> implemented : type.getImplements()) {
				String name = ((TypeName) implemented).getName();
				this.reading.abstractTypes.computeIfAbsent(name, (key) -> new ArrayList<>()).add(entity);
			}
		}
		for (UnionTypeDefinition union : this.reading.registry.getTypes(UnionTypeDefinition.class)) {
			List<Entity> members = new ArrayList<>();
			for (Type<?> member : union.getMemberTypes()) {
				Entity entity = this.reading.entities.get(((TypeName) member).getName());
				if (entity != null) {
					members.add(entity);
				}
			}
			if (!members.isEmpty()) {
				this.reading.abstractTypes.put(union.getName(), members);
			}
		}
	}

}
