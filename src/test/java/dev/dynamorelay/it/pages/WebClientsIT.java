package dev.dynamorelay.it.pages;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import tools.jackson.databind.json.JsonMapper;

import dev.dynamorelay.it.Direct;
import dev.dynamorelay.it.Fixtures;
import dev.dynamorelay.it.IntegrationTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs the Node client suite (Apollo Client, urql and Relay paging, writing and subscribing against this
 * server) and the browser test (playwright-core driving Debian's Chromium through the live infinite-scroll
 * page and GraphiQL) from {@code web/}, against the running server, with fixtures written here and their
 * expected lists read directly from DynamoDB.
 */
class WebClientsIT extends IntegrationTest {

	private static final Path WEB = Path.of("web");

	private static final Path OUT = Path.of("target", "web-tests");

	private static final long T0 = 1_750_000_000_000L;

	private Path expected;

	@BeforeEach
	void writeFixtures() throws IOException {
		String userId = this.fixtures.buyer("web");
		List<Map<String, AttributeValue>> purchases = new ArrayList<>();
		for (int i = 0; i < 137; i++) {
			String amount = Integer.toString((i * 37) % 500);
			purchases.add(Fixtures.purchase(userId, T0 + i * 60_000L, "web-" + userId, amount,
					"Item %03d".formatted(i)));
		}
		String category = Fixtures.unique("webcat");
		List<Map<String, AttributeValue>> categoryItems = new ArrayList<>();
		for (int i = 0; i < 90; i++) {
			categoryItems.add(Fixtures.purchase("w-%02d-%s".formatted(i, category), T0 + (i / 30), category, "1"));
		}
		this.fixtures.putPurchases(purchases);
		this.fixtures.putPurchases(categoryItems);
		double minAmount = 400.0;
		Map<String, Object> expected = new LinkedHashMap<>();
		expected.put("userId", userId);
		expected.put("purchaseIds", ids(Direct.userPurchases(this.dynamoDb, this.tables.purchases(), userId, true)));
		expected.put("minAmount", minAmount);
		expected.put("filteredIds",
				ids(Direct.userPurchases(this.dynamoDb, this.tables.purchases(), userId, true).stream()
					.filter((item) -> Double.parseDouble(item.get("amount").n()) >= minAmount)
					.toList()));
		expected.put("category", category);
		expected.put("categoryIds", ids(Direct.byCategory(this.dynamoDb, this.tables.purchases(), category, true)));
		// The write and live tests make users of their own and write straight to the tables, as any other
		// writer would: the server's DynamoDB and the tables' names as it serves them.
		Map<String, Object> dynamoDb = new LinkedHashMap<>();
		dynamoDb.put("endpoint", dynamoDbEndpoint().toString());
		dynamoDb.put("region", "us-east-1");
		dynamoDb.put("usersTable", this.tables.users());
		dynamoDb.put("purchasesTable", this.tables.purchases());
		expected.put("dynamodb", dynamoDb);
		Files.createDirectories(OUT);
		this.expected = OUT.resolve("fixtures.json").toAbsolutePath();
		Files.writeString(this.expected, JsonMapper.builder().build().writeValueAsString(expected));
	}

	@Test
	void apolloAndUrqlWalksEqualDirectReads() throws Exception {
		int exit = npm(List.of("test"), Map.of("GRAPHQL_URL", "http://127.0.0.1:" + this.port + "/graphql", "FIXTURES",
				this.expected.toString()), OUT.resolve("clients.log"));
		assertThat(exit).as("node client tests; see target/web-tests/clients.log").isZero();
	}

	@Test
	void theInfiniteScrollPageAndGraphiqlWorkInARealBrowser() throws Exception {
		String chromium = chromium();
		if (chromium == null) {
			String message = "\n*** NO CHROMIUM FOUND (looked for $CHROMIUM, /usr/bin/chromium, /usr/bin/chromium-browser): "
					+ "the browser test is SKIPPED, NOT PASSED. Install Debian's chromium package. ***\n";
			System.err.println(message);
			Assumptions.abort(message);
		}
		int exit = npm(List.of("run", "test:browser"),
				Map.of("BASE_URL", "http://127.0.0.1:" + this.port, "FIXTURES", this.expected.toString(),
						"SCREENSHOT_DIR", OUT.resolve("screenshots").toAbsolutePath().toString(), "CHROMIUM", chromium),
				OUT.resolve("browser.log"));
		assertThat(exit).as("browser test; see target/web-tests/browser.log").isZero();
		assertThat(OUT.resolve("screenshots").resolve("infinite-scroll-end.png")).exists();
		assertThat(OUT.resolve("screenshots").resolve("graphiql.png")).exists();
		assertThat(OUT.resolve("screenshots").resolve("live-direct-write.png")).exists();
	}

	private List<String> ids(List<Map<String, AttributeValue>> items) {
		return items.stream()
			.map((item) -> this.ids.purchase(item.get("userId").s(), Long.parseLong(item.get("purchasedAt").n())))
			.toList();
	}

	/** Debian's Chromium ($CHROMIUM first), or null when there is none. */
	static String chromium() {
		String configured = System.getenv("CHROMIUM");
		for (String candidate : new String[] { configured, "/usr/bin/chromium", "/usr/bin/chromium-browser" }) {
			if (candidate != null && new File(candidate).canExecute()) {
				return candidate;
			}
		}
		return null;
	}

	/** Runs {@code npm --silent <arguments>} in web/, its output to {@code log} and the console; its exit code. */
	static int npm(List<String> arguments, Map<String, String> environment, Path log) throws Exception {
		List<String> command = new ArrayList<>(List.of("npm", "--silent"));
		command.addAll(arguments);
		ProcessBuilder builder = new ProcessBuilder(command).directory(WEB.toFile())
			.redirectErrorStream(true)
			.redirectOutput(log.toFile());
		builder.environment().putAll(environment);
		Process process = builder.start();
		boolean finished = process.waitFor(5, TimeUnit.MINUTES);
		if (!finished) {
			process.destroyForcibly();
		}
		String output = Files.readString(log, StandardCharsets.UTF_8);
		System.out.println(output);
		return finished ? process.exitValue() : -1;
	}

}
