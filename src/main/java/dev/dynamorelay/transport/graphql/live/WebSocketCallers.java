package dev.dynamorelay.transport.graphql.live;

import java.util.Map;
import java.util.Optional;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.graphql.server.WebSocketGraphQlInterceptor;
import org.springframework.graphql.server.WebSocketSessionInfo;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtException;
import org.springframework.web.socket.CloseStatus;
import reactor.core.publisher.Mono;

import dev.dynamorelay.access.Caller;
import dev.dynamorelay.transport.request.Transport;

/**
 * The caller of a WebSocket connection: the bearer token of its {@code connection_init} payload
 * ({@code {"Authorization": "Bearer <token>"}}, as a browser cannot set headers on a WebSocket), validated as an
 * HTTP request's is, kept for every operation of the connection. A token that is not valid closes the connection
 * with 4403 (Forbidden), which graphql-ws clients retry with fresh connection parameters; no token is an
 * anonymous caller.
 */
class WebSocketCallers implements WebSocketGraphQlInterceptor {

	/** Forbidden: the connection's token was refused. */
	static final CloseStatus FORBIDDEN = new CloseStatus(4403, "Forbidden: the token was refused");

	private final ObjectProvider<JwtDecoder> decoder;

	/** Looked up when needed: the handler's own construction needs the interceptors. */
	private final ObjectProvider<LiveWebSocketHandler> handler;

	WebSocketCallers(ObjectProvider<JwtDecoder> decoder, ObjectProvider<LiveWebSocketHandler> handler) {
		this.decoder = decoder;
		this.handler = handler;
	}

	@Override
	public Mono<Object> handleConnectionInitialization(WebSocketSessionInfo session, Map<String, Object> payload) {
		session.getAttributes().put(Transport.ATTRIBUTE, Transport.WEBSOCKET);
		session.getAttributes().put(Caller.ATTRIBUTE, Caller.ANONYMOUS);
		Optional<String> token = token(payload);
		JwtDecoder decoder = this.decoder.getIfAvailable();
		if (token.isEmpty() || decoder == null) {
			return Mono.empty();
		}
		try {
			session.getAttributes().put(Caller.ATTRIBUTE, Caller.of(decoder.decode(token.get())));
			return Mono.empty();
		}
		catch (JwtException ex) {
			this.handler.getObject().close(session.getId(), FORBIDDEN);
			return Mono.empty();
		}
	}

	/** The token of an {@code Authorization} entry (any case), with or without {@code Bearer }. */
	private static Optional<String> token(Map<String, Object> payload) {
		if (payload == null) {
			return Optional.empty();
		}
		for (Map.Entry<String, Object> entry : payload.entrySet()) {
			if (entry.getKey().equalsIgnoreCase("authorization") && entry.getValue() instanceof String value) {
				String token = value.regionMatches(true, 0, "Bearer ", 0, 7) ? value.substring(7).trim() : value.trim();
				return token.isEmpty() ? Optional.empty() : Optional.of(token);
			}
		}
		return Optional.empty();
	}

}
