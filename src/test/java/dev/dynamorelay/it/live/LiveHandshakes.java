package dev.dynamorelay.it.live;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.concurrent.ThreadLocalRandom;

/** A WebSocket handshake to {@code /graphql}, as a browser sends it. */
final class LiveHandshakes {

	private LiveHandshakes() {
	}

	/** The status line the server answers a handshake with {@code origin} (null: no Origin header) with. */
	static String handshake(int port, String origin) throws Exception {
		String head = head(port, (origin != null) ? "Origin: " + origin + "\r\n" : "");
		int end = head.indexOf("\r\n");
		return (end < 0) ? head : head.substring(0, end);
	}

	/** The head of the server's answer (status line and headers) to a handshake with {@code headers} added. */
	static String head(int port, String headers) throws Exception {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
			socket.setSoTimeout(10_000);
			byte[] nonce = new byte[16];
			ThreadLocalRandom.current().nextBytes(nonce);
			OutputStream out = socket.getOutputStream();
			out.write(("GET /graphql HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
					+ "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: " + Base64.getEncoder().encodeToString(nonce) + "\r\n"
					+ "Sec-WebSocket-Protocol: graphql-transport-ws\r\n" + headers + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
			out.flush();
			InputStream in = socket.getInputStream();
			StringBuilder head = new StringBuilder();
			while (head.indexOf("\r\n\r\n") < 0) {
				int b = in.read();
				if (b < 0) {
					break;
				}
				head.append((char) b);
			}
			return head.toString();
		}
	}

}
