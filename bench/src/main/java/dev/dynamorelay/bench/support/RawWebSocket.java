package dev.dynamorelay.bench.support;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A {@code graphql-transport-ws} client over a plain socket for the abuse section's live attacks, which reads only
 * when told to: between reads nothing takes the server's messages, so once its small receive buffer and the
 * server's send buffer are full the server's sends wait, as they do for a client that stops reading. It connects
 * from a loopback address of its choosing (the server counts anonymous callers by their address), which the JDK's
 * WebSocket client cannot.
 */
public final class RawWebSocket implements AutoCloseable {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final Socket socket;

	private final InputStream in;

	private final OutputStream out;

	private volatile Integer closeCode;

	private RawWebSocket(Socket socket) throws IOException {
		this.socket = socket;
		this.in = socket.getInputStream();
		this.out = socket.getOutputStream();
	}

	/**
	 * Opens a WebSocket to {@code /graphql} from {@code local} (an address of the loopback such as 127.0.0.2, null
	 * for any) with a receive buffer of {@code receiveBuffer} bytes (the kernel may round it), sends
	 * {@code connection_init} with {@code token} (null: none) and waits for its ack.
	 */
	public static RawWebSocket open(String local, int port, int receiveBuffer, String token) {
		RawWebSocket client = connect(local, port, receiveBuffer);
		client.send(JSON.writeValueAsString((token != null)
				? Map.of("type", "connection_init", "payload", Map.of("Authorization", "Bearer " + token))
				: Map.of("type", "connection_init")));
		JsonNode ack = client.next(Duration.ofSeconds(10));
		if (ack == null || !"connection_ack".equals(ack.path("type").asString())) {
			client.close();
			throw new IllegalStateException("no connection_ack but " + ack + " (closed " + client.closeCode + ")");
		}
		return client;
	}

