package dev.dynamorelay.access;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;

import graphql.language.ArrayValue;
import graphql.language.Directive;
import graphql.language.EnumValue;
import graphql.language.FieldDefinition;
import graphql.language.InputObjectTypeDefinition;
import graphql.language.InputValueDefinition;
import graphql.language.InterfaceTypeDefinition;
import graphql.language.ListType;
import graphql.language.NonNullType;
import graphql.language.ObjectField;
import graphql.language.ObjectTypeDefinition;
import graphql.language.ObjectValue;
import graphql.language.StringValue;
import graphql.language.Type;
import graphql.language.TypeName;
import graphql.language.Value;
import graphql.schema.FieldCoordinates;
import graphql.schema.idl.TypeDefinitionRegistry;

import dev.dynamorelay.declaration.Declarations;
import dev.dynamorelay.declaration.DeclaredConnection;
import dev.dynamorelay.model.Entity.AttributeField;
import dev.dynamorelay.model.Entity;
import dev.dynamorelay.schema.DeclarationException;
import dev.dynamorelay.schema.Location;
import dev.dynamorelay.schema.Problem.MisplacedDirective;
import dev.dynamorelay.schema.Problem.UnenforceableRule;
import dev.dynamorelay.schema.Problem.UselessArgument;
import dev.dynamorelay.schema.Problem;
import dev.dynamorelay.schema.SchemaNodes;

/**
 * Reads the {@code @auth} rules of the schema files and checks each against the declarations: where
 * it is written (a stored type, or a field of an object type), what its strategy needs, and that every
 * owner can be told (from a key, or by a filter on a stored attribute). Every problem is reported at once, at its file and line.
 */
public final class AccessRulesReader {

	private static final Set<String> ROOT_TYPES = Set.of("Query", "Mutation", "Subscription");

	private final TypeDefinitionRegistry registry;

	private final Declarations declarations;

	private final List<Problem> problems = new ArrayList<>();

	private final Map<String, List<AuthRule>> types = new HashMap<>();

	private final Map<FieldCoordinates, List<AuthRule>> fields = new HashMap<>();

	private AccessRulesReader(TypeDefinitionRegistry registry, Declarations declarations) {
		this.registry = registry;
		this.declarations = declarations;
	}

	/**
	 * The rules of {@code registry} (the schema files as {@link dev.dynamorelay.schema.SchemaFiles}
	 * parses them), over its checked declarations.
	 * @throws DeclarationException listing every problem found
	 */
	public static AccessRules read(TypeDefinitionRegistry registry, Declarations declarations) {
		AccessRulesReader reader = new AccessRulesReader(registry, declarations);
		reader.readAll();
		if (!reader.problems.isEmpty()) {
			throw new DeclarationException("The schema's @auth rules cannot be served", reader.problems);
		}
		return new AccessRules(reader.types, reader.fields);
	}

	private void readAll() {
		readTypeRules();
		// Fields after every type: a field's owner path may name the owner field of a type's OWNER rule.
		readFieldRules();
		for (InterfaceTypeDefinition face : this.registry.getTypes(InterfaceTypeDefinition.class)) {
			for (FieldDefinition field : face.getFieldDefinitions()) {
				Directive onField = directive(field.getDirectives());
				if (onField != null) {
					problem(onField, MisplacedDirective::new,
							("`@auth` on the interface field `%s.%s`: rules guard fields of object types; put "
							+ "them on the field of each type that implements `%s`.").formatted(face.getName(),
									field.getName(), face.getName()));
				}
			}
		}
		checkConnectionOwners();
	}

	/** The rules of stored types ({@code @auth} on a type or on one of its extensions). */
	private void readTypeRules() {
		for (ObjectTypeDefinition type : this.registry.getTypes(ObjectTypeDefinition.class)) {
			List<Directive> typeDirectives = new ArrayList<>(type.getDirectives());
			this.registry.objectTypeExtensions()
				.getOrDefault(type.getName(), List.of())
				.forEach((extension) -> typeDirectives.addAll(extension.getDirectives()));
			Directive onType = directive(typeDirectives);
			if (onType != null) {
				Entity entity = this.declarations.entities().get(type.getName());
				if (entity == null) {
					problem(onType, MisplacedDirective::new,
							("`@auth` on `%s`, which has no `@table`: rules on a type guard its stored items; put "
							+ "them on the fields that return `%s`.").formatted(type.getName(), type.getName()));
				}
				else {
					List<AuthRule> rules = rules(onType, type.getName());
					if (rules != null) {
						checkTypeOwners(onType, entity, rules);
						this.types.put(entity.name(), rules);
					}
				}
			}
		}
	}

