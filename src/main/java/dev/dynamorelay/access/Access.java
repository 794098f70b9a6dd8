package dev.dynamorelay.access;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

import graphql.ExecutionResult;
import graphql.schema.FieldCoordinates;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.access.Caller;
import dev.dynamorelay.declaration.Declarations;
import dev.dynamorelay.declaration.DeclaredConnection;
import dev.dynamorelay.error.AccessDeniedException;
import dev.dynamorelay.error.ErrorCode;
import dev.dynamorelay.error.GraphQlErrors;
import dev.dynamorelay.model.Entity.AttributeField;
import dev.dynamorelay.model.Entity;
import dev.dynamorelay.model.Filter;
import dev.dynamorelay.model.Item;
import dev.dynamorelay.model.KeyAttribute;
import dev.dynamorelay.model.KeyTemplate;
import dev.dynamorelay.model.NodeIds;

/**
 * Decides, before a field reads anything, whether its caller may use it, by the schema's {@code @auth}
 * rules: a field's own rules (who may call it) and, for a field that returns stored items, their type's
 * rules (whose items the caller may see). Once enforced (a JWT key is configured), a field that neither
 * covers is denied to everyone.
 *
 * <p>An OWNER rule of a type is settled from the key when the key holds the owner: a connection's
 * partition, a lookup's or node id's key. A connection whose partition does not hold it serves only the
 * caller's items (a filter the connection's cursors are bound to, like any filter); a lookup or node
 * whose key does not hold it is checked on the item read.
 */
public final class Access {

	private final AccessRules rules;

	private final Declarations declarations;

	private final boolean enforced;

	public Access(AccessRules rules, Declarations declarations, boolean enforced) {
		this.rules = Objects.requireNonNull(rules, "rules");
		this.declarations = Objects.requireNonNull(declarations, "declarations");
		this.enforced = enforced;
	}

	/** The field's own rules. */
	public List<AuthRule> rules(FieldCoordinates field) {
		return this.rules.field(field);
	}

	/** Whether rules are checked: a JWT key is configured. */
	public boolean enforced() {
		return this.enforced;
	}

	/**
	 * Checks a field that reads no declared items (a mutation, a field wired in Java): its own rules.
	 * @throws AccessDeniedException when the caller may not call it, or it has no rule
	 */
	public void field(FieldCoordinates at, Caller caller, Function<String, Object> arguments, Object source) {
		if (!this.enforced) {
			return;
		}
		List<AuthRule> own = this.rules.field(at);
		if (own.isEmpty()) {
			throw AccessDeniedException.forbidden(("`%s` has no @auth rule: with a JWT key configured, a field without "
					+ "rules is closed to everyone.").formatted(name(at)));
		}
		checkField(at, own, caller, arguments, source);
	}

	/**
	 * Checks a connection for one call, before it reads.
	 * @return filters to add to its read: the caller's ownership where the partition does not settle it
	 * @throws AccessDeniedException when the caller may not read it
	 */
	public List<Filter> connection(DeclaredConnection connection, Optional<AttributeValue> partition, Caller caller,
			Function<String, Object> arguments, Item parent) {
		if (!this.enforced) {
			return List.of();
		}
		FieldCoordinates at = connection.coordinates();
		boolean ownRules = checkOwn(at, caller, arguments, parent);
		List<Filter> filters = new ArrayList<>(0);
		for (Entity node : connection.nodes()) {
			Owned owned = grant(at, node, caller, ownRules);
			if (owned == null) {
				continue;
			}
			if (ownerInPartition(connection, node, owned.field()) && partition.isPresent()) {
				String partitionKey = connection.definition().partitionKey().orElseThrow().name();
				String owner = text(node.exactly(Map.of(partitionKey, partition.get()), owned.field()));
				if (!owned.identity().equals(owner)) {
					throw AccessDeniedException.forbidden(("`%s` reads the %s items of `%s` %s, and the token's `%s` is "
							+ "%s; %s allows %s.").formatted(name(at), node.name(), owned.field().name(),
									(owner != null) ? owner : "(a key that does not read back one way)",
									owned.rule().identityClaim(), owned.identity(), node.name(), describe(node)));
				}
			}
			else {
				filters.add(new Filter(owned.field().attribute(), Filter.Op.EQ,
						List.of(AttributeValue.fromS(owned.identity()))));
			}
		}
		return filters;
	}

	/**
	 * Whether an owner rule may add a filter to a connection (for a caller no other rule allows): its
	 * reads then weigh as a filtered page's.
	 */
	public boolean mayFilterByOwner(DeclaredConnection connection) {
		return !ownerFilters(connection).isEmpty();
	}

