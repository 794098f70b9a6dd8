package dev.dynamorelay.engine.value;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.engine.action.AwsError;

/**
 * What DynamoDB accepts as an attribute value, with its messages: exactly one data type set, numbers DynamoDB
 * holds, sets neither empty nor with duplicates, {@code NULL} only {@code true}, at most 32 levels of nesting;
 * and the value in DynamoDB's stored form (numbers written back in plain notation).
 *
 * <p>See the Developer Guide, "Supported data types and naming rules in Amazon DynamoDB" and "Constraints in
 * Amazon DynamoDB" (Attributes: nested attribute depth 32).
 */
public final class ValueChecks {

	/** How deep values nest in lists and maps: a value inside 32 lists or maps is refused. */
	public static final int MAX_NESTING = 32;

	static final String NESTING = "Nesting Levels have exceeded supported limits: Attributes in the item have nested levels beyond supported limit";

	private ValueChecks() {
	}

	/** How many of the data types of {@code value} are set (one for a valid value). */
	public static int typesSet(AttributeValue value) {
		int set = 0;
		if (value.s() != null) {
			set++;
		}
		if (value.n() != null) {
			set++;
		}
		if (value.b() != null) {
			set++;
		}
		if (value.hasSs()) {
			set++;
		}
		if (value.hasNs()) {
			set++;
		}
		if (value.hasBs()) {
			set++;
		}
		if (value.hasM()) {
			set++;
		}
		if (value.hasL()) {
			set++;
		}
		if (value.bool() != null) {
			set++;
		}
		if (value.nul() != null) {
			set++;
		}
		return set;
	}

	/**
	 * The data type's name as DynamoDB writes it ({@code S}, {@code N}, {@code B}, {@code SS}, {@code NS},
	 * {@code BS}, {@code M}, {@code L}, {@code BOOL}, {@code NULL}), of the first type set; null when none is.
	 */
	public static String typeName(AttributeValue value) {
		if (value.s() != null) {
			return "S";
		}
		if (value.n() != null) {
			return "N";
		}
		if (value.b() != null) {
			return "B";
		}
		if (value.hasSs()) {
			return "SS";
		}
		if (value.hasNs()) {
			return "NS";
		}
		if (value.hasBs()) {
			return "BS";
		}
		if (value.hasM()) {
			return "M";
		}
		if (value.hasL()) {
			return "L";
		}
		if (value.bool() != null) {
			return "BOOL";
		}
		if (value.nul() != null) {
			return "NULL";
		}
		return null;
	}

	/**
	 * DynamoDB's complaint about {@code value}, or null when it is a value DynamoDB holds. The checks run in
	 * DynamoDB's order: each type's own rules, then whether more than one type is set.
	 */
	public static String problem(AttributeValue value) {
		return problem(value, 0);
	}

	private static String problem(AttributeValue value, int depth) {
		if (value == null) {
			return "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes";
		}
		int types = typesSet(value);
		if (types == 0) {
			return "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes";
		}
		if (depth >= MAX_NESTING) {
			return NESTING;
		}
		String message = ownProblem(value);
		if (message == null) {
			message = duplicatesProblem(value);
		}
		if (message == null) {
			message = membersProblem(value, depth);
		}
		if (message != null) {
			return message;
		}
		if (types > 1) {
			return "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes";
		}
		return null;
	}

	/** A number that is not one, a NULL that is not true, an empty set, a set's number that is not one. */
	private static String ownProblem(AttributeValue value) {
		if (value.n() != null) {
			String message = numberProblem(value.n());
			if (message != null) {
				return message;
			}
		}
		if (value.nul() != null && !value.nul()) {
			return "One or more parameter values were invalid: Null attribute value types must have the value of true";
		}
		if (value.hasSs() && value.ss().isEmpty()) {
			return "One or more parameter values were invalid: An string set  may not be empty";
		}
		if (value.hasNs() && value.ns().isEmpty()) {
			return "One or more parameter values were invalid: An number set  may not be empty";
		}
		if (value.hasBs() && value.bs().isEmpty()) {
			return "One or more parameter values were invalid: Binary sets should not be empty";
		}
		if (value.hasNs()) {
			for (String number : value.ns()) {
				String message = numberProblem(number);
				if (message != null) {
					return message;
				}
			}
		}
		return null;
	}

