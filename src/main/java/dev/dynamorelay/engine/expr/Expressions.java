package dev.dynamorelay.engine.expr;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.engine.action.AwsError;
import dev.dynamorelay.engine.value.ValueChecks;

/**
 * The expressions of one request: its ExpressionAttributeNames and ExpressionAttributeValues, checked when made,
 * and each expression parameter parsed against them. DynamoDB refuses a request whose names or values are not all
 * used by its expressions, which {@link #checkAllUsed} checks once every expression is parsed.
 *
 * <p>Call, in this order (DynamoDB's, and the order of its messages): {@link #of}, then for each expression the
 * request has {@link #update}, {@link #condition}, {@link #keyCondition}, {@link #filter}, {@link #projection},
 * then {@link #checkAllUsed}. Each refusal is an {@link AwsError} {@code ValidationException} with DynamoDB's
 * message, such as {@code Invalid ConditionExpression: Syntax error; token: "x", near: "a x b"}.
 *
 * <p>See the Developer Guide, "Using expressions in DynamoDB", and its "Expression parameters" limits: 4 KB an
 * expression (4096 characters, as DynamoDB counts), 300 operators and functions, 100 operands of IN, 32 levels of
 * a document path, 255 bytes a placeholder.
 */
public final class Expressions {

	/** The most characters an expression has (DynamoDB counts characters, UTF-16 units, not bytes). */
	public static final int MAX_EXPRESSION_LENGTH = 4096;

	/** The most bytes (UTF-8) a placeholder has, its {@code #} or {@code :} included. */
	public static final int MAX_PLACEHOLDER_BYTES = 255;

	private static final Pattern NAME_KEY = Pattern.compile("#[0-9a-zA-Z_]+");

	private static final Pattern VALUE_KEY = Pattern.compile(":[0-9a-zA-Z_]+");

	private final Map<String, String> names;

	private final Map<String, AttributeValue> values;

	private final Set<String> usedNames = new HashSet<>();

	private final Set<String> usedValues = new HashSet<>();

	private String keyConditionProblem;

	private Expressions(Map<String, String> names, Map<String, AttributeValue> values) {
		this.names = names;
		this.values = values;
	}

	/**
	 * The expressions of a request with these ExpressionAttributeNames and ExpressionAttributeValues (each null
	 * when the request has none), checked as DynamoDB checks them; the values' numbers are kept in DynamoDB's form.
	 * @throws AwsError a {@code ValidationException}: "ExpressionAttributeNames must not be empty",
	 * "ExpressionAttributeNames contains invalid key: Syntax error; key: \"a\"", "ExpressionAttributeValues
	 * contains invalid value: ... for key :v", ...
	 */
	public static Expressions of(Map<String, String> names, Map<String, AttributeValue> values) {
		if (names != null) {
			if (names.isEmpty()) {
				throw AwsError.validation("ExpressionAttributeNames must not be empty");
			}
			for (Map.Entry<String, String> entry : names.entrySet()) {
				String key = entry.getKey();
				int size = bytes(key);
				if (size > MAX_PLACEHOLDER_BYTES) {
					throw AwsError.validation("ExpressionAttributeNames contains invalid key: The expression attribute map contains a key that is too long; size of key: "
							+ size);
				}
				if (!NAME_KEY.matcher(key).matches()) {
					throw AwsError.validation("ExpressionAttributeNames contains invalid key: Syntax error; key: \"" + key + "\"");
				}
				if (entry.getValue() == null || entry.getValue().isEmpty()) {
					throw AwsError.validation("ExpressionAttributeNames contains invalid value: Empty attribute name for key " + key);
				}
			}
		}
		Map<String, AttributeValue> checked = null;
		if (values != null) {
			if (values.isEmpty()) {
				throw AwsError.validation("ExpressionAttributeValues must not be empty");
			}
			for (String key : values.keySet()) {
				if (bytes(key) > MAX_PLACEHOLDER_BYTES) {
					throw AwsError.validation("ExpressionAttributeValues contains invalid key: The expression attribute map contains a key that is too long;");
				}
				if (!VALUE_KEY.matcher(key).matches()) {
					throw AwsError.validation("ExpressionAttributeValues contains invalid key: Syntax error; key: \"" + key + "\"");
				}
			}
			checked = new LinkedHashMap<>();
			for (Map.Entry<String, AttributeValue> entry : values.entrySet()) {
				String problem = ValueChecks.problem(entry.getValue());
				if (problem != null) {
					throw AwsError.validation("ExpressionAttributeValues contains invalid value: " + problem + " for key " + entry.getKey());
				}
				checked.put(entry.getKey(), ValueChecks.normalize(entry.getValue()));
			}
		}
		return new Expressions(names, checked);
	}

	/** The expressions of a request without ExpressionAttributeNames or ExpressionAttributeValues. */
	public static Expressions none() {
		return new Expressions(null, null);
	}

