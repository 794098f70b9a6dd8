package dev.dynamorelay.bench.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP/1.1 over a plain socket, for what the abuse section sends and an HTTP client library will not: a URL holding
 * {@code %00}, a header of 9 KB, a body announced and never sent, a body sent a byte at a time, a body of 100 MB
 * streamed until the server answers.
 */
public final class RawHttp implements AutoCloseable {

	private final Socket socket;

	/** Connects to {@code 127.0.0.1:port}, reads waiting at most 30 s. */
	public RawHttp(int port) {
		try {
			this.socket = new Socket();
			this.socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
			this.socket.setSoTimeout(30_000);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** Sends {@code text} as it is (ISO-8859-1, so {@code \r\n} and bytes pass unchanged). */
	public RawHttp send(String text) {
		return send(text.getBytes(StandardCharsets.ISO_8859_1));
	}

	public RawHttp send(byte[] bytes) {
		try {
			this.socket.getOutputStream().write(bytes);
			this.socket.getOutputStream().flush();
			return this;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** A request's head of {@code method}, {@code target} and {@code headers} (each a "Name: value" line). */
	public static String request(String method, String target, String... headers) {
		StringBuilder request = new StringBuilder(method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n");
		for (String header : headers) {
			request.append(header).append("\r\n");
		}
		return request.append("\r\n").toString();
	}

	/** Reads one answer: its status line, headers and body (by {@code Content-Length}, chunks, or to the close). */
	public Answer read() {
		try {
			InputStream in = this.socket.getInputStream();
			String[] lines = head(in).split("\r\n");
			int status = Integer.parseInt(lines[0].split(" ")[1]);
			Map<String, String> headers = new LinkedHashMap<>();
			for (int i = 1; i < lines.length; i++) {
				int colon = lines[i].indexOf(':');
				headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
			}
			byte[] body;
			if (headers.containsKey("content-length")) {
				body = in.readNBytes(Integer.parseInt(headers.get("content-length")));
			}
			else if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
				body = chunks(in);
			}
			else {
				body = in.readAllBytes();
			}
			return new Answer(status, headers, new String(body, StandardCharsets.UTF_8));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static String head(InputStream in) throws IOException {
		ByteArrayOutputStream head = new ByteArrayOutputStream();
		int matched = 0;
		while (matched < 4) {
			int b = in.read();
			if (b < 0) {
				throw new IOException("The connection closed before an answer: " + head);
			}
			head.write(b);
			matched = (b == "\r\n\r\n".charAt(matched)) ? matched + 1 : (b == '\r') ? 1 : 0;
		}
		return head.toString(StandardCharsets.ISO_8859_1).trim();
	}

	private static byte[] chunks(InputStream in) throws IOException {
		ByteArrayOutputStream body = new ByteArrayOutputStream();
		while (true) {
			StringBuilder size = new StringBuilder();
			for (int b = in.read(); b != '\n'; b = in.read()) {
				if (b < 0) {
					return body.toByteArray();
				}
				if (b != '\r') {
					size.append((char) b);
				}
			}
			int length = Integer.parseInt(size.toString().split(";")[0].trim(), 16);
			if (length == 0) {
				in.readNBytes(2);
				return body.toByteArray();
			}
			body.write(in.readNBytes(length));
			in.readNBytes(2);
		}
	}

	/** Whether an answer has begun to arrive: bytes that {@link #read()} would take without waiting. */
	public boolean answering() {
		try {
			return this.socket.getInputStream().available() > 0;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
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

	/** An answer: status, headers (names in lower case) and body. */
	public record Answer(int status, Map<String, String> headers, String body) {
	}

}
