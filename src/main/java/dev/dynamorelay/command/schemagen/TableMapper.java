package dev.dynamorelay.command.schemagen;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

import dev.dynamorelay.command.schemagen.EntityGroups.EntityGroup;
import dev.dynamorelay.command.schemagen.EntityGroups.KeyTemplate;

/**
 * Declares one table in the declaration language: the type of its items (or, for a single-table design,
 * one type per kind of item and their union) and its root connections: a Query over the table, one over
 * each index, and a Scan.
 */
final class TableMapper {

	static final String CONNECTION = "Connection";

	static final String EDGE = "Edge";

	private final UniqueNames typeNames;

	private final UniqueNames queryFieldNames;

	private final MutationMapper mutations;

	/**
	 * @param typeNames the schema's type names so far, shared by every table
	 * @param queryFieldNames {@code Query}'s field names so far, shared by every table
	 */
	TableMapper(UniqueNames typeNames, UniqueNames queryFieldNames) {
		this.typeNames = typeNames;
		this.queryFieldNames = queryFieldNames;
		this.mutations = new MutationMapper(typeNames);
	}

	TableDeclarations map(SampledTable table) {
		TableKeys keys = TableKeys.of(table.description());
		TableDeclarations reads = EntityGroups.find(keys, table.items())
			.map((groups) -> severalKinds(table, keys, groups))
			.orElseGet(() -> oneKind(table, keys));
		List<DeclaredInput> inputs = new ArrayList<>();
		List<DeclaredField> mutationFields = new ArrayList<>();
		for (DeclaredType type : reads.types()) {
			this.mutations.map(type, inputs, mutationFields);
		}
		return new TableDeclarations(reads.types(), reads.union(), reads.queryFields(), List.copyOf(inputs),
				List.copyOf(mutationFields));
	}

	/** One type with a field per attribute. */
	private TableDeclarations oneKind(SampledTable table, TableKeys keys) {
		String type = this.typeNames.claim(GraphQlNames.typeName(table.name()), CONNECTION, EDGE);
		Map<String, AttributeProfile> profiles = profiles(table.items());
		List<String> attributes = new ArrayList<>();
		attributes.add(keys.partitionKey());
		if (keys.sortKey() != null) {
			attributes.add(keys.sortKey());
		}
		SortedSet<String> others = new TreeSet<>(profiles.keySet());
		others.addAll(keys.indexKeyAttributes());
		others.removeAll(attributes);
		attributes.addAll(others);
		Map<String, String> names = fieldNames(type, attributes, new UniqueNames("id"));
		List<DeclaredField> fields = new ArrayList<>();
		fields.add(idField());
		for (String attribute : attributes) {
			fields.add(attributeField(keys, attribute, names.get(attribute), profiles.get(attribute)));
		}
		List<DeclaredDirective> directives = new ArrayList<>();
		directives.add(tableDirective(table, keys));
		directives.addAll(indexDirectives(keys));
		List<String> keyFields = attributes.subList(0, (keys.sortKey() != null) ? 2 : 1)
			.stream()
			.map(names::get)
			.toList();
		DeclaredType declared = new DeclaredType(type,
				describeTable(table, keys) + " (" + sampled(table.items().size()) + ").", directives, fields, keyFields);
		return new TableDeclarations(List.of(declared), Optional.empty(),
				queryFields(table, keys, type, profiles, names::get), List.of(), List.of());
	}

	/** One type per kind of item, each with its key templates, and their union. */
	private TableDeclarations severalKinds(SampledTable table, TableKeys keys, List<EntityGroup> groups) {
		Map<String, Integer> baseNames = new HashMap<>();
		for (EntityGroup group : groups) {
			baseNames.merge(baseName(group), 1, Integer::sum);
		}
		Set<String> excluded = new HashSet<>();
		excluded.add(keys.partitionKey());
		if (keys.sortKey() != null) {
			excluded.add(keys.sortKey());
		}
		for (String attribute : keys.indexKeyAttributes()) {
			if (EntityGroups.isGeneric(attribute) || holdsPrefixes(table.items(), attribute)) {
				excluded.add(attribute);
			}
		}
		List<DeclaredType> types = new ArrayList<>();
		for (EntityGroup group : groups) {
			String base = baseName(group);
			String name = this.typeNames.claim((baseNames.get(base) > 1) ? qualifiedName(group) : base, CONNECTION,
					EDGE);
			types.add(kind(table, keys, group, name, excluded));
		}
		types.sort(Comparator.comparing(DeclaredType::name));
		String union = this.typeNames.claim(GraphQlNames.tablePascal(table.name()) + "Item", CONNECTION, EDGE);
		DeclaredUnion declared = new DeclaredUnion(union,
				"Every kind of item of table `" + table.name() + "`, told apart by their keys' prefixes.",
				types.stream().map(DeclaredType::name).toList());
		return new TableDeclarations(List.copyOf(types), Optional.of(declared),
				queryFields(table, keys, union, profiles(table.items()), GraphQlNames::field), List.of(), List.of());
	}

