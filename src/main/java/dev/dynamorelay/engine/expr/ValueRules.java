package dev.dynamorelay.engine.expr;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;

import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.engine.AwsError;
import dev.dynamorelay.engine.value.Numbers;

/**
 * DynamoDB's rules for an AttributeValue in a request, with its messages: exactly one type set, numbers DynamoDB
 * holds, NULL true, sets not empty and without duplicates, no more than 32 levels of nesting. A valid value is
 * returned with its numbers written as DynamoDB stores them ({@code 1.50} as {@code 1.5}).
 *
 * <p>The expression layer uses it for ExpressionAttributeValues and the legacy parameters' values; the rules are
 * those of any value in a request (a key, an item).
 */
public final class ValueRules {

	/** The most levels of nesting a value has, the value itself counting as one. */
	public static final int MAX_NESTING = 32;

	private ValueRules() {
	}

	/**
	 * {@code value} checked, numbers in DynamoDB's form.
	 * @throws AwsError a {@code ValidationException} with DynamoDB's message for the first problem found
	 */
	public static AttributeValue check(AttributeValue value) {
		String problem = problem(value);
		if (problem != null) {
			throw AwsError.validation(problem);
		}
		return normalize(value);
	}

	/** DynamoDB's message for what is wrong with {@code value}, or null when it is valid. */
	public static String problem(AttributeValue value) {
		String problem = problem(value, 1);
		return problem;
	}

	private static String problem(AttributeValue value, int level) {
		if (value == null) {
			return "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes";
		}
		int types = 0;
		if (value.s() != null) {
			types++;
		}
		if (value.n() != null) {
			types++;
			String problem = numberProblem(value.n());
			if (problem != null) {
				return problem;
			}
		}
		if (value.b() != null) {
			types++;
		}
		if (value.hasSs()) {
			types++;
			if (value.ss().isEmpty()) {
				return "One or more parameter values were invalid: An string set  may not be empty";
			}
			if (new HashSet<>(value.ss()).size() < value.ss().size()) {
				return "One or more parameter values were invalid: Input collection " + list(value.ss()) + " contains duplicates.";
			}
		}
		if (value.hasNs()) {
			types++;
			if (value.ns().isEmpty()) {
				return "One or more parameter values were invalid: An number set  may not be empty";
			}
			Set<BigDecimal> seen = new HashSet<>();
			for (String number : value.ns()) {
				String problem = numberProblem(number);
				if (problem != null) {
					return problem;
				}
				if (!seen.add(Numbers.parse(number))) {
					return "Input collection contains duplicates";
				}
			}
		}
		if (value.hasBs()) {
			types++;
			if (value.bs().isEmpty()) {
				return "One or more parameter values were invalid: Binary sets should not be empty";
			}
			Set<SdkBytes> seen = new HashSet<>();
			List<String> written = new ArrayList<>();
			boolean duplicate = false;
			for (SdkBytes bytes : value.bs()) {
				duplicate |= !seen.add(bytes);
				written.add(java.util.Base64.getEncoder().encodeToString(bytes.asByteArrayUnsafe()));
			}
			if (duplicate) {
				return "One or more parameter values were invalid: Input collection " + list(written) + "of type BS contains duplicates.";
			}
		}
		if (value.hasM()) {
			types++;
			for (AttributeValue member : value.m().values()) {
				String problem = problem(member, level + 1);
				if (problem != null) {
					return problem;
				}
			}
		}
		if (value.hasL()) {
			types++;
			for (AttributeValue member : value.l()) {
				String problem = problem(member, level + 1);
				if (problem != null) {
					return problem;
				}
			}
		}
		if (value.bool() != null) {
			types++;
		}
		if (value.nul() != null) {
			types++;
			if (!value.nul()) {
				return "One or more parameter values were invalid: Null attribute value types must have the value of true";
			}
		}
		if (types == 0) {
			return "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes";
		}
		if (types > 1) {
			return "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes";
		}
		if (level > MAX_NESTING) {
			return "Nesting Levels have exceeded supported limits: Attributes in the item have nested levels beyond supported limit";
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

	private static String list(List<String> elements) {
		StringJoiner joined = new StringJoiner(", ", "[", "]");
		for (String element : elements) {
			joined.add(element);
		}
		return joined.toString();
	}

	/** A valid value with its numbers in DynamoDB's form (the same object when they already are). */
	static AttributeValue normalize(AttributeValue value) {
		switch (value.type()) {
			case N: {
				String number = Numbers.normalize(value.n());
				return number.equals(value.n()) ? value : AttributeValue.fromN(number);
			}
			case NS: {
				List<String> numbers = new ArrayList<>();
				boolean changed = false;
				for (String number : value.ns()) {
					String normal = Numbers.normalize(number);
					changed |= !normal.equals(number);
					numbers.add(normal);
				}
				return changed ? AttributeValue.fromNs(numbers) : value;
			}
			case M: {
				Map<String, AttributeValue> map = new LinkedHashMap<>();
				boolean changed = false;
				for (Map.Entry<String, AttributeValue> entry : value.m().entrySet()) {
					AttributeValue normal = normalize(entry.getValue());
					changed |= normal != entry.getValue();
					map.put(entry.getKey(), normal);
				}
				return changed ? AttributeValue.fromM(map) : value;
			}
			case L: {
				List<AttributeValue> list = new ArrayList<>();
				boolean changed = false;
				for (AttributeValue member : value.l()) {
					AttributeValue normal = normalize(member);
					changed |= normal != member;
					list.add(normal);
				}
				return changed ? AttributeValue.fromL(list) : value;
			}
			default:
				return value;
		}
	}

}
