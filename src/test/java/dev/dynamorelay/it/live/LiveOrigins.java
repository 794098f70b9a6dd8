package dev.dynamorelay.it.live;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.concurrent.ThreadLocalRandom;

/** A WebSocket handshake to {@code /graphql} from a page of some origin, as a browser sends it. */
final class LiveOrigins {

	private LiveOrigins() {
	}

	/** The status line the server answers a handshake with {@code origin} (null: no Origin header) with. */
	static String handshake(int port, String origin) throws Exception {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
			socket.setSoTimeout(10_000);
			byte[] nonce = new byte[16];
			ThreadLocalRandom.current().nextBytes(nonce);
			OutputStream out = socket.getOutputStream();
			out.write(("GET /graphql HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
					+ "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: " + Base64.getEncoder().encodeToString(nonce) + "\r\n"
					+ "Sec-WebSocket-Protocol: graphql-transport-ws\r\n" + ((origin != null) ? "Origin: " + origin + "\r\n" : "")
					+ "\r\n").getBytes(StandardCharsets.ISO_8859_1));
			out.flush();
			InputStream in = socket.getInputStream();
			StringBuilder line = new StringBuilder();
			for (int b = in.read(); b >= 0 && b != '\r'; b = in.read()) {
				line.append((char) b);
			}
			return line.toString();
		}
	}

}
