package dev.dynamorelay.engine.wire;

import java.io.OutputStream;

import dev.dynamorelay.engine.action.AwsError;
import software.amazon.awssdk.core.SdkField;
import software.amazon.awssdk.core.SdkPojo;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.json.JsonFactory;

/**
 * DynamoDB's JSON (AWS JSON 1.0) to and from the AWS SDK's model classes, for every shape at once: what a
 * member is called on the wire, its type, the element type of a list or map and the builder of a nested
 * structure all come from the SDK's own field metadata ({@link SdkPojo#sdkFields()}), so the wire format is
 * described once, by the SDK. Reading streams the body (Jackson's parser) straight into the operation's request
 * builder; writing streams an answer's fields, leaving out what is absent.
 *
 * <p>Reading follows DynamoDB: a member it does not know is ignored, {@code null} is the same as absent, and a
 * value of the wrong JSON type is a {@code SerializationException} whose message is DynamoDB's own for that case
 * ({@code NUMBER_VALUE cannot be converted to String}, {@code Unexpected field type}, ...), reported only once
 * the whole body is known to be JSON (a body that is not JSON is a {@code SerializationException} without a
 * message, as DynamoDB answers it). Values are kept as they were sent, for the store's validation to judge: an
 * AttributeValue with two types set, or none, reaches it as such, and an empty set stays an empty set.
 *
 * <p>The shapes are {@link Shapes}', reading a body's members {@link ShapeReader}'s and writing an answer's
 * {@link ShapeWriter}'s; this class reads and writes whole documents.
 */
public final class JsonCodec {

	private final JsonFactory json;

	private final ShapeReader reader;

	private final ShapeWriter writer;

	public JsonCodec() {
		// A request is at most 16 MB; DynamoDB's own limit on nesting (32 levels of attribute values) is checked
		// by the store with DynamoDB's message, so the parser's bounds sit well above both.
		this.json = JsonFactory.builder()
			.streamReadConstraints(StreamReadConstraints.builder()
				.maxNestingDepth(2_000)
				.maxStringLength(32 * 1024 * 1024)
				.maxDocumentLength(32L * 1024 * 1024)
				.build())
			.build();
		Shapes shapes = new Shapes();
		this.reader = new ShapeReader(shapes);
		this.writer = new ShapeWriter(shapes);
	}

	/** The JSON factory, for the wire's own small bodies. */
	JsonFactory factory() {
		return this.json;
	}

	// ---------------------------------------------------------------------------------------------------------
	// Reading

	/**
	 * Fills {@code builder} (an SDK request builder) from the JSON object in {@code body}.
	 * @throws AwsError {@code SerializationException}: without a message when the body is not JSON, with
	 * DynamoDB's message when a member's value has the wrong type
	 */
	public void read(byte[] body, int offset, int length, SdkPojo builder) {
		try (JsonParser parser = this.json.createParser(ObjectReadContext.empty(), body, offset, length)) {
			AwsError typeError = null;
			try {
				JsonToken token = parser.nextToken();
				if (token == JsonToken.START_OBJECT) {
					this.reader.readFields(parser, builder);
				}
				else if (token != null) {
					// differs from nothing known: a body that is JSON but not an object reads, as dynalite reads it,
					// as a request with no members (DynamoDB's own answer to it is not documented).
					parser.skipChildren();
				}
			}
			catch (AwsError error) {
				typeError = error;
			}
			// DynamoDB reads the whole document before it judges types: a body that is not JSON is refused as
			// such even when a type error comes first.
			while (parser.nextToken() != null) {
				// The rest of the document, only to check that it is JSON (and that nothing follows the object).
				if (typeError == null) {
					throw ShapeReader.notJson();
				}
			}
			if (typeError != null) {
				throw typeError;
			}
		}
		catch (JacksonException notJson) {
			throw ShapeReader.notJson();
		}
	}

	/**
	 * Whether {@code body} is one JSON document: DynamoDB answers a body that is not with a
	 * {@code SerializationException} before it looks at the operation.
	 */
	public boolean isJson(byte[] body, int offset, int length) {
		try (JsonParser parser = this.json.createParser(ObjectReadContext.empty(), body, offset, length)) {
			if (parser.nextToken() == null) {
				return false;
			}
			parser.skipChildren();
			return parser.nextToken() == null;
		}
		catch (JacksonException notJson) {
			return false;
		}
	}

	// ---------------------------------------------------------------------------------------------------------
	// Writing

	/** Writes {@code pojo} (an answer, or a structure in one) as a JSON object to {@code out}. */
	public void write(SdkPojo pojo, OutputStream out) {
		try (JsonGenerator generator = this.json.createGenerator(ObjectWriteContext.empty(), out)) {
			this.writer.writeObject(generator, pojo);
		}
	}

	/** A generator on {@code out}, for bodies the wire writes member by member (errors). */
	JsonGenerator generator(OutputStream out) {
		return this.json.createGenerator(ObjectWriteContext.empty(), out);
	}

	/** Writes the value of one member, described by its SDK field (a list of reasons, a map of attributes). */
	void writeField(JsonGenerator generator, SdkField<?> field, Object value) {
		this.writer.writeField(generator, field, value);
	}

}