	/** The owner fields an owner rule may filter a connection on (for a caller no other rule allows), by type. */
	public Map<Entity, AttributeField> ownerFilters(DeclaredConnection connection) {
		if (!this.enforced) {
			return Map.of();
		}
		Map<Entity, AttributeField> filters = new java.util.LinkedHashMap<>();
		for (Entity node : connection.nodes()) {
			AuthRule.Owner owner = AccessRulesReader.owner(this.rules.type(node.name()));
			AttributeField field = (owner != null) ? node.fields().get(owner.ownerField()) : null;
			if (field != null && !ownerInPartition(connection, node, field)) {
				filters.put(node, field);
			}
		}
		return filters;
	}

	/**
	 * Checks a read of one item by key (a lookup, a node id), before it reads. An owner the key holds is
	 * compared now; one it does not hold is compared on the item read, and another owner's item is then
	 * answered as a missing one (null, no error), so that neither its content nor its existence shows.
	 * @return the check of the item read (identity when there is nothing left to check)
	 * @throws AccessDeniedException when the caller may not read it
	 */
	public UnaryOperator<Item> item(FieldCoordinates at, Entity entity, Map<String, AttributeValue> key, Caller caller,
			Function<String, Object> arguments, Item parent) {
		if (!this.enforced) {
			return UnaryOperator.identity();
		}
		boolean ownRules = checkOwn(at, caller, arguments, parent);
		Owned owned = grant(at, entity, caller, ownRules);
		if (owned == null) {
			return UnaryOperator.identity();
		}
		if (!key.keySet().containsAll(entity.table().primaryKey().stream().map(KeyAttribute::name).toList())) {
			return UnaryOperator.identity(); // a key the parent does not fill: nothing is read
		}
		if (inKey(entity, owned.field())) {
			String owner = text(entity.exactly(key, owned.field()));
			if (!owned.identity().equals(owner)) {
				throw AccessDeniedException.forbidden(("`%s` reads a %s item of `%s` %s, and the token's `%s` is %s; %s "
						+ "allows %s.").formatted(name(at), entity.name(), owned.field().name(),
								(owner != null) ? owner : "(a key that does not read back one way)",
								owned.rule().identityClaim(), owned.identity(), entity.name(), describe(entity)));
			}
			return UnaryOperator.identity();
		}
		return (item) -> (item != null && owned.identity().equals(text(item.entity().exactly(item.attributes(),
				owned.field())))) ? item : null;
	}

	/**
	 * Checks a declared mutation's or live connection's own rules, if it has any (its type's rules apply as it
	 * writes, {@link #write}, or as its connection reads, {@link #connection}).
	 * @throws AccessDeniedException when the caller may not call it
	 */
	public void ownRules(FieldCoordinates at, Caller caller, Function<String, Object> arguments) {
		if (this.enforced && !this.rules.field(at).isEmpty()) {
			checkField(at, this.rules.field(at), caller, arguments, null);
		}
	}

	/**
	 * Whose items of {@code entity} a mutation at {@code at} may write for {@code caller}, by the type's
	 * rules (the field's own are checked before it runs): any (empty), or only the caller's own.
	 * @throws AccessDeniedException when the type's rules allow the caller none
	 */
	public Optional<Owner> write(FieldCoordinates at, Entity entity, Caller caller) {
		if (!this.enforced) {
			return Optional.empty();
		}
		Owned owned = grant(at, entity, caller, !this.rules.field(at).isEmpty());
		return (owned != null) ? Optional.of(new Owner(owned.field(), owned.identity())) : Optional.empty();
	}

	/**
	 * Under which items of {@code parent} a mutation at {@code at} may write their children for {@code caller}:
	 * any (empty), or only the caller's own, by the parent type's rules, which the children's own rules do not
	 * loosen. A parent type without rules leaves its children to theirs.
	 * @throws AccessDeniedException when the parent type's rules allow the caller none
	 */
	public Optional<Owner> writeUnder(FieldCoordinates at, Entity parent, Caller caller) {
		if (!this.enforced) {
			return Optional.empty();
		}
		List<AuthRule> rules = this.rules.type(parent.name());
		if (rules.isEmpty() || allows(rules, caller)) {
			return Optional.empty();
		}
		AuthRule.Owner owner = AccessRulesReader.owner(rules);
		if (owner != null && caller.signedIn()) {
			Optional<String> identity = caller.text(owner.identityClaim());
			if (identity.isPresent()) {
				return Optional.of(new Owner(parent.fields().get(owner.ownerField()), identity.get()));
			}
		}
		throw denied(at, "type %s, whose items' children it writes,".formatted(parent.name()), rules, caller);
	}