	/** A set with a member twice (numbers compared by value). */
	private static String duplicatesProblem(AttributeValue value) {
		if (value.hasSs() && new HashSet<>(value.ss()).size() != value.ss().size()) {
			return "One or more parameter values were invalid: Input collection " + list(value.ss()) + " contains duplicates.";
		}
		if (value.hasNs()) {
			Set<BigDecimal> numbers = new HashSet<>();
			for (String number : value.ns()) {
				if (!numbers.add(Numbers.parse(number).stripTrailingZeros())) {
					return "Input collection contains duplicates";
				}
			}
		}
		if (value.hasBs() && new HashSet<>(value.bs()).size() != value.bs().size()) {
			List<String> encoded = new ArrayList<>();
			for (SdkBytes bytes : value.bs()) {
				encoded.add(Base64.getEncoder().encodeToString(bytes.asByteArrayUnsafe()));
			}
			return "One or more parameter values were invalid: Input collection " + list(encoded) + "of type BS contains duplicates.";
		}
		return null;
	}

	/** The first problem of a map's or list's members, one level deeper. */
	private static String membersProblem(AttributeValue value, int depth) {
		if (value.hasM()) {
			for (AttributeValue member : value.m().values()) {
				String message = problem(member, depth + 1);
				if (message != null) {
					return message;
				}
			}
		}
		if (value.hasL()) {
			for (AttributeValue member : value.l()) {
				String message = problem(member, depth + 1);
				if (message != null) {
					return message;
				}
			}
		}
		return null;
	}

	private static String numberProblem(String number) {
		try {
			Numbers.parse(number);
			return null;
		}
		catch (AwsError error) {
			return error.getMessage();
		}
	}

	private static String list(List<String> values) {
		return "[" + String.join(", ", values) + "]";
	}

	/**
	 * {@code value} in DynamoDB's stored form: numbers (in N, NS, lists and maps) in plain notation. The value
	 * must be valid ({@link #problem} null).
	 */
	public static AttributeValue normalize(AttributeValue value) {
		if (value.n() != null) {
			String normalized = Numbers.normalize(value.n());
			return normalized.equals(value.n()) ? value : AttributeValue.fromN(normalized);
		}
		if (value.hasNs()) {
			List<String> numbers = new ArrayList<>(value.ns().size());
			boolean changed = false;
			for (String number : value.ns()) {
				String normalized = Numbers.normalize(number);
				changed |= !normalized.equals(number);
				numbers.add(normalized);
			}
			return changed ? AttributeValue.fromNs(numbers) : value;
		}
		if (value.hasL()) {
			List<AttributeValue> members = new ArrayList<>(value.l().size());
			boolean changed = false;
			for (AttributeValue member : value.l()) {
				AttributeValue normalized = normalize(member);
				changed |= normalized != member;
				members.add(normalized);
			}
			return changed ? AttributeValue.fromL(members) : value;
		}
		if (value.hasM()) {
			Map<String, AttributeValue> members = new LinkedHashMap<>();
			boolean changed = false;
			for (Map.Entry<String, AttributeValue> member : value.m().entrySet()) {
				AttributeValue normalized = normalize(member.getValue());
				changed |= normalized != member.getValue();
				members.put(member.getKey(), normalized);
			}
			return changed ? AttributeValue.fromM(members) : value;
		}
		return value;
	}

	/**
	 * {@code value} checked and normalized.
	 * @throws AwsError a {@code ValidationException} with DynamoDB's message for the first problem found
	 */
	public static AttributeValue check(AttributeValue value) {
		String message = problem(value);
		if (message != null) {
			throw AwsError.validation(message);
		}
		return normalize(value);
	}

	/**
	 * The item (or key) with every value checked and normalized.
	 * @throws AwsError a {@code ValidationException} with DynamoDB's message for the first invalid value
	 */
	public static Map<String, AttributeValue> checkItem(Map<String, AttributeValue> item) {
		Map<String, AttributeValue> checked = null;
		for (Map.Entry<String, AttributeValue> attribute : item.entrySet()) {
			String message = problem(attribute.getValue());
			if (message != null) {
				throw AwsError.validation(message);
			}
			AttributeValue normalized = normalize(attribute.getValue());
			if (normalized != attribute.getValue() && checked == null) {
				checked = new LinkedHashMap<>(item);
			}
			if (checked != null) {
				checked.put(attribute.getKey(), normalized);
			}
		}
		return (checked != null) ? checked : item;
	}

}
