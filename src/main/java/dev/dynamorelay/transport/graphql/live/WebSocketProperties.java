package dev.dynamorelay.transport.graphql.live;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The WebSocket transport of live connections (graphql-transport-ws), under the live connections' prefix: the
 * engine's own settings are the live room's.
 *
 * @param sendTimeout how long a write to a WebSocket client may wait for the client to read: a client that reads
 * nothing for so long is disconnected (close 1013, which graphql-ws clients retry)
 */
@ConfigurationProperties("dynamo-relay.live")
public record WebSocketProperties(@DefaultValue("10s") Duration sendTimeout) {

	public WebSocketProperties {
		if (sendTimeout.isNegative() || sendTimeout.isZero()) {
			throw new IllegalArgumentException("dynamo-relay.live.send-timeout must be positive, got " + sendTimeout);
		}
	}

}
