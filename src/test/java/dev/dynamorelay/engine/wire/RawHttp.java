package dev.dynamorelay.engine.wire;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP/1.1 spoken byte by byte over one socket, so that a test says exactly what is sent (any method, header
 * or body, several requests at once) and sees exactly what comes back.
 */
final class RawHttp implements AutoCloseable {

	private final Socket socket;

	private final InputStream in;

	private final OutputStream out;

	RawHttp(int port) throws IOException {
		this.socket = new Socket("127.0.0.1", port);
		this.socket.setSoTimeout(20_000);
		this.in = new java.io.BufferedInputStream(this.socket.getInputStream());
		this.out = this.socket.getOutputStream();
	}

	/** One request and its answer on a fresh connection. */
	static Response exchange(int port, String method, String path, Map<String, String> headers, String body)
			throws IOException {
		try (RawHttp http = new RawHttp(port)) {
			http.send(method, path, headers, body.getBytes(StandardCharsets.UTF_8));
			return http.read();
		}
	}

	/** A POST of {@code body} as DynamoDB's JSON, with a signature's form (never verified). */
	static Map<String, String> signed(String target) {
		Map<String, String> headers = new LinkedHashMap<>();
		headers.put("Content-Type", "application/x-amz-json-1.0");
		headers.put("X-Amz-Target", target);
		headers.put("X-Amz-Date", "20240101T000000Z");
		headers.put("Authorization", "AWS4-HMAC-SHA256 Credential=AKID/20240101/eu-west-3/dynamodb/aws4_request, "
				+ "SignedHeaders=host;x-amz-date;x-amz-target, Signature=abc");
		return headers;
	}

	void send(String method, String path, Map<String, String> headers, byte[] body) throws IOException {
		this.out.write(head(method, path, headers, body.length));
		this.out.write(body);
		this.out.flush();
	}

	static byte[] head(String method, String path, Map<String, String> headers, int length) {
		StringBuilder head = new StringBuilder();
		head.append(method).append(' ').append(path).append(" HTTP/1.1\r\nHost: 127.0.0.1\r\n");
		headers.forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
		if (length > 0 || method.equals("POST")) {
			head.append("Content-Length: ").append(length).append("\r\n");
		}
		head.append("\r\n");
		return head.toString().getBytes(StandardCharsets.UTF_8);
	}

	void write(byte[] bytes) throws IOException {
		this.out.write(bytes);
		this.out.flush();
	}

	Response read() throws IOException {
		String status = line();
		if (status == null) {
			throw new IOException("Connection closed before an answer");
		}
		Map<String, String> headers = new LinkedHashMap<>();
		String line;
		while (!(line = line()).isEmpty()) {
			int colon = line.indexOf(':');
			headers.put(line.substring(0, colon).toLowerCase(Locale.ROOT), line.substring(colon + 1).strip());
		}
		int code = Integer.parseInt(status.split(" ")[1]);
		if (code == 100) {
			return read();
		}
		ByteArrayOutputStream body = new ByteArrayOutputStream();
		if ("chunked".equals(headers.get("transfer-encoding"))) {
			int size;
			while ((size = Integer.parseInt(line().strip(), 16)) > 0) {
				body.write(this.in.readNBytes(size));
				line();
			}
			line();
		}
		else {
			body.write(this.in.readNBytes(Integer.parseInt(headers.getOrDefault("content-length", "0"))));
		}
		return new Response(code, headers, body.toString(StandardCharsets.UTF_8));
	}

	/** Whether the server closed the connection (reading finds its end). */
	boolean closedByServer() throws IOException {
		try {
			return this.in.read() < 0;
		}
		catch (java.net.SocketException reset) {
			return true;
		}
	}

	private String line() throws IOException {
		ByteArrayOutputStream line = new ByteArrayOutputStream();
		int b;
		while ((b = this.in.read()) >= 0) {
			if (b == '\n') {
				String text = line.toString(StandardCharsets.UTF_8);
				return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
			}
			line.write(b);
		}
		return (line.size() == 0) ? null : line.toString(StandardCharsets.UTF_8);
	}

	@Override
	public void close() throws IOException {
		this.socket.close();
	}

	record Response(int status, Map<String, String> headers, String body) {

		String header(String name) {
			return this.headers.get(name.toLowerCase(Locale.ROOT));
		}

	}

}