	/**
	 * The UpdateExpression {@code text}, or null when it is null.
	 * @throws AwsError a {@code ValidationException} "Invalid UpdateExpression: ..."
	 */
	public Update update(String text) {
		return parse("UpdateExpression", false, text, placeholders -> UpdateAnalysis.analyze(text, placeholders));
	}

	/**
	 * The ConditionExpression {@code text}, or null when it is null.
	 * @throws AwsError a {@code ValidationException} "Invalid ConditionExpression: ..."
	 */
	public Condition condition(String text) {
		return parse("ConditionExpression", true, text, placeholders -> ConditionAnalysis.analyze(text, placeholders));
	}

	/**
	 * The FilterExpression {@code text}, or null when it is null.
	 * @throws AwsError a {@code ValidationException} "Invalid FilterExpression: ..."
	 */
	public Condition filter(String text) {
		return parse("FilterExpression", true, text, placeholders -> ConditionAnalysis.analyze(text, placeholders));
	}

	/**
	 * The KeyConditionExpression {@code text}, or null when it is null. Its syntax and operands are checked now;
	 * the checks of its form (one condition per key, operators a key condition allows) are DynamoDB's after the
	 * check of unused names and values, so {@link #checkAllUsed} makes them: the key condition may be used once it
	 * returned. The check against the key schema comes later still: {@link KeyCondition#resolve}.
	 * @throws AwsError a {@code ValidationException} "Invalid KeyConditionExpression: ..."
	 */
	public KeyCondition keyCondition(String text) {
		Condition condition = parse("KeyConditionExpression", true, text,
				placeholders -> ConditionAnalysis.analyze(text, placeholders));
		if (condition == null) {
			return null;
		}
		try {
			return KeyConditions.of(condition);
		}
		catch (Errors.ExpressionException problem) {
			this.keyConditionProblem = problem.getMessage();
			return new KeyCondition(Map.of());
		}
	}

	/**
	 * The ProjectionExpression {@code text}, or null when it is null.
	 * @throws AwsError a {@code ValidationException} "Invalid ProjectionExpression: ..."
	 */
	public Projection projection(String text) {
		return parse("ProjectionExpression", false, text, placeholders -> ProjectionAnalysis.analyze(text, placeholders));
	}

	/**
	 * Refuses names and values no expression used, then completes the checks of the KeyConditionExpression.
	 * @throws AwsError a {@code ValidationException}: "Value provided in ExpressionAttributeNames unused in
	 * expressions: keys: {#a}", the same for values, "Invalid operator used in KeyConditionExpression: OR", ...
	 */
	public void checkAllUsed() {
		List<String> unusedNames = unused(this.names, this.usedNames);
		if (!unusedNames.isEmpty()) {
			throw AwsError.validation("Value provided in ExpressionAttributeNames unused in expressions: keys: {"
					+ String.join(", ", unusedNames) + "}");
		}
		List<String> unusedValues = unused(this.values, this.usedValues);
		if (!unusedValues.isEmpty()) {
			throw AwsError.validation("Value provided in ExpressionAttributeValues unused in expressions: keys: {"
					+ String.join(", ", unusedValues) + "}");
		}
		if (this.keyConditionProblem != null) {
			throw AwsError.validation(this.keyConditionProblem);
		}
	}

	/** The ExpressionAttributeValues, numbers in DynamoDB's form (empty when there are none). */
	public Map<String, AttributeValue> values() {
		return (this.values != null) ? Collections.unmodifiableMap(this.values) : Map.of();
	}

	private static List<String> unused(Map<String, ?> map, Set<String> used) {
		List<String> unused = new ArrayList<>();
		if (map != null) {
			for (String key : map.keySet()) {
				if (!used.contains(key)) {
					unused.add(key);
				}
			}
		}
		return unused;
	}

	/**
	 * Parses {@code text} with {@code analysis}; {@code sizeTold} says whether DynamoDB tells the size of an
	 * expression too long (it does for conditions, not for updates and projections).
	 */
	private <T> T parse(String parameter, boolean sizeTold, String text, Function<Placeholders, T> analysis) {
		if (text == null) {
			return null;
		}
		if (text.isEmpty()) {
			throw invalid(parameter, "The expression can not be empty;");
		}
		if (text.length() > MAX_EXPRESSION_LENGTH) {
			throw invalid(parameter, "Expression size has exceeded the maximum allowed size;"
					+ (sizeTold ? " expression size: " + text.length() : ""));
		}
		try {
			return analysis.apply(new Placeholders(this.names, this.values, this.usedNames, this.usedValues));
		}
		catch (Parser.SyntaxException | Parser.RedundantParentheses | Errors.ExpressionException problem) {
			throw invalid(parameter, problem.getMessage());
		}
	}

	private static AwsError invalid(String parameter, String message) {
		return AwsError.validation("Invalid " + parameter + ": " + message);
	}

	private static int bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8).length;
	}

}