	/** The rules of fields of object types, each OWNER rule's path resolved. */
	private void readFieldRules() {
		for (ObjectTypeDefinition type : this.registry.getTypes(ObjectTypeDefinition.class)) {
			for (FieldDefinition field : fields(type)) {
				Directive onField = directive(field.getDirectives());
				if (onField == null) {
					continue;
				}
				String coordinates = type.getName() + "." + field.getName();
				boolean root = ROOT_TYPES.contains(type.getName());
				List<AuthRule> rules = rules(onField, coordinates);
				if (rules == null) {
					continue;
				}
				Entity parent = root ? null : this.declarations.entities().get(type.getName());
				List<AuthRule> resolved = new ArrayList<>(rules.size());
				for (AuthRule rule : rules) {
					if (rule instanceof AuthRule.Owner owner) {
						Boolean parentField = checkFieldOwner(onField, coordinates, field, parent, owner.ownerField());
						rule = new AuthRule.Owner(owner.ownerField(), owner.identityClaim(), Boolean.TRUE.equals(parentField));
					}
					resolved.add(rule);
				}
				this.fields.put(FieldCoordinates.coordinates(type.getName(), field.getName()), List.copyOf(resolved));
			}
		}
	}

	/** The rules of one directive, or null (and a problem) when one of them is wrong. */
	private List<AuthRule> rules(Directive directive, String at) {
		Value<?> value = directive.getArgument("rules").getValue();
		List<Value> written = (value instanceof ArrayValue array) ? array.getValues() : List.of(value);
		if (written.isEmpty()) {
			problem(directive, UnenforceableRule::new,
					"`@auth` on `%s` has no rules, so it would allow no one: give it at least one rule."
				.formatted(at));
			return null;
		}
		List<AuthRule> rules = new ArrayList<>();
		boolean ok = true;
		for (Value<?> each : written) {
			AuthRule rule = rule((ObjectValue) each, directive, at);
			if (rule == null) {
				ok = false;
			}
			rules.add(rule);
		}
		if (ok && rules.stream().filter(AuthRule.Owner.class::isInstance).count() > 1) {
			problem(directive, UnenforceableRule::new,
					"`@auth` on `%s` has two OWNER rules: a field or type has one owner field."
				.formatted(at));
			ok = false;
		}
		return ok ? List.copyOf(rules) : null;
	}

	private AuthRule rule(ObjectValue value, Directive directive, String at) {
		Map<String, Value<?>> fields = new HashMap<>();
		for (ObjectField field : value.getObjectFields()) {
			fields.put(field.getName(), field.getValue());
		}
		String allow = ((EnumValue) fields.get("allow")).getName();
		Set<String> needs = switch (allow) {
			case "OWNER" -> Set.of("allow", "ownerField", "identityClaim");
			case "GROUPS" -> Set.of("allow", "groups", "groupClaim");
			case "SCOPES" -> Set.of("allow", "scopes");
			default -> Set.of("allow");
		};
		for (String given : fields.keySet()) {
			if (!needs.contains(given)) {
				problem(directive, UselessArgument::new, "`@auth` on `%s`: `%s` does nothing in a %s rule; remove it."
					.formatted(at, given, allow));
				return null;
			}
		}
		return switch (allow) {
			case "PUBLIC" -> new AuthRule.Public();
			case "SIGNED_IN" -> new AuthRule.SignedIn();
			case "OWNER" -> {
				String ownerField = text(fields.get("ownerField"));
				String claim = Optional.ofNullable(text(fields.get("identityClaim"))).orElse("sub");
				if (ownerField == null || ownerField.isBlank() || claim.isBlank()) {
					problem(directive, UnenforceableRule::new,
							"`@auth` on `%s`: an OWNER rule needs `ownerField` (and a non-empty `identityClaim`)."
						.formatted(at));
					yield null;
				}
				yield new AuthRule.Owner(ownerField, claim);
			}
			case "GROUPS" -> {
				Set<String> groups = names(fields.get("groups"));
				String claim = Optional.ofNullable(text(fields.get("groupClaim"))).orElse("groups");
				if (groups.isEmpty() || claim.isBlank()) {
					problem(directive, UnenforceableRule::new,
							"`@auth` on `%s`: a GROUPS rule needs `groups` (and a non-empty `groupClaim`)."
						.formatted(at));
					yield null;
				}
				yield new AuthRule.Groups(groups, claim);
			}
			case "SCOPES" -> {
				Set<String> scopes = names(fields.get("scopes"));
				if (scopes.isEmpty()) {
					problem(directive, UnenforceableRule::new,
							"`@auth` on `%s`: a SCOPES rule needs `scopes`.".formatted(at));
					yield null;
				}
				yield new AuthRule.Scopes(scopes);
			}
			default -> throw new IllegalStateException("AuthStrategy " + allow);
		};
	}

