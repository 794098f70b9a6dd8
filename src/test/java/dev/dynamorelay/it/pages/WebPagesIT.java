package dev.dynamorelay.it.pages;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import tools.jackson.databind.json.JsonMapper;

import dev.dynamorelay.it.Direct;
import dev.dynamorelay.it.Fixtures;
import dev.dynamorelay.it.IntegrationTest;
import dev.dynamorelay.model.NodeIds;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The pages on a schema the sample does not have ({@code src/test/resources/pages/}: books by author, kept
 * live, and shelves read by a Scan), driven in Debian's Chromium by {@code web/test/pages.test.mjs}: {@code /}
 * lists the schema's connections and pages through them (each item once, as a direct read of the table has
 * them), shows a change written straight to the table, and GraphiQL starts on one of them; the purchases
 * page, whose {@code users} query this schema has not, never shows.
 */
@TestPropertySource(properties = { "dynamo-relay.schema.locations=classpath:pages/",
		"dynamo-relay.tables.prefix=Pages_" })
class WebPagesIT extends IntegrationTest {

	private static final Path OUT = Path.of("target", "web-tests");

	@Test
	void theConnectionsPageAndGraphiqlFollowTheServedSchema() throws Exception {
		assertThat(servesSample()).as("the pages' schema, not the sample").isFalse();
		assertRoutes();
		String chromium = WebClientsIT.chromium();
		if (chromium == null) {
			String message = "\n*** NO CHROMIUM FOUND (looked for $CHROMIUM, /usr/bin/chromium, /usr/bin/chromium-browser): "
					+ "the pages' browser test is SKIPPED, NOT PASSED. Install Debian's chromium package. ***\n";
			System.err.println(message);
			Assumptions.abort(message);
		}
		String books = this.declarations.tables().get("Books").physicalName();
		String shelves = this.declarations.tables().get("Shelves").physicalName();
		String author = Fixtures.unique("author");
		List<Map<String, AttributeValue>> items = new ArrayList<>();
		for (int i = 0; i < 137; i++) {
			items.add(book(author, 1_000_000L + i * 100L, "Book %03d".formatted(i)));
		}
		// Another author's books: in the table, not in the connection.
		String other = Fixtures.unique("other");
		for (int i = 0; i < 30; i++) {
			items.add(book(other, 1_000_050L + i * 100L, "Other %03d".formatted(i)));
		}
		this.fixtures.put(books, items);
		List<Map<String, AttributeValue>> shelfItems = new ArrayList<>();
		for (int i = 0; i < 47; i++) {
			shelfItems.add(Map.of("shelfId", AttributeValue.fromS(Fixtures.unique("shelf")), "room",
					AttributeValue.fromS("Room " + (i % 4))));
		}
		this.fixtures.put(shelves, shelfItems);

		Map<String, Object> expected = new LinkedHashMap<>();
		expected.put("author", author);
		expected.put("bookIds", Direct.query(this.dynamoDb, (query) -> query.tableName(books)
			.keyConditionExpression("author = :a")
			.expressionAttributeValues(Map.of(":a", AttributeValue.fromS(author)))
			.consistentRead(true)).stream().map((item) -> id("Book", item)).toList());
		expected.put("shelfIds", Direct.scan(this.dynamoDb, (scan) -> scan.tableName(shelves).consistentRead(true))
			.stream()
			.map((item) -> id("Shelf", item))
			.toList());
		Map<String, Object> dynamoDb = new LinkedHashMap<>();
		dynamoDb.put("endpoint", dynamoDbEndpoint().toString());
		dynamoDb.put("region", "us-east-1");
		dynamoDb.put("booksTable", books);
		expected.put("dynamodb", dynamoDb);
		Files.createDirectories(OUT);
		Path fixtures = OUT.resolve("pages-fixtures.json").toAbsolutePath();
		Files.writeString(fixtures, JsonMapper.builder().build().writeValueAsString(expected));

		int exit = WebClientsIT.npm(List.of("run", "test:pages"),
				Map.of("BASE_URL", "http://127.0.0.1:" + this.port, "FIXTURES", fixtures.toString(), "SCREENSHOT_DIR",
						OUT.resolve("screenshots").toAbsolutePath().toString(), "CHROMIUM", chromium),
				OUT.resolve("pages.log"));
		assertThat(exit).as("the pages' browser test; see target/web-tests/pages.log").isZero();
		assertThat(OUT.resolve("screenshots").resolve("connections-live.png")).exists();
		assertThat(OUT.resolve("screenshots").resolve("graphiql-own-schema.png")).exists();
	}

	/** The description and / take GET and HEAD (OPTIONS says so); any other method is 405 INVALID_ARGUMENT. */
	private void assertRoutes() throws Exception {
		HttpClient http = HttpClient.newHttpClient();
		for (String path : List.of("/", "/pages/connections.json")) {
			URI uri = URI.create("http://127.0.0.1:" + this.port + path);
			HttpResponse<String> get = http.send(HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofString());
			assertThat(get.statusCode()).as(path).isEqualTo(200);
			HttpResponse<String> head = http.send(HttpRequest.newBuilder(uri).method("HEAD", HttpRequest.BodyPublishers.noBody())
				.build(), HttpResponse.BodyHandlers.ofString());
			assertThat(head.statusCode()).as(path).isEqualTo(200);
			HttpResponse<String> options = http.send(HttpRequest.newBuilder(uri)
				.method("OPTIONS", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
			assertThat(options.statusCode()).as(path).isEqualTo(200);
			assertThat(options.headers().firstValue("allow")).as(path).hasValue("GET,HEAD");
			for (String method : List.of("POST", "PUT", "DELETE", "PATCH")) {
				HttpResponse<String> refused = http.send(HttpRequest.newBuilder(uri)
					.method(method, HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
				assertThat(refused.statusCode()).as(method + " " + path).isEqualTo(405);
				assertThat(refused.headers().firstValue("allow")).as(method + " " + path).hasValue("GET,HEAD");
				assertThat(refused.body()).as(method + " " + path).contains("\"code\":\"INVALID_ARGUMENT\"",
						method + " is not served; `" + path + "` takes GET, HEAD.");
			}
		}
		String description = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port
				+ "/pages/connections.json")).GET().build(), HttpResponse.BodyHandlers.ofString()).body();
		assertThat(description).contains("\"sample\":false", "\"field\":\"booksByAuthor\"",
				"\"live\":{\"field\":\"bookChanges\"");
	}

	private static Map<String, AttributeValue> book(String author, long published, String title) {
		return Map.of("author", AttributeValue.fromS(author), "published", AttributeValue.fromN(Long.toString(published)),
				"title", AttributeValue.fromS(title), "pages", AttributeValue.fromN(Integer.toString(100 + title.length())));
	}

	private String id(String type, Map<String, AttributeValue> item) {
		return NodeIds.encode(this.declarations.entity(type), item);
	}

}