	private static RawWebSocket connect(String local, int port, int receiveBuffer) {
		try {
			Socket socket = new Socket();
			socket.setReceiveBufferSize(receiveBuffer);
			if (local != null) {
				socket.bind(new InetSocketAddress(local, 0));
			}
			socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
			RawWebSocket client = new RawWebSocket(socket);
			byte[] nonce = new byte[16];
			ThreadLocalRandom.current().nextBytes(nonce);
			client.out.write(("GET /graphql HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nUpgrade: websocket\r\n"
					+ "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: "
					+ Base64.getEncoder().encodeToString(nonce) + "\r\nSec-WebSocket-Protocol: graphql-transport-ws\r\n\r\n")
				.getBytes(StandardCharsets.ISO_8859_1));
			client.out.flush();
			socket.setSoTimeout(10_000);
			String head = client.head();
			if (!head.startsWith("HTTP/1.1 101")) {
				throw new IOException("no upgrade: " + head);
			}
			return client;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** Sends {@code text} as one text message, masked as a client must. */
	public synchronized void send(String text) {
		frame(0x1, text.getBytes(StandardCharsets.UTF_8));
	}

	/** A {@code subscribe} message. */
	public static String subscribe(String id, String document, Map<String, Object> variables) {
		return JSON.writeValueAsString(Map.of("id", id, "type", "subscribe", "payload",
				Map.of("query", document, "variables", variables)));
	}

	private void frame(int opcode, byte[] payload) {
		try {
			ByteArrayOutputStream frame = new ByteArrayOutputStream(payload.length + 14);
			frame.write(0x80 | opcode);
			if (payload.length < 126) {
				frame.write(0x80 | payload.length);
			}
			else if (payload.length <= 0xFFFF) {
				frame.write(0x80 | 126);
				frame.write(payload.length >>> 8);
				frame.write(payload.length);
			}
			else {
				frame.write(0x80 | 127);
				for (int shift = 56; shift >= 0; shift -= 8) {
					frame.write((int) ((long) payload.length >>> shift));
				}
			}
			byte[] mask = new byte[4];
			ThreadLocalRandom.current().nextBytes(mask);
			frame.write(mask);
			for (int i = 0; i < payload.length; i++) {
				frame.write(payload[i] ^ mask[i & 3]);
			}
			this.out.write(frame.toByteArray());
			this.out.flush();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * The next message other than a {@code ping} (answered with a {@code pong}), or null: none within
	 * {@code timeout}, or the connection closed ({@link #closeCode()} says how).
	 */
	public JsonNode next(Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (true) {
			String text = text(deadline);
			if (text == null) {
				return null;
			}
			JsonNode message = JSON.readTree(text);
			if ("ping".equals(message.path("type").asString())) {
				send("{\"type\":\"pong\"}");
				continue;
			}
			return message;
		}
	}

	/**
	 * The next text message as it came (pings too, unanswered), or null within {@code timeout}: for a client that
	 * counts many messages without parsing them.
	 */
	public String nextText(Duration timeout) {
		return text(System.nanoTime() + timeout.toNanos());
	}

	/** The next text message whole, or null once the deadline passed or the connection closed. */
	private String text(long deadline) {
		ByteArrayOutputStream message = new ByteArrayOutputStream();
		try {
			while (true) {
				long left = deadline - System.nanoTime();
				if (this.closeCode != null || (left <= 0 && message.size() == 0)) {
					return null;
				}
				// The deadline bounds the wait for a message, not for the rest of one that has begun.
				this.socket.setSoTimeout((message.size() > 0) ? 30_000 : (int) Math.max(1, left / 1_000_000));
				int first = this.in.read();
				if (first < 0) {
					this.closeCode = (this.closeCode != null) ? this.closeCode : 1006;
					return null;
				}
				this.socket.setSoTimeout(30_000);
				byte[] payload = this.in.readNBytes((int) length());
				int opcode = first & 0x0F;
				if (opcode == 0x8) {
					this.closeCode = (payload.length >= 2) ? ((payload[0] & 0xFF) << 8) | (payload[1] & 0xFF) : 1005;
					return null;
				}
				if (opcode == 0x9) {
					frame(0xA, payload);
					continue;
				}
				message.write(payload);
				if ((first & 0x80) != 0 && opcode != 0xA) {
					return message.toString(StandardCharsets.UTF_8);
				}
			}
		}
		catch (SocketTimeoutException ex) {
			return null;
		}
		catch (IOException ex) {
			// Reset by the server: no close frame reached this client.
			this.closeCode = (this.closeCode != null) ? this.closeCode : 1006;
			return null;
		}
	}

	/** A frame's payload length, after its first byte: 7 bits, or 16 or 64 more (a server's frames are not masked). */
	private long length() throws IOException {
		long length = read() & 0x7F;
		if (length == 126) {
			length = (read() << 8) | read();
		}
		else if (length == 127) {
			length = 0;
			for (int i = 0; i < 8; i++) {
				length = (length << 8) | read();
			}
		}
		return length;
	}

	private int read() throws IOException {
		int b = this.in.read();
		if (b < 0) {
			throw new EOFException();
		}
		return b;
	}

	/** The close code the server sent (1006: the connection ended without one), or null while open. */
	public Integer closeCode() {
		return this.closeCode;
	}

	private String head() throws IOException {
		ByteArrayOutputStream head = new ByteArrayOutputStream();
		int matched = 0;
		while (matched < 4) {
			int b = this.in.read();
			if (b < 0) {
				throw new IOException("closed before the upgrade's answer: " + head);
			}
			head.write(b);
			matched = (b == "\r\n\r\n".charAt(matched)) ? matched + 1 : (b == '\r') ? 1 : 0;
		}
		return head.toString(StandardCharsets.ISO_8859_1);
	}

	@Override
	public void close() {
		try {
			this.socket.close();
		}
		catch (IOException ex) {
			// closed already
		}
	}

}
