package dev.dynamorelay.transport.web;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * The buffers Tomcat gives every connection, HTTP and WebSocket alike, held while it is open, idle or not (Tomcat's
 * {@code socket.appReadBufSize} and {@code socket.appWriteBufSize}, 8 KB each by default). A connection reads and
 * writes the network at most a buffer at a time, so small buffers make more system calls for a large body or
 * answer; a WebSocket connection reads and writes in parts of 512 bytes anyway ({@code WebSocketBuffers}), and an
 * idle one, such as a live subscriber's, holds its two buffers for nothing.
 *
 * @param readBuffer the buffer each connection, HTTP or WebSocket, reads the network into, held while it is open
 * (Tomcat's {@code socket.appReadBufSize}, 8 KB by default): a read takes at most this much at once; {@code 8KB}
 * restores Tomcat's
 * @param writeBuffer the buffer each connection writes the network from, held while it is open (Tomcat's
 * {@code socket.appWriteBufSize}, 8 KB by default): an answer is written this much at a time; {@code 8KB} restores
 * Tomcat's
 */
@ConfigurationProperties("dynamo-relay.http.socket")
public record SocketBuffersProperties(@DefaultValue("1KB") DataSize readBuffer, @DefaultValue("2KB") DataSize writeBuffer) {

	/** The smallest buffer taken: room for a request line and a few headers in one read. */
	static final long MIN = 512;

	public SocketBuffersProperties {
		check("read-buffer", readBuffer);
		check("write-buffer", writeBuffer);
	}

	private static void check(String name, DataSize size) {
		if (size.toBytes() < MIN || size.toBytes() > 1024 * 1024) {
			throw new IllegalArgumentException(
					"dynamo-relay.http.socket.%s must be between 512B and 1MB, got %s".formatted(name, size));
		}
	}

}
