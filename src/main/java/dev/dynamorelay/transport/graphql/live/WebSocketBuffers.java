package dev.dynamorelay.transport.graphql.live;

/**
 * The size of Tomcat's buffers of each WebSocket session: 1 KB instead of Tomcat's 8 KB. Tomcat gives every
 * session five, allocated when it opens and held while it is open, idle or not: input, output and encoder
 * buffers sized by the system property {@value #TOMCAT_PROPERTY}, and the message buffers (binary; text, in
 * chars) sized by the container ({@link LiveTransportConfiguration#webSocketContainer}). At 8 KB they are 48 KB a
 * session, most of what an idle subscriber costs; at 1 KB, 6 KB. Messages that fit (connection_init,
 * subscribe, ping, complete; most changes) pass in one part; larger ones in parts, which
 * {@link LiveWebSocketHandler} puts together, and outgoing ones in frames of this size, which every WebSocket
 * client puts together.
 */
public final class WebSocketBuffers {

	/** The size of each buffer, in bytes (the text buffer, in chars). */
	public static final int SIZE = 1024;

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
