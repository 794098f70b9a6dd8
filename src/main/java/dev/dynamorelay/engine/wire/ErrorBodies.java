package dev.dynamorelay.engine.wire;

import java.io.OutputStream;
import java.util.List;

import dev.dynamorelay.engine.action.AwsError;
import software.amazon.awssdk.core.SdkField;
import software.amazon.awssdk.core.SdkPojo;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import tools.jackson.core.JsonGenerator;

/**
 * DynamoDB's error bodies: {@code __type} (the error's namespace, {@code #}, its name), its message under the
 * name that error type uses ({@code message} for most, {@code Message} for a few), and what some types carry
 * beside it (the item of a failed condition, the reasons of a cancelled transaction).
 */
final class ErrorBodies {

	private static final SdkField<?> ITEM = field(ConditionalCheckFailedException.builder(), "Item");

	private static final SdkField<?> CANCELLATION_REASONS = field(TransactionCanceledException.builder(),
			"CancellationReasons");

	private ErrorBodies() {
	}

	/**
	 * The namespace DynamoDB gives each error type: the request layer's errors (the body, the operation, the
	 * signature) are its service framework's, validation has its own, throttling by request rate too; every other
	 * error is DynamoDB's own model's.
	 */
	static String namespace(String type) {
		return switch (type) {
			case "ValidationException" -> "com.amazon.coral.validate#";
			case "SerializationException", "UnknownOperationException", "MissingAuthenticationTokenException",
					"IncompleteSignatureException", "InvalidSignatureException", "UnrecognizedClientException",
					"AccessDeniedException" -> "com.amazon.coral.service#";
			case "ThrottlingException", "ServiceUnavailable" -> "com.amazon.coral.availability#";
			default -> "com.amazonaws.dynamodb.v20120810#";
		};
	}

	/** The member that holds the message: DynamoDB's model names it {@code Message} on these types. */
	static String messageName(String type) {
		return switch (type) {
			case "SerializationException", "AccessDeniedException", "TransactionCanceledException" -> "Message";
			default -> "message";
		};
	}

	/** Writes the body of {@code error} to {@code out}. */
	static void write(JsonCodec codec, AwsError error, OutputStream out) {
		try (JsonGenerator generator = codec.generator(out)) {
			generator.writeStartObject();
			generator.writeStringProperty("__type", namespace(error.type()) + error.type());
			if (error.getMessage() != null) {
				generator.writeStringProperty(messageName(error.type()), error.getMessage());
			}
			if (error.item() != null) {
				generator.writeName("Item");
				codec.writeField(generator, ITEM, error.item());
			}
			List<?> reasons = error.cancellationReasons();
			if (reasons != null) {
				generator.writeName("CancellationReasons");
				codec.writeField(generator, CANCELLATION_REASONS, reasons);
			}
			generator.writeEndObject();
		}
	}

	private static SdkField<?> field(Object builder, String name) {
		return ((SdkPojo) builder).sdkFields()
			.stream()
			.filter((field) -> field.locationName().equals(name))
			.findFirst()
			.orElseThrow();
	}

}
