package dev.dynamorelay.transport.graphql.live;

/**
 * The size of Tomcat's buffers of each WebSocket session, far below Tomcat's 8 KB. Tomcat gives every session five,
 * allocated when it opens and held while it is open, idle or not: input, output and encoder buffers of
 * {@value #SIZE} bytes, sized by the system property {@value #TOMCAT_PROPERTY}; and the message buffers sized by
 * the container ({@link LiveTransportConfiguration#webSocketContainer}): text, {@value #TEXT} chars, and binary,
 * {@value #BINARY} bytes. At 8 KB they were 48 KB a session, most of what an idle subscriber cost; now about 2 KB.
 * Messages that fit (connection_init, ping, complete) pass in one part; larger ones in parts, which
 * {@link LiveWebSocketHandler} puts together; outgoing ones go in frames of {@value #SIZE} bytes (a frame is a write
 * to the socket of its own), which every WebSocket client puts together. A server's frames are written straight from
 * the encoder buffer: the output buffer, which only a client's masked frames pass through, is held for nothing, and
 * is as large as the other two because one property sizes all three. The protocol has no binary messages (one closes
 * its session): the binary buffer holds a control frame's payload (125 bytes at most) and stages a text frame's
 * bytes on their way to the text buffer, a few at a time.
 */
public final class WebSocketBuffers {

	/** The size of the input, output and encoder buffers, in bytes. */
	public static final int SIZE = 512;

	/** The size of the text message buffer, in chars: the parts an incoming message is handed over in. */
	public static final int TEXT = 128;

	/** The size of the binary message buffer, in bytes. */
	public static final int BINARY = 128;

	/** Tomcat's system property for its WebSocket input, output and encoder buffers. */
	public static final String TOMCAT_PROPERTY = "org.apache.tomcat.websocket.DEFAULT_BUFFER_SIZE";

	private WebSocketBuffers() {
	}

	/**
	 * Sets {@value #TOMCAT_PROPERTY} to {@link #SIZE}, unless it is set already (a {@code -D} on the command
	 * line is kept). Tomcat reads it once per JVM, in a static initialiser that runs when its first WebSocket
	 * container (the server's, or a client's) is made, and never again: this must run before, so it runs first
	 * thing in {@code main}, before Spring or Tomcat load. A JVM that starts the server without {@code main}
	 * (the integration tests) sets the property on its command line.
	 */
	public static void setTomcatDefault() {
		if (System.getProperty(TOMCAT_PROPERTY) == null) {
			System.setProperty(TOMCAT_PROPERTY, Integer.toString(SIZE));
		}
	}

}