	/** The type of one kind of item of a single-table design. */
	private DeclaredType kind(SampledTable table, TableKeys keys, EntityGroup group, String type,
			Set<String> excluded) {
		UniqueNames names = new UniqueNames("id");
		Map<String, AttributeProfile> profiles = profiles(group.items());
		List<DeclaredField> fields = new ArrayList<>();
		fields.add(idField());
		String partitionPrefix = group.partitionKey().text();
		String partitionPlaceholder = placeholderName(names, placeholder(partitionPrefix),
				(name) -> shadows(group, name, keys.partitionKey(), partitionPrefix));
		fields.add(DeclaredField.of(partitionPlaceholder, "String!",
				"The text after `" + partitionPrefix + "` in the partition key `" + keys.partitionKey() + "`.",
				List.of()));
		Set<String> placeholders = new LinkedHashSet<>(List.of(partitionPlaceholder));
		String sortTemplate = null;
		KeyTemplate sort = group.sortKey();
		if (sort != null && sort.kind() == KeyTemplate.Kind.PREFIX) {
			String sortPlaceholder = partitionPlaceholder;
			if (!placeholder(sort.text()).equals(placeholder(partitionPrefix)) || !sameSuffixes(keys, group)) {
				sortPlaceholder = placeholderName(names, placeholder(sort.text()),
						(name) -> shadows(group, name, keys.sortKey(), sort.text()));
				placeholders.add(sortPlaceholder);
				fields.add(DeclaredField.of(sortPlaceholder, "String!",
						"The text after `" + sort.text() + "` in the sort key `" + keys.sortKey() + "`.", List.of()));
			}
			sortTemplate = sort.text() + "{" + sortPlaceholder + "}";
		}
		else if (sort != null && sort.kind() == KeyTemplate.Kind.CONSTANT) {
			sortTemplate = sort.text();
		}
		else if (sort != null && sort.kind() == KeyTemplate.Kind.WHOLE) {
			String attribute = keys.sortKey();
			String name = fieldNames(type, List.of(attribute), names).get(attribute);
			placeholders.add(name);
			fields.add(attributeField(keys, attribute, name, profiles.get(attribute)));
			sortTemplate = "{" + name + "}";
		}
		List<String> attributes = new ArrayList<>();
		for (String attribute : profiles.keySet()) {
			if (!excluded.contains(attribute) && !placeholders.contains(attribute)) {
				attributes.add(attribute);
			}
		}
		Map<String, String> fieldNames = fieldNames(type, attributes, names);
		for (String attribute : attributes) {
			fields.add(attributeField(keys, attribute, fieldNames.get(attribute), profiles.get(attribute)));
		}
		List<DeclaredDirective> directives = new ArrayList<>();
		directives.add(tableDirective(table, keys));
		directives.add(DeclaredDirective.of("key")
			.with("partitionKey", partitionPrefix + "{" + partitionPlaceholder + "}")
			.with("sortKey", sortTemplate));
		directives.addAll(indexDirectives(keys));
		return new DeclaredType(type, describeKind(table, keys, group), directives, fields, List.copyOf(placeholders));
	}

