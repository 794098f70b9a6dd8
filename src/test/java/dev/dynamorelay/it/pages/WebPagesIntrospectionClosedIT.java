package dev.dynamorelay.it.pages;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import graphql.introspection.Introspection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;

import dev.dynamorelay.it.IntegrationTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With introspection closed, the pages' description of the schema ({@code /pages/connections.json}), which
 * tells what introspection would, is not served either: 404 with the contract's {@code NOT_FOUND}. {@code /}
 * still serves the connections page of a schema other than the sample, which then says why it lists nothing.
 */
@TestPropertySource(properties = { "dynamo-relay.schema.locations=classpath:pages/",
		"dynamo-relay.tables.prefix=PagesClosed_", "spring.graphql.schema.introspection.enabled=false" })
class WebPagesIntrospectionClosedIT extends IntegrationTest {

	/**
	 * Spring Boot closes introspection for the whole JVM (graphql-java's {@code Introspection.enabledJvmWide(false)})
	 * and never opens it again: the servers of the test classes that run after this one in the same JVM serve it.
	 */
	@AfterAll
	static void openIntrospectionAgain() {
		Introspection.enabledJvmWide(true);
	}

	private final HttpClient http = HttpClient.newHttpClient();

	@Test
	void theDescriptionFollowsIntrospection() throws Exception {
		HttpResponse<String> description = get("/pages/connections.json");
		assertThat(description.statusCode()).isEqualTo(404);
		assertThat(description.body()).contains("\"code\":\"NOT_FOUND\"").doesNotContain("booksByAuthor");

		HttpResponse<String> home = get("/");
		assertThat(home.statusCode()).isEqualTo(200);
		assertThat(home.headers().firstValue("content-type")).hasValueSatisfying(
				(type) -> assertThat(type).startsWith("text/html"));
		assertThat(home.body()).contains("<title>dynamo-relay · connections</title>");
	}

	private HttpResponse<String> get(String path) throws Exception {
		return this.http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path)).GET().build(),
				HttpResponse.BodyHandlers.ofString());
	}

}
