package dev.dynamorelay.it.guards;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;

import dev.dynamorelay.it.Http.Answer;
import dev.dynamorelay.it.Http;
import dev.dynamorelay.it.IntegrationTest;
import dev.dynamorelay.it.Tokens;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tokens checked against a JWK set URI that does not answer: not the token's fault, so not a 401 but
 * UNAVAILABLE (503) with a GraphQL body; requests without a token still run their public fields.
 */
@TestPropertySource(properties = "spring.security.oauth2.resourceserver.jwt.jwk-set-uri=http://127.0.0.1:9/jwks.json")
class KeySetOutageIT extends IntegrationTest {

	@Test
	void aTokenThatCannotBeCheckedIsUnavailableNotRefused() {
		Http http = new Http(this.port);
		Answer answer = http.post(Tokens.of("user-01"), "{ movies(year: 2001, first: 1) { edges { cursor } } }").clean();
		assertThat(answer.status()).isEqualTo(503);
		assertThat(answer.codes()).containsExactly("UNAVAILABLE");
		assertThat(answer.body()).doesNotContainKey("data");

		Answer anonymous = http.post(null, "{ movies(year: 2001, first: 1) { edges { cursor } } }", Map.of()).clean();
		assertThat(anonymous.status()).isEqualTo(200);
		assertThat(anonymous.errors()).isEmpty();
	}

	@Test
	void aUrlTheFirewallRefusesIsAnsweredWithAGraphQlError() throws Exception {
		java.net.http.HttpResponse<String> response = java.net.http.HttpClient.newHttpClient()
			.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + this.port
					+ "/graphql;jsessionid=1?query=%7B__typename%7D")).GET().build(),
					java.net.http.HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(response.headers().firstValue("Content-Type").orElse("")).startsWith("application/json");
		assertThat(response.body()).contains("INVALID_ARGUMENT", "malformed");
	}

}