	/** The table's connection, one per index, and its Scan. */
	private List<DeclaredField> queryFields(SampledTable table, TableKeys keys, String node,
			Map<String, AttributeProfile> profiles, UnaryOperator<String> argumentName) {
		String tablePascal = GraphQlNames.tablePascal(table.name());
		String base = GraphQlNames.lowerCamel(tablePascal);
		String connection = node + CONNECTION + "!";
		List<DeclaredField> fields = new ArrayList<>();
		fields.add(connectionField(this.queryFieldNames.claim(base),
				"Items of table `" + table.name() + "` with the given `" + keys.partitionKey() + "`"
						+ ((keys.sortKey() != null) ? ", in `" + keys.sortKey() + "` order." : "."),
				keys, null, keys.partitionKey(), keys.sortKey(), connection, profiles, argumentName));
		for (TableKeys.Index index : keys.indexes()) {
			String inIndex = "`" + index.sortKey() + "`";
			if (index.global()) {
				inIndex = "`" + index.partitionKey() + "`" + ((index.sortKey() != null) ? " and " + inIndex : "");
			}
			fields.add(connectionField(this.queryFieldNames.claim(base + GraphQlNames.indexSuffix(index.name())),
					"Items of table `" + table.name() + "` in its " + index.describe() + " with the given `"
							+ index.partitionKey() + "`"
							+ ((index.sortKey() != null) ? ", in `" + index.sortKey() + "` order" : "")
							+ ". Only items that have " + inIndex + " are in the index"
							+ ((index.projection() != null && !index.projection().equals("ALL"))
									? ", and its projection is " + index.projection() + "." : "."),
					keys, index.name(), index.partitionKey(), index.sortKey(), connection, profiles, argumentName));
		}
		fields.add(new DeclaredField(this.queryFieldNames.claim("all" + tablePascal),
				"Every item of table `" + table.name() + "`, in DynamoDB's Scan order (forwards only).",
				List.of(DeclaredArgument.of("first", "Int"), DeclaredArgument.of("after", "String")), connection,
				List.of(DeclaredDirective.of("scan"))));
		return fields;
	}

	private static DeclaredField connectionField(String name, String description, TableKeys keys, String index,
			String partitionKey, String sortKey, String connection, Map<String, AttributeProfile> profiles,
			UnaryOperator<String> argumentName) {
		UniqueNames names = new UniqueNames("first", "after", "last", "before", "order");
		List<DeclaredArgument> arguments = new ArrayList<>();
		String partitionArgument = names.claim(argumentName.apply(partitionKey));
		arguments.add(DeclaredArgument.of(partitionArgument,
				keys.graphQlType(partitionKey, profiles.get(partitionKey)) + "!"));
		arguments.add(DeclaredArgument.of("first", "Int"));
		arguments.add(DeclaredArgument.of("after", "String"));
		arguments.add(DeclaredArgument.of("last", "Int"));
		arguments.add(DeclaredArgument.of("before", "String"));
		if (sortKey != null) {
			String sortArgument = argumentName.apply(sortKey);
			arguments.add(new DeclaredArgument("order", "SortOrder", "ASC", null));
			if (keys.type(sortKey) == ScalarAttributeType.S) {
				arguments.add(new DeclaredArgument(names.claim(sortArgument + "BeginsWith"), "String", null,
						DeclaredDirective.of("sortKey").withEnum("op", "BEGINS_WITH")));
			}
			arguments.add(new DeclaredArgument(names.claim(sortArgument + "Between"),
					"[" + keys.graphQlType(sortKey, profiles.get(sortKey)) + "!]", null,
					DeclaredDirective.of("sortKey").withEnum("op", "BETWEEN")));
		}
		DeclaredDirective query = DeclaredDirective.of("query")
			.with("index", index)
			.with("partitionKey", partitionArgument.equals(partitionKey) ? null : "{" + partitionArgument + "}");
		return new DeclaredField(name, description, List.copyOf(arguments), connection, List.of(query));
	}

	private static DeclaredField idField() {
		return DeclaredField.of("id", "ID!", null, List.of());
	}

	/** The field of an attribute: key attributes typed from their definition, the others from the sample. */
	private static DeclaredField attributeField(TableKeys keys, String attribute, String name,
			AttributeProfile profile) {
		String type;
		if (keys.type(attribute) == null) {
			type = profile.graphQlType();
		}
		else {
			type = keys.graphQlType(attribute, profile) + (keys.isTableKey(attribute) ? "!" : "");
		}
		List<DeclaredDirective> directives = name.equals(attribute) ? List.of()
				: List.of(DeclaredDirective.of("attribute").with("name", attribute));
		return DeclaredField.of(name, type, describeAttribute(keys, attribute, profile), directives);
	}