	/** A type's OWNER rule names a String or ID field of the type. */
	private void checkTypeOwners(Directive directive, Entity entity, List<AuthRule> rules) {
		for (AuthRule rule : rules) {
			if (!(rule instanceof AuthRule.Owner owner)) {
				continue;
			}
			AttributeField field = entity.fields().get(owner.ownerField());
			ObjectTypeDefinition type = this.registry.getTypeOrNull(entity.name(), ObjectTypeDefinition.class);
			FieldDefinition definition = (type != null) ? fields(type).stream()
				.filter((each) -> each.getName().equals(owner.ownerField()))
				.findFirst()
				.orElse(null) : null;
			if (field == null || definition == null || !isIdentity(definition.getType())) {
				problem(directive, UnenforceableRule::new,
						("`@auth` on `%s`: the OWNER rule's `ownerField` must be a String or ID field of `%s` "
						+ "that reads an attribute; `%s` is not one.").formatted(entity.name(), entity.name(),
								owner.ownerField()));
			}
		}
	}

	/**
	 * A field's OWNER path: an argument (through input objects, or from an ID argument to the owner field
	 * of its node's type) or a field of the parent item, ending at a String or ID.
	 * @return whether it is a field of the parent item; null when the path is wrong (a problem is added)
	 */
	private Boolean checkFieldOwner(Directive directive, String coordinates, FieldDefinition field, Entity parent,
			String path) {
		String[] segments = path.split("\\.", -1);
		InputValueDefinition argument = field.getInputValueDefinitions()
			.stream()
			.filter((each) -> each.getName().equals(segments[0]))
			.findFirst()
			.orElse(null);
		String wrong = null;
		if (argument == null) {
			if (parent == null || segments.length > 1 || !parent.fields().containsKey(segments[0])) {
				wrong = "`%s` is neither an argument of the field nor a field of its parent item".formatted(segments[0]);
			}
			else if (!isIdentity(parentField(parent, segments[0]))) {
				wrong = "the parent's field `%s` is not a String or ID".formatted(segments[0]);
			}
		}
		else {
			wrong = argumentPathProblem(argument, segments, path);
		}
		if (wrong != null) {
			problem(directive, UnenforceableRule::new,
					("`@auth` on `%s`: the OWNER rule's `ownerField` `%s` must lead to a String or ID: an "
					+ "argument (`input.userId` into an input object, `id.userId` to the owner of the node an ID names) "
					+ "or a field of the parent item; %s.").formatted(coordinates, path, wrong));
			return null;
		}
		return argument == null;
	}

	/**
	 * What is wrong with an OWNER path that starts at an argument, if anything: it must go through input objects
	 * to a String or ID, or end at the owner field of the nodes an ID argument names.
	 */
	private String argumentPathProblem(InputValueDefinition argument, String[] segments, String path) {
		Type<?> type = argument.getType();
		for (int i = 1; i < segments.length; i++) {
			if (type instanceof ListType || (type instanceof NonNullType nonNull && nonNull.getType() instanceof ListType)) {
				return "`%s` is a list".formatted(segments[i - 1]);
			}
			String name = typeName(type);
			if (name.equals("ID") && i == segments.length - 1) {
				String ownerField = segments[i];
				boolean owned = this.declarations.entities().values().stream()
					.anyMatch((entity) -> entity.node() && owner(this.types.get(entity.name())) != null
							&& owner(this.types.get(entity.name())).ownerField().equals(ownerField));
				// The owner of the node the id names, by its type's OWNER rule.
				return owned ? null : ("no type with ids has an OWNER rule on `%s`: after an ID argument, name the "
						+ "owner field of the types its ids may name").formatted(ownerField);
			}
			InputObjectTypeDefinition input = this.registry.getTypeOrNull(name, InputObjectTypeDefinition.class);
			String segment = segments[i];
			InputValueDefinition next = (input == null) ? null : input.getInputValueDefinitions()
				.stream()
				.filter((each) -> each.getName().equals(segment))
				.findFirst()
				.orElse(null);
			if (next == null) {
				return "`%s` has no field `%s`".formatted(segments[i - 1], segments[i]);
			}
			type = next.getType();
		}
		return isIdentity(type) ? null : "`%s` is not a String or ID".formatted(path);
	}

