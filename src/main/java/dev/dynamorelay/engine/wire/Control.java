package dev.dynamorelay.engine.wire;

import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.dynamorelay.engine.action.AwsError;
import io.netty.handler.codec.http.HttpResponseStatus;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;

/**
 * The engine's own targets, for tests that drive a separate engine process over HTTP: its faults, set, read and
 * released. They take the same JSON POST as DynamoDB's targets, without a signature:
 * <ul>
 * <li>{@code DynamoRelayEngine.SetFaults} with {@code {"Faults": {"*": {...}, "DynamoDB_20120810.GetItem": {...}}}}
 * replaces every fault ({@code "*"}: every target without one of its own; {@code {"Faults": {}}} removes them
 * all); a fault is {@code {"ThrottleShare": 0.5, "ThrottleType": "ThrottlingException", "ErrorShare": 0.1,
 * "ErrorStatus": 503, "LatencyMillis": 200, "Stall": true}}, every member optional;</li>
 * <li>{@code DynamoRelayEngine.GetFaults} answers the faults in force and how many calls a stall holds:
 * {@code {"Faults": {...}, "Stalled": 2}} (so does SetFaults, after the change);</li>
 * <li>{@code DynamoRelayEngine.ReleaseStalled} answers every call a stall holds now.</li>
 * </ul>
 * A held call is also answered as soon as its target's fault no longer stalls.
 */
public final class Control {

	/** The prefix of the engine's own targets. */
	public static final String PREFIX = "DynamoRelayEngine.";

	private final JsonCodec codec;

	private final Faults faults;

	Control(JsonCodec codec, Faults faults) {
		this.codec = codec;
		this.faults = faults;
	}

	Answer serve(String target, byte[] body, String contentType) {
		try {
			switch (target) {
				case PREFIX + "SetFaults" -> this.faults.setAll(parse(body));
				case PREFIX + "ReleaseStalled" -> this.faults.release();
				case PREFIX + "GetFaults" -> {
				}
				default -> throw AwsError.of("UnknownOperationException", null);
			}
			return answer(contentType);
		}
		catch (AwsError error) {
			return Answer.error(error, contentType, this.codec);
		}
	}

	private Answer answer(String contentType) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		try (JsonGenerator generator = this.codec.generator(out)) {
			generator.writeStartObject();
			generator.writeName("Faults");
			generator.writeStartObject();
			for (Map.Entry<String, Fault> entry : this.faults.current().entrySet()) {
				Fault fault = entry.getValue();
				generator.writeName(entry.getKey());
				generator.writeStartObject();
				generator.writeNumberProperty("ThrottleShare", fault.throttleShare());
				generator.writeStringProperty("ThrottleType", fault.throttleType());
				generator.writeNumberProperty("ErrorShare", fault.errorShare());
				generator.writeNumberProperty("ErrorStatus", fault.errorStatus());
				generator.writeNumberProperty("LatencyMillis", fault.latency().toMillis());
				generator.writeBooleanProperty("Stall", fault.stall());
				generator.writeEndObject();
			}
			generator.writeEndObject();
			generator.writeNumberProperty("Stalled", this.faults.stalled());
			generator.writeEndObject();
		}
		Answer answer = Answer.bare(HttpResponseStatus.OK, out.toByteArray());
		return Answer.withType(answer, contentType);
	}

	private Map<String, Fault> parse(byte[] body) {
		Map<String, Fault> faults = new LinkedHashMap<>();
		try (JsonParser parser = this.codec.factory().createParser(ObjectReadContext.empty(), body)) {
			if (parser.nextToken() != JsonToken.START_OBJECT) {
				throw AwsError.validation("The body is a JSON object: {\"Faults\": {\"TARGET or *\": {...}}}");
			}
			String name;
			while ((name = parser.nextName()) != null) {
				JsonToken token = parser.nextToken();
				if (!name.equals("Faults")) {
					parser.skipChildren();
					continue;
				}
				if (token != JsonToken.START_OBJECT) {
					throw AwsError.validation("Faults is an object of targets (or *) to faults");
				}
				String target;
				while ((target = parser.nextName()) != null) {
					if (parser.nextToken() != JsonToken.START_OBJECT) {
						throw AwsError.validation("The fault of " + target + " is an object");
					}
					faults.put(target, fault(parser));
				}
			}
		}
		catch (JacksonException notJson) {
			throw AwsError.serialization(null);
		}
		return faults;
	}

	private static Fault fault(JsonParser parser) {
		double throttleShare = 0;
		String throttleType = Fault.NONE.throttleType();
		double errorShare = 0;
		int errorStatus = 500;
		long latency = 0;
		boolean stall = false;
		String name;
		while ((name = parser.nextName()) != null) {
			JsonToken token = parser.nextToken();
			switch (name) {
				case "ThrottleShare" -> throttleShare = number(parser, token, name);
				case "ThrottleType" -> throttleType = parser.getValueAsString(throttleType);
				case "ErrorShare" -> errorShare = number(parser, token, name);
				case "ErrorStatus" -> errorStatus = (int) number(parser, token, name);
				case "LatencyMillis" -> latency = (long) number(parser, token, name);
				case "Stall" -> stall = parser.getValueAsBoolean();
				default -> parser.skipChildren();
			}
		}
		try {
			return new Fault(throttleShare, throttleType, errorShare, errorStatus, Duration.ofMillis(latency), stall);
		}
		catch (IllegalArgumentException invalid) {
			throw AwsError.validation(invalid.getMessage());
		}
	}

	private static double number(JsonParser parser, JsonToken token, String name) {
		if (!token.isNumeric()) {
			throw AwsError.validation(name + " is a number");
		}
		return parser.getDoubleValue();
	}

}