	/**
	 * Field names for attributes, claimed in {@code names}: an attribute's own name when GraphQL accepts it
	 * (claimed first, so that it wins), else its sanitized name; {@code id} is the Relay id, so an attribute
	 * named {@code id} becomes {@code <type>Id}.
	 */
	private static Map<String, String> fieldNames(String type, Collection<String> attributes, UniqueNames names) {
		Map<String, String> candidates = new LinkedHashMap<>();
		for (String attribute : attributes) {
			candidates.put(attribute, attribute.equals("id") ? GraphQlNames.lowerCamel(type) + "Id"
					: GraphQlNames.field(attribute));
		}
		Map<String, String> fieldNames = new LinkedHashMap<>();
		candidates.forEach((attribute, candidate) -> {
			if (candidate.equals(attribute)) {
				fieldNames.put(attribute, names.claim(candidate));
			}
		});
		candidates.forEach((attribute, candidate) -> {
			if (!candidate.equals(attribute)) {
				fieldNames.put(attribute, names.claim(candidate));
			}
		});
		return fieldNames;
	}

	private static DeclaredDirective tableDirective(SampledTable table, TableKeys keys) {
		return DeclaredDirective.of("table")
			.with("name", table.name())
			.with("partitionKey", keys.partitionKey())
			.with("sortKey", keys.sortKey());
	}

	private static List<DeclaredDirective> indexDirectives(TableKeys keys) {
		List<DeclaredDirective> directives = new ArrayList<>();
		for (TableKeys.Index index : keys.indexes()) {
			if (index.global()) {
				directives.add(DeclaredDirective.of("globalIndex")
					.with("name", index.name())
					.with("partitionKey", index.partitionKey())
					.with("sortKey", index.sortKey()));
			}
			else {
				directives.add(DeclaredDirective.of("localIndex")
					.with("name", index.name())
					.with("sortKey", index.sortKey()));
			}
		}
		return directives;
	}

	/** What each sampled attribute holds, by attribute name, sorted. */
	private static Map<String, AttributeProfile> profiles(List<Map<String, AttributeValue>> items) {
		Map<String, AttributeProfile> profiles = new TreeMap<>();
		for (Map<String, AttributeValue> item : items) {
			item.forEach((name, value) -> profiles.computeIfAbsent(name, (key) -> new AttributeProfile())
				.observe(value));
		}
		return profiles;
	}

	/** Whether some sampled value of a string attribute has an entity prefix ({@code GSI1PK = "EMAIL#..."}). */
	private static boolean holdsPrefixes(List<Map<String, AttributeValue>> items, String attribute) {
		return items.stream()
			.map((item) -> item.get(attribute))
			.anyMatch((value) -> value != null && value.s() != null && EntityGroups.prefix(value.s()) != null);
	}

	/** Whether every item of the group has the same text after its partition and its sort key prefix. */
	private static boolean sameSuffixes(TableKeys keys, EntityGroup group) {
		int partition = group.partitionKey().text().length();
		int sort = group.sortKey().text().length();
		return group.items()
			.stream()
			.allMatch((item) -> item.get(keys.partitionKey())
				.s()
				.substring(partition)
				.equals(item.get(keys.sortKey()).s().substring(sort)));
	}

	/** A kind's name: from its sort key's prefix ({@code ORDER#} is {@code Order}), else its partition key's. */
	private static String baseName(EntityGroup group) {
		KeyTemplate sort = group.sortKey();
		if (sort != null && sort.kind() == KeyTemplate.Kind.PREFIX) {
			return GraphQlNames.typeName(sort.text());
		}
		return GraphQlNames.typeName(group.partitionKey().text());
	}

	/** A kind's name when its base name is shared: both keys' words ({@code CustomerOrder}, {@code CustomerProfile}). */
	private static String qualifiedName(EntityGroup group) {
		KeyTemplate sort = group.sortKey();
		String partition = GraphQlNames.typeName(group.partitionKey().text());
		if (sort != null && (sort.kind() == KeyTemplate.Kind.PREFIX || sort.kind() == KeyTemplate.Kind.CONSTANT)) {
			return partition + GraphQlNames.typeName(sort.text());
		}
		return partition;
	}

