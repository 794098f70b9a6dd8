package dev.dynamorelay.transport.web;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The path of a request line Tomcat refused before it had one, read from the bytes it holds. */
class TomcatErrorsTest {

	@Test
	void readsThePathOfTheRequestLine() {
		assertThat(TomcatErrors.requestPath(head("GET /api/us\u0001ers HTTP/1.1\r\nHost: x\r\n"))).isEqualTo("/api/us\u0001ers");
		assertThat(TomcatErrors.requestPath(head("\r\nGET /api/users?limit=1 HTTP/1.1\r\n"))).isEqualTo("/api/users");
		assertThat(TomcatErrors.requestPath(head("GET http://example.com:8080/api/users HTTP/1.1"))).isEqualTo("/api/users");
		assertThat(TomcatErrors.requestPath(head("GET /graphql"))).as("a line cut short").isEqualTo("/graphql");
		assertThat(TomcatErrors.requestPath(head("GET /api/" + "a".repeat(100_000))))
			.hasSize(TomcatErrors.MAX_READ_PATH)
			.startsWith("/api/aaa");
	}

	@Test
	void noPathBeforeTheTarget() {
		assertThat(TomcatErrors.requestPath(head(""))).isNull();
		assertThat(TomcatErrors.requestPath(head("GET"))).isNull();
		assertThat(TomcatErrors.requestPath(head("GET "))).isNull();
		assertThat(TomcatErrors.requestPath(null)).isNull();
	}

	/** Bytes as Tomcat's input buffer holds them: read from 0 up to its limit. */
	private static ByteBuffer head(String text) {
		ByteBuffer buffer = ByteBuffer.allocate(text.length() + 16);
		buffer.put(text.getBytes(StandardCharsets.ISO_8859_1));
		buffer.limit(buffer.position());
		buffer.position(Math.min(3, buffer.limit()));
		return buffer;
	}

}
