package dev.dynamorelay.transport.graphql.live;

import java.io.IOException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.socket.TextMessage;
import org.springframework.web.socket.WebSocketMessage;
import org.springframework.web.socket.WebSocketSession;
import org.springframework.web.socket.handler.WebSocketSessionDecorator;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.json.JsonMapper;

import dev.dynamorelay.live.LiveMemory;
import dev.dynamorelay.transport.web.ErrorResponses;

/**
 * A WebSocket session as Spring GraphQL's handler sends on it: each message written to the socket is told to the
 * connection's {@link LiveMemory.Connection} by its subscription's id (the message's {@code id}), which frees its
 * bytes and opens the send window again; a send that fails (the client read nothing for the send timeout, or hung
 * up) ends the session quietly, in one DEBUG line, instead of the handler's ERROR with a stack trace and close
 * 1011; and nothing is sent on a session once closed.
 */
final class SendingSession extends WebSocketSessionDecorator {

	private static final Logger logger = LoggerFactory.getLogger(SendingSession.class);

	private final LiveMemory.Connection connection;

	private final JsonMapper json;

	SendingSession(WebSocketSession session, LiveMemory.Connection connection, JsonMapper json) {
		super(session);
		this.connection = connection;
		this.json = json;
	}

	LiveMemory.Connection connection() {
		return this.connection;
	}

	@Override
	public void sendMessage(WebSocketMessage<?> message) throws IOException {
		if (!isOpen()) {
			// Closed: Spring's handler goes on handing over what it had queued until it hears of the close.
			return;
		}
		try {
			super.sendMessage(message);
		}
		catch (IOException | IllegalStateException ex) {
			// Tomcat closes the session itself after a send that failed or timed out (its state is undefined then).
			ErrorResponses.refusal("websocket-send-failed");
			logger.debug("WebSocket session {}: a send failed, the session is closed (the client read nothing within "
					+ "dynamo-relay.live.send-timeout, or went away): {}", getId(), ex.toString());
			closeQuietly();
			return;
		}
		if (message instanceof TextMessage text) {
			String id = id(text.asBytes());
			if (id != null) {
				this.connection.written(id);
			}
		}
	}

	private void closeQuietly() {
		try {
			if (isOpen()) {
				close(LiveWebSocketHandler.NOT_READING);
			}
		}
		catch (IOException | IllegalStateException ex) {
			logger.debug("Closing WebSocket session {} failed: {}", getId(), ex.toString());
		}
	}

	/**
	 * The {@code id} of a graphql-transport-ws message as Spring GraphQL writes it (its fields in alphabetical
	 * order: {@code id} first, read without going through the payload), or null.
	 */
	String id(byte[] message) {
		try (JsonParser parser = this.json.createParser(message)) {
			if (parser.nextToken() != JsonToken.START_OBJECT) {
				return null;
			}
			for (JsonToken token = parser.nextToken(); token == JsonToken.PROPERTY_NAME; token = parser.nextToken()) {
				String name = parser.currentName();
				JsonToken value = parser.nextToken();
				if ("id".equals(name)) {
					return (value == JsonToken.VALUE_STRING) ? parser.getString() : null;
				}
				parser.skipChildren();
			}
			return null;
		}
		catch (JacksonException ex) {
			return null;
		}
	}

}
