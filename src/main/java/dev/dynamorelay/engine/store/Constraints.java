package dev.dynamorelay.engine.store;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

import dev.dynamorelay.engine.action.AwsError;

/**
 * DynamoDB's checks of a request's members against its model's constraints, gathered as DynamoDB gathers
 * them: each failure a sentence {@code Value '...' at 'path' failed to satisfy constraint: ...}, at most ten,
 * answered together as one {@code ValidationException}: {@code 2 validation errors detected: ...; ...}.
 *
 * <p>The paths name members as DynamoDB does (first letter lower case, list members
 * {@code keySchema.1.member}, map members {@code requestItems.name.member}); the checks of each operation run in
 * the order of its members in DynamoDB's model, which is the order dynalite's validations list them.
 */
final class Constraints {

	static final String NAME_PATTERN = "[a-zA-Z0-9_.-]+";

	private static final int MAX_ERRORS = 10;

	private final List<String> errors = new ArrayList<>();

	/** Fails when {@code value} is null. */
	Constraints notNull(String path, Object value) {
		if (value == null) {
			add(path, null, "Member must not be null");
		}
		return this;
	}

	/** Fails when {@code value} is not one of {@code allowed} (null passes). */
	Constraints oneOf(String path, String value, String... allowed) {
		if (value != null && !List.of(allowed).contains(value)) {
			add(path, value, "Member must satisfy enum value set: [" + String.join(", ", allowed) + "]");
		}
		return this;
	}

	/** A table or index name: the pattern, then its length (null passes). */
	Constraints name(String path, String value) {
		if (value != null) {
			pattern(path, value);
			length(path, value, value.length(), 3, 255);
		}
		return this;
	}

	/** Fails when {@code value} does not match the name pattern (null passes). */
	Constraints pattern(String path, String value) {
		if (value != null && !isName(value)) {
			add(path, value, "Member must satisfy regular expression pattern: " + NAME_PATTERN);
		}
		return this;
	}

	/** Fails when a string's, list's or map's length is outside {@code [min, max]} (a bound < 0 is none). */
	Constraints length(String path, Object value, int length, int min, int max) {
		if (value == null) {
			return this;
		}
		if (min >= 0 && length < min) {
			add(path, value, "Member must have length greater than or equal to " + min);
		}
		if (max >= 0 && length > max) {
			add(path, value, "Member must have length less than or equal to " + max);
		}
		return this;
	}

	/** The length of a list or map member (null passes). */
	Constraints size(String path, Object value, int min, int max) {
		if (value instanceof Collection<?> collection) {
			return length(path, value, collection.size(), min, max);
		}
		if (value instanceof Map<?, ?> map) {
			return length(path, value, map.size(), min, max);
		}
		if (value instanceof String text) {
			return length(path, value, text.length(), min, max);
		}
		return this;
	}

	/** Fails when a number is below {@code min} or above {@code max} (null passes; a bound null is none). */
	Constraints range(String path, Number value, Long min, Long max) {
		if (value == null) {
			return this;
		}
		if (min != null && value.longValue() < min) {
			add(path, value, "Member must have value greater than or equal to " + min);
		}
		if (max != null && value.longValue() > max) {
			add(path, value, "Member must have value less than or equal to " + max);
		}
		return this;
	}

	/** Whether {@code value} matches {@code [a-zA-Z0-9_.-]+} (checked on every request: no regular expression). */
	static boolean isName(String value) {
		if (value.isEmpty()) {
			return false;
		}
		for (int i = 0; i < value.length(); i++) {
			char c = value.charAt(i);
			boolean allowed = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-';
			if (!allowed) {
				return false;
			}
		}
		return true;
	}

	/** Adds a failure of the member at {@code path} holding {@code value}. */
	Constraints add(String path, Object value, String constraint) {
		if (this.errors.size() < MAX_ERRORS) {
			String shown = (value == null) ? "null" : "'" + show(value) + "'";
			this.errors.add("Value " + shown + " at '" + path + "' failed to satisfy constraint: " + constraint);
		}
		return this;
	}

	/** Whether a check failed. */
	boolean failed() {
		return !this.errors.isEmpty();
	}

	/** Answers the failures gathered, if any, as one {@code ValidationException}. */
	void check() {
		if (!this.errors.isEmpty()) {
			int count = this.errors.size();
			throw AwsError.validation(count + " validation error" + ((count > 1) ? "s" : "") + " detected: " + String.join("; ", this.errors));
		}
	}

	private static String show(Object value) {
		if (value instanceof Collection<?> collection) {
			List<String> members = new ArrayList<>();
			for (Object member : collection) {
				members.add((member == null) ? "null" : show(member));
			}
			return "[" + String.join(", ", members) + "]";
		}
		if (value instanceof Map<?, ?> map) {
			List<String> members = new ArrayList<>();
			for (Map.Entry<?, ?> entry : map.entrySet()) {
				members.add(entry.getKey() + "=" + show(entry.getValue()));
			}
			return "{" + String.join(", ", members) + "}";
		}
		if (value instanceof software.amazon.awssdk.core.SdkPojo pojo) {
			// as DynamoDB's own model prints a member: KeySchemaElement(attributeName=a, keyType=HASH)
			List<String> members = new ArrayList<>();
			for (software.amazon.awssdk.core.SdkField<?> field : pojo.sdkFields()) {
				Object member = field.getValueOrDefault(pojo);
				if (member != null) {
					String name = field.memberName();
					members.add(Character.toLowerCase(name.charAt(0)) + name.substring(1) + "=" + show(member));
				}
			}
			return pojo.getClass().getSimpleName() + "(" + String.join(", ", members) + ")";
		}
		return String.valueOf(value);
	}

	/**
	 * The checks of a table name that DynamoDB makes before any other for table operations: present, then
	 * between 3 and 255 characters.
	 */
	static void requiredTableName(String tableName) {
		if (tableName == null) {
			throw AwsError.validation("The parameter 'TableName' is required but was not present in the request");
		}
		if (tableName.length() < 3 || tableName.length() > 255) {
			throw AwsError.validation("TableName must be at least 3 characters long and at most 255 characters long");
		}
	}

}
