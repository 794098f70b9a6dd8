package dev.dynamorelay.it.live;

import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;

import dev.dynamorelay.it.IntegrationTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The origins {@code spring.graphql.cors.*} allows GraphQL over HTTP are the ones the WebSocket handshake takes too:
 * a page of an allowed origin opens a connection, a page of another is refused with 403 (without the property, only
 * the server's own origin: {@code LiveProtocolIT}).
 */
@TestPropertySource(properties = "spring.graphql.cors.allowed-origins=https://app.example")
class LiveOriginsIT extends IntegrationTest {

	@Test
	void aPageOfAnAllowedOriginConnectsAndAnotherIsRefused() throws Exception {
		assertThat(LiveOrigins.handshake(this.port, "https://app.example")).startsWith("HTTP/1.1 101");
		assertThat(LiveOrigins.handshake(this.port, "https://elsewhere.example")).startsWith("HTTP/1.1 403");
	}

}