	/**
	 * The name of a placeholder, claimed in {@code names}: {@code candidate}, unless {@code shadowed} says
	 * that sampled items store an attribute of that name with another value than their key holds; a field
	 * of that name would serve the attribute (the attribute wins over the key's text) and compose other keys
	 * from it. Then the placeholder is {@code candidate} with {@code Key} ({@code orderIdKey}), and the
	 * attribute a field of its own.
	 */
	private static String placeholderName(UniqueNames names, String candidate, Predicate<String> shadowed) {
		return names.claim(shadowed.test(candidate) ? candidate + "Key" : candidate, shadowed);
	}

	/**
	 * Whether some item of the group stores attribute {@code name} with another value than the text after
	 * {@code prefix} in its key {@code keyAttribute} (a number by its digits).
	 */
	private static boolean shadows(EntityGroup group, String name, String keyAttribute, String prefix) {
		for (Map<String, AttributeValue> item : group.items()) {
			AttributeValue stored = item.get(name);
			if (stored != null) {
				String text = (stored.s() != null) ? stored.s() : stored.n();
				if (!item.get(keyAttribute).s().substring(prefix.length()).equals(text)) {
					return true;
				}
			}
		}
		return false;
	}

	/** A placeholder named from an entity prefix: {@code CUSTOMER#} is {@code customerId}. */
	private static String placeholder(String prefix) {
		return GraphQlNames.lowerCamel(GraphQlNames.typeName(prefix)) + "Id";
	}

	private static String describeTable(SampledTable table, TableKeys keys) {
		StringBuilder description = new StringBuilder("Table `" + table.name() + "`: partition key ")
			.append(keys.describe(keys.partitionKey()));
		if (keys.sortKey() != null) {
			description.append(", sort key ").append(keys.describe(keys.sortKey()));
		}
		for (TableKeys.Index index : keys.indexes()) {
			description.append("; ").append(index.describe()).append(": ");
			if (index.global()) {
				description.append("partition key ").append(keys.describe(index.partitionKey()));
				if (index.sortKey() != null) {
					description.append(", ");
				}
			}
			if (index.sortKey() != null) {
				description.append("sort key ").append(keys.describe(index.sortKey()));
			}
		}
		return description.toString();
	}

	private static String describeKind(SampledTable table, TableKeys keys, EntityGroup group) {
		StringBuilder description = new StringBuilder("Items of table `" + table.name() + "` whose `")
			.append(keys.partitionKey())
			.append("` starts with `")
			.append(group.partitionKey().text())
			.append('`');
		KeyTemplate sort = group.sortKey();
		if (sort != null && sort.kind() == KeyTemplate.Kind.PREFIX) {
			description.append(" and whose `").append(keys.sortKey()).append("` starts with `").append(sort.text())
				.append('`');
		}
		else if (sort != null && sort.kind() == KeyTemplate.Kind.CONSTANT) {
			description.append(" and whose `").append(keys.sortKey()).append("` is `").append(sort.text()).append('`');
		}
		return description.append(" (").append(group.items().size()).append(" of ")
			.append(sampled(table.items().size())).append(").").toString();
	}

	private static String sampled(int items) {
		return items + ((items == 1) ? " sampled item" : " sampled items");
	}

	/** What a field's description says beyond its name: its key roles, and what the sample showed. */
	private static String describeAttribute(TableKeys keys, String attribute, AttributeProfile profile) {
		List<String> roles = new ArrayList<>();
		if (attribute.equals(keys.partitionKey())) {
			roles.add("partition key (" + keys.type(attribute) + ")");
		}
		if (attribute.equals(keys.sortKey())) {
			roles.add("sort key (" + keys.type(attribute) + ")");
		}
		for (TableKeys.Index index : keys.indexes()) {
			if (index.global() && attribute.equals(index.partitionKey())) {
				roles.add("partition key of " + index.describe());
			}
			if (attribute.equals(index.sortKey())) {
				roles.add("sort key of " + index.describe());
			}
		}
		List<String> sentences = new ArrayList<>();
		if (!roles.isEmpty()) {
			sentences.add(GraphQlNames.upperFirst(String.join("; ", roles)) + ".");
		}
		if (profile == null && !keys.isTableKey(attribute)) {
			sentences.add("In no sampled item.");
		}
		else if (profile != null && profile.isMixed()) {
			sentences.add("Sampled as " + profile.seenTypes() + ".");
		}
		else if (profile != null && profile.seenTypes().equals("NULL")) {
			sentences.add("Sampled only as NULL.");
		}
		return sentences.isEmpty() ? null : String.join(" ", sentences);
	}

}
