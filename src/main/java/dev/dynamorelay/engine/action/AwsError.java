package dev.dynamorelay.engine.action;

import java.util.List;
import java.util.Map;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;

/**
 * An error DynamoDB answers: its type (the part of {@code __type} after {@code #}), its message, its HTTP
 * status, and what some types carry beside the message (the stored item of a failed condition, the reasons of
 * a cancelled transaction). Every refusal of the engine is one of these; anything else is a bug, answered as
 * {@code InternalServerError}.
 */
public final class AwsError extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final String type;

	private final int status;

	private final transient Map<String, AttributeValue> item;

	private final transient List<CancellationReason> cancellationReasons;

	private AwsError(String type, int status, String message, Map<String, AttributeValue> item,
			List<CancellationReason> cancellationReasons) {
		super(message, null, false, false);
		this.type = type;
		this.status = status;
		this.item = item;
		this.cancellationReasons = cancellationReasons;
	}

	/** An error of {@code type} with HTTP status 400. */
	public static AwsError of(String type, String message) {
		return new AwsError(type, 400, message, null, null);
	}

	/** {@code ValidationException}: the request is not one DynamoDB accepts. */
	public static AwsError validation(String message) {
		return of("ValidationException", message);
	}

	/** {@code ResourceNotFoundException}: no such table, index or stream (or not ACTIVE). */
	public static AwsError resourceNotFound(String message) {
		return of("ResourceNotFoundException", message);
	}

	/** {@code ResourceInUseException}: the table exists already, or is being changed. */
	public static AwsError resourceInUse(String message) {
		return of("ResourceInUseException", message);
	}

	/** {@code SerializationException}: the body is not the JSON of the operation's request shape. */
	public static AwsError serialization(String message) {
		return of("SerializationException", message);
	}

	/**
	 * {@code ConditionalCheckFailedException}, with the stored item when the request asked for it
	 * ({@code ReturnValuesOnConditionCheckFailure=ALL_OLD}); {@code item} null otherwise.
	 */
	public static AwsError conditionalCheckFailed(Map<String, AttributeValue> item) {
		return new AwsError("ConditionalCheckFailedException", 400, "The conditional request failed", item, null);
	}

	/** {@code TransactionCanceledException} with one reason per action of the transaction, in order. */
	public static AwsError transactionCanceled(String message, List<CancellationReason> reasons) {
		return new AwsError("TransactionCanceledException", 400, message, null, List.copyOf(reasons));
	}

	/** {@code InternalServerError} (HTTP 500): a failure of the engine itself. */
	public static AwsError internal(String message) {
		return new AwsError("InternalServerError", 500, message, null, null);
	}

	/** The same error with another HTTP status (fault injection answers 500s and 503s). */
	public static AwsError withStatus(String type, int status, String message) {
		return new AwsError(type, status, message, null, null);
	}

	/** The type, as {@code __type} names it after its {@code #}. */
	public String type() {
		return this.type;
	}

	/** The HTTP status of the answer. */
	public int status() {
		return this.status;
	}

	/** The stored item of a failed condition, when it was asked for; otherwise null. */
	public Map<String, AttributeValue> item() {
		return this.item;
	}

	/** The reasons of a cancelled transaction, one per action; otherwise null. */
	public List<CancellationReason> cancellationReasons() {
		return this.cancellationReasons;
	}

}
