package dev.dynamorelay.engine.streams;

import java.util.ArrayList;
import java.util.List;

import dev.dynamorelay.engine.action.AwsError;

/**
 * The checks the DynamoDB Streams API Reference gives each request member (required, length, range, enumerated
 * values, pattern), reported as DynamoDB's services report them: every failed member at once, in the order of
 * the request's members, as {@code 1 validation error detected: Value '0' at 'limit' failed to satisfy
 * constraint: Member must have value greater than or equal to 1}.
 */
final class Constraints {

	private final List<String> errors = new ArrayList<>();

	static Constraints check() {
		return new Constraints();
	}

	Constraints required(String member, Object value) {
		if (value == null) {
			fail(member, null, "Member must not be null");
		}
		return this;
	}

	Constraints length(String member, String value, int min, int max) {
		if (value != null) {
			if (value.length() < min) {
				fail(member, value, "Member must have length greater than or equal to " + min);
			}
			else if (value.length() > max) {
				fail(member, value, "Member must have length less than or equal to " + max);
			}
		}
		return this;
	}

	Constraints range(String member, Integer value, int min, int max) {
		if (value != null) {
			if (value < min) {
				fail(member, value, "Member must have value greater than or equal to " + min);
			}
			else if (value > max) {
				fail(member, value, "Member must have value less than or equal to " + max);
			}
		}
		return this;
	}

	Constraints oneOf(String member, String value, List<String> allowed) {
		if (value != null && !allowed.contains(value)) {
			fail(member, value, "Member must satisfy enum value set: [" + String.join(", ", allowed) + "]");
		}
		return this;
	}

	Constraints pattern(String member, String value, String pattern) {
		if (value != null && !value.matches(pattern)) {
			fail(member, value, "Member must satisfy regular expression pattern: " + pattern);
		}
		return this;
	}

	/** Refuses the request when a check failed. */
	void done() {
		if (!this.errors.isEmpty()) {
			int count = this.errors.size();
			throw AwsError.validation(count + " validation error" + ((count > 1) ? "s" : "") + " detected: "
					+ String.join("; ", this.errors));
		}
	}

	private void fail(String member, Object value, String constraint) {
		String shown = (value == null) ? "null" : "'" + value + "'";
		this.errors.add("Value " + shown + " at '" + member + "' failed to satisfy constraint: " + constraint);
	}

}