	/**
	 * The items a caller owns under a type's OWNER rule.
	 *
	 * @param field the type's owner field
	 * @param identity the caller's identity, by the rule's claim
	 */
	public record Owner(AttributeField field, String identity) {
	}

	/**
	 * Checks what a field wired in Java returns (an item, a list of them, or either to come): each item's
	 * type rules, unless the field's own rules cover a type without any.
	 * @return {@code value}, or the same to come, checked
	 * @throws AccessDeniedException when an item is one the caller may not read
	 */
	public Object returned(FieldCoordinates at, Caller caller, Object value) {
		if (!this.enforced || value == null) {
			return value;
		}
		boolean ownRules = !this.rules.field(at).isEmpty();
		if (value instanceof java.util.concurrent.CompletionStage<?> later) {
			return later.thenApply((done) -> returned(at, caller, done));
		}
		if (value instanceof graphql.execution.DataFetcherResult<?> result) {
			returned(at, caller, result.getData());
			return value;
		}
		if (value instanceof Iterable<?> items) {
			items.forEach((each) -> returned(at, caller, each));
			return value;
		}
		if (value instanceof Item item) {
			Owned owned = grant(at, item.entity(), caller, ownRules);
			if (owned != null && !owned.identity().equals(text(item.entity().exactly(item.attributes(), owned.field())))) {
				throw AccessDeniedException.forbidden("`%s` returns a %s item this caller may not read; %s allows %s."
					.formatted(name(at), item.entity().name(), item.entity().name(), describe(item.entity())));
			}
		}
		return value;
	}

	/**
	 * Whether nothing of a request could run for want of a caller: it has errors, all
	 * {@code UNAUTHENTICATED}, and no root field has data. Answered with HTTP 401.
	 */
	public static boolean nothingRanUnauthenticated(ExecutionResult result) {
		if (result.getErrors().isEmpty() || !result.getErrors().stream().allMatch((error) -> GraphQlErrors.has(error, ErrorCode.UNAUTHENTICATED))) {
			return false;
		}
		Object data = result.getData();
		return data == null || (data instanceof Map<?, ?> fields && fields.values().stream().allMatch(Objects::isNull));
	}

	/**
	 * Whether a connection's partition key holds a type's owner field: the field is the partition key
	 * attribute of the table or index read, or a placeholder of the type's partition key template.
	 */
	static boolean ownerInPartition(DeclaredConnection connection, Entity node, AttributeField field) {
		Optional<KeyAttribute> partitionKey = connection.definition().partitionKey();
		if (partitionKey.isEmpty()) {
			return false;
		}
		String attribute = partitionKey.get().name();
		return field.attribute().equals(attribute) || (attribute.equals(node.table().partitionKey().name())
				&& node.partition().placeholders().contains(field.name()));
	}

	/** Whether an item's key holds a field: it is a key attribute, or a placeholder of a key template. */
	private static boolean inKey(Entity entity, AttributeField field) {
		return entity.table().primaryKey().stream().anyMatch((key) -> key.name().equals(field.attribute()))
				|| entity.partition().placeholders().contains(field.name())
				|| entity.sort().map((sort) -> sort.placeholders().contains(field.name())).orElse(false);
	}

	/** Whether a field is stored as an attribute of its own, not only as part of a composed key. */
	static boolean storedOnItsOwn(Entity node, AttributeField field) {
		return field.named() || !composedOf(node.partition(), field) && !node.sort().map((sort) -> composedOf(sort, field)).orElse(false);
	}

	private static boolean composedOf(KeyTemplate template, AttributeField field) {
		return !template.isPlaceholder() && template.placeholders().contains(field.name());
	}

	/** Checks the field's own rules, if it has any; whether it has. */
	private boolean checkOwn(FieldCoordinates at, Caller caller, Function<String, Object> arguments, Item parent) {
		List<AuthRule> own = this.rules.field(at);
		if (own.isEmpty()) {
			return false;
		}
		checkField(at, own, caller, arguments, parent);
		return true;
	}

	private void checkField(FieldCoordinates at, List<AuthRule> own, Caller caller, Function<String, Object> arguments,
			Object source) {
		if (allows(own, caller)) {
			return;
		}
		AuthRule.Owner owner = AccessRulesReader.owner(own);
		if (owner != null && caller.signedIn()) {
			Optional<String> identity = caller.text(owner.identityClaim());
			if (identity.isPresent() && identity.get().equals(ownerValue(owner, arguments, source))) {
				return;
			}
		}
		throw denied(at, "the field", own, caller);
	}

