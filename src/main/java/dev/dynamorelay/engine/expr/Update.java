package dev.dynamorelay.engine.expr;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.engine.action.AwsError;
import dev.dynamorelay.engine.value.Values;

/**
 * How an UpdateItem changes an item: an UpdateExpression's actions, or a legacy {@code AttributeUpdates} converted
 * to the same actions. {@link #apply} makes the new item as DynamoDB does: every path and every value is read from
 * the item as it was before the update (so {@code REMOVE a[1], a[2]} removes the second and third elements of the
 * list as it was), list elements set beyond the end are appended in the order of their indexes, and the runtime
 * errors are DynamoDB's.
 *
 * <p>See the Developer Guide, "Update expressions".
 *
 * @param actions the actions, in the order written
 * @param legacy whether the actions come from {@code AttributeUpdates}, whose type errors read "Type mismatch for
 * attribute to update" and whose ADD appends to lists
 */
public record Update(List<Action> actions, boolean legacy) {

	public Update {
		actions = List.copyOf(actions);
	}

	/** One action of an update. */
	public sealed interface Action permits SetAction, RemoveAction, AddAction, DeleteAction {

		/** Where the action writes. */
		Path path();

	}

	/**
	 * {@code SET path = value}.
	 * @param path where
	 * @param value what
	 */
	public record SetAction(Path path, Value value) implements Action {
	}

	/**
	 * {@code REMOVE path}: an attribute, a map key or a list element; nothing if it is not there.
	 * @param path where
	 */
	public record RemoveAction(Path path) implements Action {
	}

	/**
	 * {@code ADD path value}: a number added to a number (or to zero), a set's elements to a set (or to nothing).
	 * @param path where
	 * @param value the number or set
	 */
	public record AddAction(Path path, AttributeValue value) implements Action {
	}

	/**
	 * {@code DELETE path value}: a set's elements taken from a set; the attribute goes when none is left.
	 * @param path where
	 * @param value the set
	 */
	public record DeleteAction(Path path, AttributeValue value) implements Action {
	}

	/** The value of a SET action, evaluated on the item as it was before the update. */
	public sealed interface Value permits Value.Attribute, Value.Literal, Value.IfNotExists, Value.ListAppend,
			Value.Plus, Value.Minus {

		/**
		 * The value for {@code item}.
		 * @throws AwsError a {@code ValidationException} with DynamoDB's message when an attribute read is missing
		 * or of the wrong type
		 */
		AttributeValue evaluate(Map<String, AttributeValue> item);

		/** The type known before evaluation (DynamoDB's check of index key types), or null. */
		AttributeValue.Type knownType();

		/**
		 * An attribute of the item.
		 * @param path its path
		 */
		record Attribute(Path path) implements Value {

			@Override
			public AttributeValue evaluate(Map<String, AttributeValue> item) {
				AttributeValue value = this.path.resolve(item);
				if (value == null) {
					throw AwsError.validation("The provided expression refers to an attribute that does not exist in the item");
				}
				return value;
			}

			@Override
			public AttributeValue.Type knownType() {
				return null;
			}

		}

		/**
		 * An expression attribute value.
		 * @param value the value
		 */
		record Literal(AttributeValue value) implements Value {

			@Override
			public AttributeValue evaluate(Map<String, AttributeValue> item) {
				return this.value;
			}

			@Override
			public AttributeValue.Type knownType() {
				return this.value.type();
			}

		}

		/**
		 * {@code if_not_exists(path, value)}: the attribute at the path if the item has one, else the value.
		 * @param path the attribute
		 * @param fallback the value when it is missing
		 */
		record IfNotExists(Path path, Value fallback) implements Value {

			@Override
			public AttributeValue evaluate(Map<String, AttributeValue> item) {
				AttributeValue value = this.path.resolve(item);
				return (value != null) ? value : this.fallback.evaluate(item);
			}

			@Override
			public AttributeValue.Type knownType() {
				return this.fallback.knownType();
			}

		}

		/**
		 * {@code list_append(list1, list2)}: the elements of the second list after those of the first.
		 * @param first the first list
		 * @param second the second list
		 */
		record ListAppend(Value first, Value second) implements Value {

			@Override
			public AttributeValue evaluate(Map<String, AttributeValue> item) {
				AttributeValue left = ofType(this.first.evaluate(item), AttributeValue.Type.L);
				AttributeValue right = ofType(this.second.evaluate(item), AttributeValue.Type.L);
				List<AttributeValue> both = new ArrayList<>(left.l());
				both.addAll(right.l());
				return AttributeValue.fromL(both);
			}

			@Override
			public AttributeValue.Type knownType() {
				return AttributeValue.Type.L;
			}

		}

		/**
		 * {@code left + right}: the exact sum, refused beyond DynamoDB's range or 38 digits.
		 * @param left a number
		 * @param right a number
		 */
		record Plus(Value left, Value right) implements Value {

			@Override
			public AttributeValue evaluate(Map<String, AttributeValue> item) {
				BigDecimal a = number(this.left.evaluate(item));
				BigDecimal b = number(this.right.evaluate(item));
				return UpdateApplier.arithmeticResult(a.add(b));
			}

			@Override
			public AttributeValue.Type knownType() {
				return AttributeValue.Type.N;
			}

		}

		/**
		 * {@code left - right}: the exact difference, refused beyond DynamoDB's range or 38 digits.
		 * @param left a number
		 * @param right a number
		 */
		record Minus(Value left, Value right) implements Value {

			@Override
			public AttributeValue evaluate(Map<String, AttributeValue> item) {
				BigDecimal a = number(this.left.evaluate(item));
				BigDecimal b = number(this.right.evaluate(item));
				return UpdateApplier.arithmeticResult(a.subtract(b));
			}

			@Override
			public AttributeValue.Type knownType() {
				return AttributeValue.Type.N;
			}

		}

		private static BigDecimal number(AttributeValue value) {
			return Values.number(ofType(value, AttributeValue.Type.N).n());
		}

		private static AttributeValue ofType(AttributeValue value, AttributeValue.Type type) {
			if (value.type() != type) {
				throw UpdateApplier.incorrectType(false);
			}
			return value;
		}

	}

