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
 * @param compression whether a WebSocket connection may compress its messages (permessage-deflate, which browsers
 * offer): each such connection holds zlib's compressor and decompressor while it is open, idle or not, about 100 KB
 * of native memory besides its heap; off, the offer is declined and messages go as they are
 */
@ConfigurationProperties("dynamo-relay.live")
public record WebSocketProperties(@DefaultValue("10s") Duration sendTimeout, @DefaultValue("false") boolean compression) {

	public WebSocketProperties {
		if (sendTimeout.isNegative() || sendTimeout.isZero()) {
			throw new IllegalArgumentException("dynamo-relay.live.send-timeout must be positive, got " + sendTimeout);
		}
	}

}
