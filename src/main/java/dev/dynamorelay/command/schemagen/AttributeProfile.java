package dev.dynamorelay.command.schemagen;

import java.math.BigDecimal;
import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Collectors;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * What a sample of items holds in one attribute: the kinds of DynamoDB values seen, and the GraphQL type
 * of a field that serves every one of them.
 */
final class AttributeProfile {

	private final Set<AttributeValue.Type> types = EnumSet.noneOf(AttributeValue.Type.class);

	/** What the N values seen have in common; null before the first. */
	private NumberKind numbers;

	/** What the elements of the NS values seen have in common; null before the first. */
	private NumberKind setNumbers;

	private int items;

	/** Takes one item's value of the attribute into account. */
	void observe(AttributeValue value) {
		this.items++;
		AttributeValue.Type type = value.type();
		this.types.add(type);
		if (type == AttributeValue.Type.N) {
			this.numbers = NumberKind.both(this.numbers, NumberKind.of(value.n()));
		}
		else if (type == AttributeValue.Type.NS) {
			for (String number : value.ns()) {
				this.setNumbers = NumberKind.both(this.setNumbers, NumberKind.of(number));
			}
		}
	}

	/** How many sampled items have the attribute. */
	int items() {
		return this.items;
	}

	/**
	 * The GraphQL type of a nullable field for the attribute: numbers as {@link NumberKind} says, and
	 * {@code JSON} for maps, lists, values seen as more than one type, and attributes seen only as NULL.
	 */
	String graphQlType() {
		Set<AttributeValue.Type> kinds = kinds();
		if (kinds.size() != 1) {
			return "JSON";
		}
		return switch (kinds.iterator().next()) {
			case S -> "String";
			case N -> this.numbers.graphQlType();
			case BOOL -> "Boolean";
			case B -> "Bytes";
			case SS -> "[String!]";
			case NS -> "[" + ((this.setNumbers != null) ? this.setNumbers.graphQlType() : "Float") + "!]";
			case BS -> "[Bytes!]";
			default -> "JSON";
		};
	}

	/** The GraphQL type of a number key attribute (N): from the values seen, {@code Long} when none were. */
	String numberType() {
		return (this.numbers != null) ? this.numbers.graphQlType() : "Long";
	}

	/** Whether values of more than one DynamoDB type were seen (NULL aside). */
	boolean isMixed() {
		return kinds().size() > 1;
	}

	/** The DynamoDB types seen, in DynamoDB's spelling ({@code N, S}). */
	String seenTypes() {
		return this.types.stream()
			.map((type) -> (type == AttributeValue.Type.NUL) ? "NULL" : type.toString())
			.sorted()
			.collect(Collectors.joining(", "));
	}

	/** The DynamoDB types seen but NULL. */
	private Set<AttributeValue.Type> kinds() {
		Set<AttributeValue.Type> kinds = EnumSet.noneOf(AttributeValue.Type.class);
		kinds.addAll(this.types);
		kinds.remove(AttributeValue.Type.NUL);
		return kinds;
	}

	/**
	 * Which GraphQL number types serve DynamoDB numbers without changing them; over several numbers, each
	 * holds for all of them. The type is the first that does: {@code Int}, {@code Long}, {@code Float}, else
	 * {@code Decimal}, which serves DynamoDB's digits as they are.
	 *
	 * @param isInt every number is whole and fits 32 bits
	 * @param isLong every number is whole and fits 64 bits
	 * @param isDouble every number reads back as the same number from the nearest double (what a
	 * {@code Float} serves): false for more digits than a double holds, such as a 23-digit id
	 */
	record NumberKind(boolean isInt, boolean isLong, boolean isDouble) {

		static NumberKind of(String number) {
			BigDecimal decimal = new BigDecimal(number);
			boolean whole = decimal.signum() == 0 || decimal.stripTrailingZeros().scale() <= 0;
			int bits = whole ? decimal.toBigInteger().bitLength() : Integer.MAX_VALUE;
			return new NumberKind(bits < 32, bits < 64, isDouble(number, decimal));
		}

		/**
		 * Whether the double nearest to a number is the number: its shortest decimal form (which a
		 * {@code Float} is served as) compares equal to the number's digits.
		 */
		private static boolean isDouble(String number, BigDecimal decimal) {
			double nearest = Double.parseDouble(number);
			return Double.isFinite(nearest) && BigDecimal.valueOf(nearest).compareTo(decimal) == 0;
		}

		/** What holds for both kinds' numbers; {@code b} when {@code a} is null (nothing seen yet). */
		static NumberKind both(NumberKind a, NumberKind b) {
			if (a == null) {
				return b;
			}
			return new NumberKind(a.isInt && b.isInt, a.isLong && b.isLong, a.isDouble && b.isDouble);
		}

		String graphQlType() {
			if (this.isInt) {
				return "Int";
			}
			if (this.isLong) {
				return "Long";
			}
			return this.isDouble ? "Float" : "Decimal";
		}

	}

}