	/**
	 * What the type's rules grant: everything (null), or only the items the caller owns.
	 * @throws AccessDeniedException when they grant nothing
	 */
	private Owned grant(FieldCoordinates at, Entity node, Caller caller, boolean ownRules) {
		List<AuthRule> rules = this.rules.type(node.name());
		if (rules.isEmpty()) {
			if (ownRules) {
				return null;
			}
			throw AccessDeniedException.forbidden(("`%s` has no @auth rule, and neither has %s: with a JWT key "
					+ "configured, a field that no rule covers is closed to everyone.").formatted(name(at), node.name()));
		}
		if (allows(rules, caller)) {
			return null;
		}
		AuthRule.Owner owner = AccessRulesReader.owner(rules);
		if (owner != null && caller.signedIn()) {
			Optional<String> identity = caller.text(owner.identityClaim());
			if (identity.isPresent()) {
				return new Owned(owner, node.fields().get(owner.ownerField()), identity.get());
			}
		}
		throw denied(at, "type " + node.name(), rules, caller);
	}

	/** Whether a rule other than OWNER allows the caller. */
	private static boolean allows(List<AuthRule> rules, Caller caller) {
		for (AuthRule rule : rules) {
			if (allows(rule, caller)) {
				return true;
			}
		}
		return false;
	}

	private static boolean allows(AuthRule rule, Caller caller) {
		if (rule instanceof AuthRule.Public) {
			return true;
		}
		if (rule instanceof AuthRule.SignedIn) {
			return caller.signedIn();
		}
		if (rule instanceof AuthRule.Groups groups) {
			return caller.values(groups.groupClaim()).stream().anyMatch(groups.groups()::contains);
		}
		if (rule instanceof AuthRule.Scopes scopes) {
			return caller.scopes().stream().anyMatch(scopes.scopes()::contains);
		}
		return false; // OWNER compares a value of the item or the arguments
	}

	/**
	 * The value an OWNER rule of a field compares: an argument (into input objects, or to the owner of the
	 * node an ID names), or a field of the parent item; null when there is none.
	 */
	private String ownerValue(AuthRule.Owner owner, Function<String, Object> arguments, Object source) {
		if (owner.parentField()) {
			if (!(source instanceof Item parent)) {
				return null;
			}
			AttributeField field = parent.entity().fields().get(owner.ownerField());
			return (field != null) ? text(parent.entity().exactly(parent.attributes(), field)) : null;
		}
		String[] segments = owner.ownerField().split("\\.");
		Object value = arguments.apply(segments[0]);
		for (int i = 1; i < segments.length && value != null; i++) {
			if (value instanceof Map<?, ?> input) {
				value = input.get(segments[i]);
			}
			else if (value instanceof String id) {
				// The owner of the node the id names, by its type's OWNER rule on this field; no other type's.
				NodeIds.Key key = this.declarations.decode(id);
				AuthRule.Owner rule = AccessRulesReader.owner(this.rules.type(key.entity().name()));
				AttributeField field = key.entity().fields().get(segments[i]);
				value = (rule != null && rule.ownerField().equals(segments[i]) && field != null)
						? text(key.entity().exactly(key.key(), field)) : null;
			}
			else {
				value = null;
			}
		}
		return (value instanceof String text && !text.isBlank()) ? text : null;
	}

	/** Denied by {@code rules} (of the field, or of the type it returns: {@code whose}). */
	private static AccessDeniedException denied(FieldCoordinates at, String whose, List<AuthRule> rules, Caller caller) {
		String allowed = rules.stream().map(AuthRule::describe).collect(Collectors.joining(", or "));
		if (!caller.signedIn()) {
			return AccessDeniedException.unauthenticated(("`%s` needs a signed-in caller: send a valid token as "
					+ "`Authorization: Bearer <token>` (over WebSocket, in `connection_init`'s payload) (%s allows %s).")
				.formatted(name(at), whose, allowed));
		}
		return AccessDeniedException.forbidden("`%s` is not allowed with this token: %s allows %s."
			.formatted(name(at), whose, allowed));
	}

	private String describe(Entity entity) {
		return this.rules.type(entity.name()).stream().map(AuthRule::describe).collect(Collectors.joining(", or "));
	}

	private static String name(FieldCoordinates at) {
		return at.toString();
	}

	private static String text(AttributeValue value) {
		if (value == null) {
			return null;
		}
		return (value.s() != null) ? value.s() : value.n();
	}

	/**
	 * A grant of the items of one owner.
	 *
	 * @param rule the type's OWNER rule
	 * @param field the owner field
	 * @param identity the caller's identity claim
	 */
	private record Owned(AuthRule.Owner rule, AttributeField field, String identity) {
	}

}
