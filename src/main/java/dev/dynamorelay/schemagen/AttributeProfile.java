package dev.dynamorelay.schemagen;

import java.math.BigDecimal;
import java.math.BigInteger;
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

	/** The widest kind of the N values seen; null before the first. */
	private NumberKind numbers;

	/** The widest kind of the elements of the NS values seen; null before the first. */
	private NumberKind setNumbers;

	private int items;

	/** Takes one item's value of the attribute into account. */
	void observe(AttributeValue value) {
		this.items++;
		AttributeValue.Type type = value.type();
		this.types.add(type);
		if (type == AttributeValue.Type.N) {
			this.numbers = NumberKind.widest(this.numbers, NumberKind.of(value.n()));
		}
		else if (type == AttributeValue.Type.NS) {
			for (String number : value.ns()) {
				this.setNumbers = NumberKind.widest(this.setNumbers, NumberKind.of(number));
			}
		}
	}

	/** How many sampled items have the attribute. */
	int items() {
		return this.items;
	}

	/**
	 * The GraphQL type of a nullable field for the attribute: {@code JSON} for maps, lists, values seen as
	 * more than one type, and attributes seen only as NULL.
	 */
	String graphQlType() {
		Set<AttributeValue.Type> kinds = kinds();
		if (kinds.size() != 1) {
			return "JSON";
		}
		return switch (kinds.iterator().next()) {
			case S -> "String";
			case N -> this.numbers.graphQlType;
			case BOOL -> "Boolean";
			case B -> "Bytes";
			case SS -> "[String!]";
			case NS -> "[" + ((this.setNumbers != null) ? this.setNumbers : NumberKind.FLOAT).graphQlType + "!]";
			case BS -> "[Bytes!]";
			default -> "JSON";
		};
	}

	/** The GraphQL type of a number key attribute (N): from the values seen, {@code Long} when none were. */
	String numberType() {
		return (this.numbers != null) ? this.numbers.graphQlType : NumberKind.LONG.graphQlType;
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

	/** The narrowest GraphQL number type that holds a DynamoDB number, from narrow to wide. */
	enum NumberKind {

		/** A whole number of 32 bits. */
		INT("Int"),

		/** A whole number of 64 bits. */
		LONG("Long"),

		/** A whole number beyond 64 bits, served exactly. */
		BIG("Decimal"),

		/** A number with a fraction. */
		FLOAT("Float");

		private final String graphQlType;

		NumberKind(String graphQlType) {
			this.graphQlType = graphQlType;
		}

		static NumberKind of(String number) {
			BigDecimal decimal = new BigDecimal(number);
			if (decimal.signum() != 0 && decimal.stripTrailingZeros().scale() > 0) {
				return FLOAT;
			}
			BigInteger whole = decimal.toBigInteger();
			if (whole.bitLength() < 32) {
				return INT;
			}
			return (whole.bitLength() < 64) ? LONG : BIG;
		}

		static NumberKind widest(NumberKind a, NumberKind b) {
			if (a == null) {
				return b;
			}
			return (b.compareTo(a) > 0) ? b : a;
		}

		String graphQlType() {
			return this.graphQlType;
		}

	}

}
