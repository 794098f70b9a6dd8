package dev.dynamorelay.it.live;

import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;

import dev.dynamorelay.it.IntegrationTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The WebSocket handshake's settings: the origins {@code spring.graphql.cors.*} allows GraphQL over HTTP are the
 * ones the handshake takes too (without the property, only the server's own origin: {@code LiveProtocolIT}); and
 * with {@code dynamo-relay.live.compression} a browser's offer of permessage-deflate is taken (without it, declined:
 * {@code LiveProtocolIT}).
 */
@TestPropertySource(properties = { "spring.graphql.cors.allowed-origins=https://app.example",
		"dynamo-relay.live.compression=true" })
class LiveHandshakeSettingsIT extends IntegrationTest {

	@Test
	void aPageOfAnAllowedOriginConnectsAndAnotherIsRefused() throws Exception {
		assertThat(LiveHandshakes.handshake(this.port, "https://app.example")).startsWith("HTTP/1.1 101");
		assertThat(LiveHandshakes.handshake(this.port, "https://elsewhere.example")).startsWith("HTTP/1.1 403");
	}

	@Test
	void withCompressionABrowsersOfferOfPermessageDeflateIsTaken() throws Exception {
		String head = LiveHandshakes.head(this.port, "Origin: https://app.example\r\n"
				+ "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n");
		assertThat(head).startsWith("HTTP/1.1 101").containsIgnoringCase("Sec-WebSocket-Extensions: permessage-deflate");
	}

}
