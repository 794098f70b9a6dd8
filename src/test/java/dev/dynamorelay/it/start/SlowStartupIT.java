package dev.dynamorelay.it.start;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.graphql.GraphQlResponse;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.Select;

import dev.dynamorelay.DynamoRelayApplication;
import dev.dynamorelay.it.FreezableProxy;
import dev.dynamorelay.it.ProxiedDynamoDb;
import dev.dynamorelay.it.ProxiedIntegrationTest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * A start against a DynamoDB that stops answering while the sample data loads, for longer than the
 * request timeout (2 s here) and than a start-up call may take (3 s here): the start waits, makes the
 * calls again, and serves the whole sample once DynamoDB answers again. A DynamoDB that never answers
 * fails the start within its bound, with a message that names the endpoint and the property to change.
 */
class SlowStartupIT extends ProxiedIntegrationTest {

	private static final ProxiedDynamoDb DYNAMODB = proxiedDynamoDb(SlowStartupIT.class);

	/** How long DynamoDB stays frozen once the sample data has begun to arrive. */
	private static final Duration FROZEN = Duration.ofSeconds(8);

	/** The items the sample had in DynamoDB when the proxy froze; -1 until then. */
	private static final AtomicLong ITEMS_WHEN_FROZEN = new AtomicLong(-1);

	static {
		Thread freezer = new Thread(SlowStartupIT::freezeOnceLoadingBegins, "freeze-during-sample-load");
		freezer.setDaemon(true);
		freezer.start();
	}

	@TempDir
	Path dir;

	@DynamicPropertySource
	static void dynamoDbBehindTheProxy(DynamicPropertyRegistry registry) {
		DYNAMODB.serveSample(registry, "slow-startup-secret");
		registry.add("dynamo-relay.dynamodb.timeout", () -> "2s");
		registry.add("dynamo-relay.dynamodb.startup.call-timeout", () -> "3s");
	}

	/** Watches DynamoDB itself; as soon as the first sample item is there, freezes the proxy for a while. */
	private static void freezeOnceLoadingBegins() {
		try (DynamoDbClient direct = dynamoDbClient(DYNAMODB.endpoint())) {
			long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
			while (System.nanoTime() < deadline) {
				long items = sampleItems(direct);
				if (items > 0) {
					DYNAMODB.proxy().mode(FreezableProxy.Mode.FROZEN);
					ITEMS_WHEN_FROZEN.set(sampleItems(direct));
					Thread.sleep(FROZEN.toMillis());
					DYNAMODB.proxy().mode(FreezableProxy.Mode.FORWARD);
					return;
				}
				Thread.sleep(5);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/** The items in the sample's tables, 0 while they do not exist. */
	private static long sampleItems(DynamoDbClient direct) {
		long items = 0;
		for (String table : List.of("Users", "UserPurchases", "Movies")) {
			try {
				items += direct.scanPaginator((scan) -> scan.tableName(table).select(Select.COUNT))
					.stream()
					.mapToLong((page) -> page.count())
					.sum();
			}
			catch (DynamoDbException ex) {
				// not created yet
			}
		}
		return items;
	}

	@Test
	void startsAndServesTheWholeSampleAfterDynamoDbWasFrozenWhileItLoaded() {
		assertThat(ITEMS_WHEN_FROZEN.get()).as("the proxy froze while the sample loaded").isBetween(1L, 6_049L);
		assertThat(sampleItems(this.dynamoDb)).isEqualTo(50 + 5_000 + 1_000);
		GraphQlResponse users = served("{ users(first: 100) { edges { node { userId } } } }", Map.of());
		assertThat(users.getErrors()).isEmpty();
		assertThat(users.field("users.edges").<List<?>>getValue()).hasSize(50);
		int purchases = 0;
		for (String category : List.of("books", "games", "garden", "grocery", "health", "kitchen", "music", "outdoor",
				"tools", "toys")) {
			GraphQlResponse page = served("query($c: String!) { purchasesByCategory(category: $c, first: 0) { totalCount } }",
					Map.of("c", category));
			assertThat(page.getErrors()).isEmpty();
			purchases += (Integer) page.field("purchasesByCategory.totalCount").getValue();
		}
		assertThat(purchases).isEqualTo(5_000);
		GraphQlResponse movies = served("{ movies(year: 2014, first: 100) { edges { node { title } } } }", Map.of());
		assertThat(movies.field("movies.edges").<List<?>>getValue()).hasSize(50);
	}

	/**
	 * The response of a document, made again (a few times) while it is UNAVAILABLE: the request timeout is
	 * short here, and this machine may be busy with other builds; the start is what this test is about.
	 */
	private GraphQlResponse served(String document, Map<String, Object> variables) {
		GraphQlResponse response = execute(document, variables);
		for (int attempt = 1; attempt < 5 && response.getErrors().stream()
			.anyMatch((error) -> "UNAVAILABLE".equals(error.getExtensions().get("code"))); attempt++) {
			response = execute(document, variables);
		}
		return response;
	}

	@Test
	void aDynamoDbThatNeverAnswersFailsTheStartWithinItsBoundSayingWhatToChange() throws Exception {
		try (ProxiedDynamoDb frozen = ProxiedDynamoDb.start()) {
			frozen.proxy().mode(FreezableProxy.Mode.FROZEN);
			long started = System.nanoTime();
			String java = ProcessHandle.current().info().command()
				.orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
			List<String> command = new ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path"),
					DynamoRelayApplication.class.getName(), "--server.port=0",
					"--dynamo-relay.dynamodb.endpoint=" + frozen.proxyEndpoint(),
					"--dynamo-relay.dynamodb.startup.timeout=4s", "--dynamo-relay.dynamodb.startup.call-timeout=1s",
					"--dynamo-relay.cursor.secret=never", "--dynamo-relay.sample-data.enabled=true"));
			File output = this.dir.resolve("output.txt").toFile();
			Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output).start();
			if (!process.waitFor(120, TimeUnit.SECONDS)) {
				process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
				fail("the server did not end: %s", Files.readString(output.toPath(), StandardCharsets.UTF_8));
			}
			String log = Files.readString(output.toPath(), StandardCharsets.UTF_8);
			assertThat(process.exitValue()).as(log).isNotZero();
			assertThat(log).as(log)
				.contains("DynamoDB at " + frozen.proxyEndpoint() + " did not answer ListTables", "is not answering the start's calls",
						"dynamo-relay.dynamodb.startup.timeout", "dynamo-relay.dynamodb.endpoint", "APPLICATION FAILED TO START");
			assertThat(log.lines().filter((line) -> line.startsWith("\tat ") || line.startsWith("Caused by: ")))
				.as(log)
				.isEmpty();
			// The JVM's own start and stop come on top of the 4 s bound.
			assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(90));
		}
	}

}
