package dev.dynamorelay.engine.expr;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.engine.value.Values;

/**
 * A condition on an item: a ConditionExpression, a FilterExpression, or a legacy {@code Expected},
 * {@code QueryFilter} or {@code ScanFilter} converted to the same tree. {@link #test} evaluates it as DynamoDB
 * does: a comparison of values of different types, or with an attribute the item lacks, is false, never an error.
 *
 * <p>See the Developer Guide, "Comparison operator and function reference" and "Condition expressions".
 */
public sealed interface Condition permits Condition.And, Condition.Or, Condition.Not, Condition.Compare,
		Condition.Between, Condition.In, Condition.AttributeExists, Condition.AttributeNotExists,
		Condition.AttributeType, Condition.BeginsWith, Condition.Contains {

	/** Whether {@code item} satisfies the condition; an absent item is tested as an empty map. */
	boolean test(Map<String, AttributeValue> item);

	/** Every document path the condition reads, in the order they appear. */
	default List<Path> paths() {
		List<Path> paths = new ArrayList<>();
		Conditions.collectPaths(this, paths);
		return paths;
	}

	/** The top-level attribute names the condition reads (DynamoDB's check of filters on key attributes). */
	default Set<String> topLevelNames() {
		Set<String> names = new LinkedHashSet<>();
		for (Path path : paths()) {
			names.add(path.head());
		}
		return names;
	}

	/** The top-level attribute names the condition reads below (a key attribute may not be read so). */
	default Set<String> nestedTopLevelNames() {
		Set<String> names = new LinkedHashSet<>();
		for (Path path : paths()) {
			if (path.isNested()) {
				names.add(path.head());
			}
		}
		return names;
	}

	/** The comparators of {@code operand comparator operand}. */
	enum Comparator {

		/** {@code =} */
		EQ("="),
		/** {@code <>} */
		NE("<>"),
		/** {@code <} */
		LT("<"),
		/** {@code <=} */
		LE("<="),
		/** {@code >} */
		GT(">"),
		/** {@code >=} */
		GE(">=");

		private final String symbol;

		Comparator(String symbol) {
			this.symbol = symbol;
		}

		/** The comparator as an expression writes it. */
		public String symbol() {
			return this.symbol;
		}

		/** The comparator written {@code symbol}, or null. */
		static Comparator of(String symbol) {
			for (Comparator comparator : values()) {
				if (comparator.symbol.equals(symbol)) {
					return comparator;
				}
			}
			return null;
		}

		boolean test(AttributeValue left, AttributeValue right) {
			return switch (this) {
				case EQ -> left != null && right != null && Values.equal(left, right);
				// <> is the negation of =: true when either side is missing or of another type.
				case NE -> left == null || right == null || !Values.equal(left, right);
				default -> {
					Integer order = Conditions.order(left, right);
					if (order == null) {
						yield false;
					}
					yield switch (this) {
						case LT -> order < 0;
						case LE -> order <= 0;
						case GT -> order > 0;
						default -> order >= 0;
					};
				}
			};
		}

	}

	/**
	 * {@code left AND right}.
	 * @param left the first condition
	 * @param right the second condition
	 */
	record And(Condition left, Condition right) implements Condition {

		@Override
		public boolean test(Map<String, AttributeValue> item) {
			return this.left.test(item) && this.right.test(item);
		}

	}

	/**
	 * {@code left OR right}.
	 * @param left the first condition
	 * @param right the second condition
	 */
	record Or(Condition left, Condition right) implements Condition {

		@Override
		public boolean test(Map<String, AttributeValue> item) {
			return this.left.test(item) || this.right.test(item);
		}

	}

	/**
	 * {@code NOT condition}.
	 * @param condition the negated condition
	 */
	record Not(Condition condition) implements Condition {

		@Override
		public boolean test(Map<String, AttributeValue> item) {
			return !this.condition.test(item);
		}

	}

	/**
	 * {@code left comparator right}: {@code =} and {@code <>} compare values of any type (numbers by value, sets
	 * whatever their order); the order comparators compare two strings (by UTF-8 bytes), two numbers or two
	 * binaries (bytes unsigned) and are false for anything else.
	 * @param comparator the comparator
	 * @param left the first operand
	 * @param right the second operand
	 */
	record Compare(Comparator comparator, Operand left, Operand right) implements Condition {

		@Override
		public boolean test(Map<String, AttributeValue> item) {
			return this.comparator.test(this.left.evaluate(item), this.right.evaluate(item));
		}

	}

	/**
	 * {@code operand BETWEEN lower AND upper}: true if the operand is greater than or equal to the lower bound and
	 * less than or equal to the upper, all three strings, numbers or binaries of one type.
	 * @param operand the value tested
	 * @param lower the lower bound, included
	 * @param upper the upper bound, included
	 */
	record Between(Operand operand, Operand lower, Operand upper) implements Condition {

		@Override
		public boolean test(Map<String, AttributeValue> item) {
			AttributeValue value = this.operand.evaluate(item);
			Integer low = Conditions.order(value, this.lower.evaluate(item));
			if (low == null || low < 0) {
				return false;
			}
			Integer high = Conditions.order(value, this.upper.evaluate(item));
			return high != null && high <= 0;
		}

	}

	/**
	 * {@code operand IN (value, ...)}: true if the operand equals any of the values (up to 100).
	 * @param operand the value tested
	 * @param values the candidates
	 */
	record In(Operand operand, List<Operand> values) implements Condition {

		public In {
			values = List.copyOf(values);
		}

		@Override
		public boolean test(Map<String, AttributeValue> item) {
			AttributeValue value = this.operand.evaluate(item);
			if (value == null) {
				return false;
			}
			for (Operand candidate : this.values) {
				AttributeValue other = candidate.evaluate(item);
				if (other != null && Values.equal(value, other)) {
					return true;
				}
			}
			return false;
		}

	}

	/**
	 * {@code attribute_exists(path)}: true if the item holds an attribute at the path.
	 * @param path the path
	 */
	record AttributeExists(Path path) implements Condition {

		@Override
		public boolean test(Map<String, AttributeValue> item) {
			return this.path.resolve(item) != null;
		}

	}

	/**
	 * {@code attribute_not_exists(path)}: true if the item holds no attribute at the path.
	 * @param path the path
	 */
	record AttributeNotExists(Path path) implements Condition {

		@Override
		public boolean test(Map<String, AttributeValue> item) {
			return this.path.resolve(item) == null;
		}

	}

	/**
	 * {@code attribute_type(path, :type)}: true if the attribute is of the type named ({@code S}, {@code SS},
	 * {@code N}, {@code NS}, {@code B}, {@code BS}, {@code BOOL}, {@code NULL}, {@code L} or {@code M}).
	 * @param operand the attribute
	 * @param type the type's name, a string value
	 */
	record AttributeType(Operand operand, Operand type) implements Condition {

		@Override
		public boolean test(Map<String, AttributeValue> item) {
			AttributeValue value = this.operand.evaluate(item);
			AttributeValue name = this.type.evaluate(item);
			return value != null && name != null && name.type() == AttributeValue.Type.S
					&& Conditions.typeName(value).equals(name.s());
		}

	}

	/**
	 * {@code begins_with(path, substr)}: true if a string begins with the string, or a binary with the bytes.
	 * @param operand the attribute
	 * @param prefix the beginning looked for
	 */
	record BeginsWith(Operand operand, Operand prefix) implements Condition {

		@Override
		public boolean test(Map<String, AttributeValue> item) {
			return Conditions.beginsWith(this.operand.evaluate(item), this.prefix.evaluate(item));
		}

	}

	/**
	 * {@code contains(path, operand)}: true if a string contains the string, a binary the bytes, a set the
	 * element, or a list an element equal to the operand.
	 * @param operand the attribute
	 * @param element what is looked for
	 */
	record Contains(Operand operand, Operand element) implements Condition {

		@Override
		public boolean test(Map<String, AttributeValue> item) {
			return Conditions.contains(this.operand.evaluate(item), this.element.evaluate(item));
		}

	}

}