	/**
	 * Every connection that returns a type with an OWNER rule can tell the owner: from its partition key,
	 * or, for a connection of that one type, by a filter on the owner's own attribute.
	 */
	private void checkConnectionOwners() {
		for (DeclaredConnection connection : this.declarations.connections()) {
			for (Entity node : connection.nodes()) {
				AuthRule.Owner owner = owner(this.types.get(node.name()));
				if (owner == null) {
					continue;
				}
				AttributeField field = node.fields().get(owner.ownerField());
				if (field == null || Access.ownerInPartition(connection, node, field)) {
					continue;
				}
				String coordinates = connection.name();
				if (connection.nodes().size() > 1) {
					problem(connection, UnenforceableRule::new,
							("`%s` returns several types, and `%s`'s owner (`%s`) is not in its partition key: "
							+ "a connection of several types checks owners from its key only. Read `%s` through a connection "
							+ "of its own, or partition by the owner.").formatted(coordinates, node.name(), field.name(),
									node.name()));
				}
				else if (connection.definition().sortKey().map((key) -> key.name().equals(field.attribute())).orElse(false)) {
					problem(connection, UnenforceableRule::new,
							("`%s` must serve only the caller's `%s` items, and their owner `%s` is the sort key "
							+ "of what it reads, which DynamoDB does not filter on. Read `%s` through a connection partitioned "
							+ "by the owner.").formatted(coordinates, node.name(), field.name(), node.name()));
				}
				else if (!Access.storedOnItsOwn(node, field)) {
					problem(connection, UnenforceableRule::new,
							("`%s` must serve only the caller's `%s` items, and `%s` is not in its partition "
							+ "key nor stored as an attribute of its own (it is part of a composed key), so no filter can "
							+ "match it. Partition the connection by the owner, or store `%s` as an attribute.")
						.formatted(coordinates, node.name(), field.name(), field.name()));
				}
			}
		}
	}

	static AuthRule.Owner owner(List<AuthRule> rules) {
		if (rules == null) {
			return null;
		}
		for (AuthRule rule : rules) {
			if (rule instanceof AuthRule.Owner owner) {
				return owner;
			}
		}
		return null;
	}

	private Type<?> parentField(Entity parent, String name) {
		ObjectTypeDefinition type = this.registry.getTypeOrNull(parent.name(), ObjectTypeDefinition.class);
		return fields(type).stream().filter((each) -> each.getName().equals(name)).findFirst()
			.map(FieldDefinition::getType).orElse(null);
	}

	private static boolean isIdentity(Type<?> type) {
		if (type == null) {
			return false;
		}
		Type<?> bare = (type instanceof NonNullType nonNull) ? nonNull.getType() : type;
		return bare instanceof TypeName name && (name.getName().equals("String") || name.getName().equals("ID"));
	}

	private List<FieldDefinition> fields(ObjectTypeDefinition type) {
		return SchemaNodes.fields(this.registry, type);
	}

	private static Directive directive(List<Directive> directives) {
		return directives.stream().filter((each) -> each.getName().equals("auth")).findFirst().orElse(null);
	}

	private static String text(Value<?> value) {
		return (value instanceof StringValue string) ? string.getValue() : null;
	}

	private static Set<String> names(Value<?> value) {
		Set<String> names = new LinkedHashSet<>();
		if (value instanceof ArrayValue array) {
			array.getValues().forEach((each) -> {
				String name = text(each);
				if (name != null && !name.isBlank()) {
					names.add(name);
				}
			});
		}
		else if (text(value) != null && !text(value).isBlank()) {
			names.add(text(value));
		}
		return names;
	}

	private static String typeName(Type<?> type) {
		return SchemaNodes.typeName(type);
	}

	private void problem(graphql.language.Node<?> at, BiFunction<Location, String, Problem> kind, String message) {
		this.problems.add(kind.apply(Location.of(at), Objects.requireNonNull(message)));
	}

	private void problem(DeclaredConnection connection, BiFunction<Location, String, Problem> kind, String message) {
		ObjectTypeDefinition type = this.registry.getTypeOrNull(connection.coordinates().getTypeName(),
				ObjectTypeDefinition.class);
		FieldDefinition field = (type == null) ? null : fields(type).stream()
			.filter((each) -> each.getName().equals(connection.coordinates().getFieldName()))
			.findFirst()
			.orElse(null);
		problem(field, kind, message);
	}

}