	/**
	 * The item after the update; {@code item} (empty when there was none, the key otherwise included by the caller)
	 * is not changed.
	 * @throws AwsError a {@code ValidationException} with DynamoDB's message: an attribute read is missing ("The
	 * provided expression refers to an attribute that does not exist in the item"), an operand is of the wrong type
	 * ("An operand in the update expression has an incorrect data type"), a path's parent is missing or not a map
	 * or list as the path says ("The document path provided in the update expression is invalid for update"), a
	 * number leaves DynamoDB's range
	 */
	public Map<String, AttributeValue> apply(Map<String, AttributeValue> item) {
		return new UpdateApplier(this, item).apply();
	}

	/** Every path the update writes, in order. */
	public List<Path> paths() {
		List<Path> paths = new ArrayList<>();
		for (Action action : this.actions) {
			paths.add(action.path());
		}
		return paths;
	}

	/** The top-level attributes the update writes (a key attribute may not be written). */
	public Set<String> touchedTopLevelNames() {
		Set<String> names = new LinkedHashSet<>();
		for (Action action : this.actions) {
			names.add(action.path().head());
		}
		return names;
	}

	/** The top-level attributes the update writes below (a key attribute may not be read or written so). */
	public Set<String> nestedTopLevelNames() {
		Set<String> names = new LinkedHashSet<>();
		for (Action action : this.actions) {
			if (action.path().isNested()) {
				names.add(action.path().head());
			}
		}
		for (Action action : this.actions) {
			if (action instanceof SetAction set) {
				collectNested(set.value(), names);
			}
		}
		return names;
	}

	private static void collectNested(Value value, Set<String> names) {
		if (value instanceof Value.Attribute attribute && attribute.path().isNested()) {
			names.add(attribute.path().head());
		}
		else if (value instanceof Value.IfNotExists ifNotExists) {
			if (ifNotExists.path().isNested()) {
				names.add(ifNotExists.path().head());
			}
			collectNested(ifNotExists.fallback(), names);
		}
		else if (value instanceof Value.ListAppend append) {
			collectNested(append.first(), names);
			collectNested(append.second(), names);
		}
		else if (value instanceof Value.Plus plus) {
			collectNested(plus.left(), names);
			collectNested(plus.right(), names);
		}
		else if (value instanceof Value.Minus minus) {
			collectNested(minus.left(), names);
			collectNested(minus.right(), names);
		}
	}

	/**
	 * The type a top-level attribute is given, as far as it is known before the update runs (a SET of a value, a
	 * sum or a list, an ADD or a DELETE of a value), or null: DynamoDB checks it against an index key's type before
	 * reading the item ("Type mismatch for Index Key ...").
	 */
	public AttributeValue.Type assignedType(String topLevelName) {
		for (Action action : this.actions) {
			Path path = action.path();
			if (path.isNested() || !path.head().equals(topLevelName)) {
				continue;
			}
			if (action instanceof SetAction set) {
				return set.value().knownType();
			}
			if (action instanceof AddAction add) {
				return add.value().type();
			}
			if (action instanceof DeleteAction delete) {
				return delete.value().type();
			}
			return null;
		}
		return null;
	}

	/**
	 * The paths the update wrote, as a projection: what UPDATED_OLD and UPDATED_NEW return of the item before and
	 * after (as dynalite returns them).
	 */
	public Projection updatedPaths() {
		return new Projection(paths());
	}

}
