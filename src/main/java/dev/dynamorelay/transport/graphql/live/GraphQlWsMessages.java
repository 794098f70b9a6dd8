package dev.dynamorelay.transport.graphql.live;

import java.util.Map;
import java.util.Set;

import tools.jackson.core.JacksonException;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A graphql-transport-ws message from a client, read: it must be a JSON
 * object (within the JSON reader's constraints, its nesting depth among them) whose {@code type} is one of the
 * protocol's, whose {@code id} is a string, whose {@code payload} is an object, and whose {@code subscribe}
 * payload has a string {@code query} and {@code operationName} and object {@code variables} and
 * {@code extensions}. Any of these may be null or absent where the protocol allows; the session answers the
 * rest (a {@code subscribe} without an id, a second {@code connection_init}, a server's message type).
 */
final class GraphQlWsMessages {

	/** The protocol's message types. */
	private static final Set<String> TYPES = Set.of("connection_init", "connection_ack", "ping", "pong", "subscribe",
			"next", "error", "complete");

	/** A close reason is at most 123 bytes. */
	private static final int REASON = 123;

	private GraphQlWsMessages() {
	}

	/** A client's message: its type, its id (or null), and its payload (null when it has none). */
	record Message(String type, String id, Map<String, Object> payload) {
	}

	/** A message that is no graphql-transport-ws message, and what is wrong with it. */
	static final class InvalidMessage extends Exception {

		private static final long serialVersionUID = 1L;

		InvalidMessage(String what) {
			super(what, null, false, false);
		}

	}

	/** The message {@code text} is. */
	static Message read(JsonMapper json, String text) throws InvalidMessage {
		JsonNode message = parse(json, text);
		String invalid = invalid(message);
		if (invalid != null) {
			throw new InvalidMessage(invalid);
		}
		JsonNode id = message.get("id");
		JsonNode payload = message.get("payload");
		@SuppressWarnings("unchecked")
		Map<String, Object> body = (payload != null && payload.isObject()) ? json.treeToValue(payload, Map.class) : null;
		return new Message(message.get("type").asString(), (id != null && id.isString()) ? id.asString() : null, body);
	}

	/** What is wrong with {@code text} as a client's message, or null when nothing is. */
	static String invalid(JsonMapper json, String text) {
		try {
			return invalid(parse(json, text));
		}
		catch (InvalidMessage ex) {
			return ex.getMessage();
		}
	}

	private static JsonNode parse(JsonMapper json, String text) throws InvalidMessage {
		try {
			return json.readTree(text);
		}
		catch (StreamConstraintsException ex) {
			throw new InvalidMessage("JSON past the reader's limits (" + ex.getOriginalMessage() + ")");
		}
		catch (JacksonException ex) {
			throw new InvalidMessage("not JSON");
		}
	}

	private static String invalid(JsonNode message) {
		if (message == null || !message.isObject()) {
			return "not a JSON object";
		}
		JsonNode type = message.get("type");
		if (type == null || !type.isString()) {
			return "`type` must be a string";
		}
		if (!TYPES.contains(type.asString())) {
			return "unknown `type`";
		}
		String id = absentOr(message, "id", JsonNode::isString, "a string");
		if (id != null) {
			return id;
		}
		String payload = absentOr(message, "payload", JsonNode::isObject, "an object");
		if (payload != null || !"subscribe".equals(type.asString()) || !message.path("payload").isObject()) {
			return payload;
		}
		JsonNode request = message.get("payload");
		for (String field : new String[] { "query", "operationName" }) {
			String wrong = absentOr(request, field, JsonNode::isString, "a string");
			if (wrong != null) {
				return "`payload." + wrong.substring(1);
			}
		}
		for (String field : new String[] { "variables", "extensions" }) {
			String wrong = absentOr(request, field, JsonNode::isObject, "an object");
			if (wrong != null) {
				return "`payload." + wrong.substring(1);
			}
		}
		return null;
	}

	/** The close reason for {@code invalid}: within the 123 bytes a close frame carries. */
	static String reason(String invalid) {
		String reason = "Invalid message: " + invalid;
		return (reason.length() <= REASON) ? reason : reason.substring(0, REASON);
	}

	private static String absentOr(JsonNode object, String field, java.util.function.Predicate<JsonNode> valid,
			String what) {
		JsonNode value = object.get(field);
		if (value == null || value.isNull() || valid.test(value)) {
			return null;
		}
		return "`" + field + "` must be " + what;
	}

}
