package dev.dynamorelay.it.operations;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.dynamorelay.it.Fixtures;
import dev.dynamorelay.it.Http;
import dev.dynamorelay.it.IntegrationTest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * A Prometheus scrape of {@code /actuator/prometheus} shows what requests did: per connection field the
 * pages, DynamoDB requests, items scanned and returned and capacity (equal to the requests' own
 * {@code extensions.dynamodb}), request latency by operation name, errors by code (in executions and
 * outside them), cost-limit refusals, and DynamoDB call latency by operation. The server's context is
 * shared with other test classes, so every check compares two scrapes around the requests.
 */
class MetricsIT extends IntegrationTest {

	private static final String NESTED = """
			query MetricsNested { users(first: 3) { edges { node { purchases(first: 2, minAmount: 100) {
			  edges { cursor node { amount } } } } } } }""";

	private final HttpClient client = HttpClient.newHttpClient();

	@Test
	void connectionFiguresEqualWhatTheRequestsRead() {
		Http http = new Http(this.port);
		Scrape before = scrape();
		Http.Answer answer = http.post(null, NESTED);
		assertThat(answer.status()).isEqualTo(200);
		assertThat(answer.at("errors")).isNull();
		Http.Answer again = http.post(null, NESTED);
		Scrape after = scrape();

		double requests = sum(answer, again, "requests");
		double scanned = sum(answer, again, "scannedCount");
		double returned = sum(answer, again, "count");
		double capacity = sum(answer, again, "consumedCapacity");
		assertThat(requests).isGreaterThanOrEqualTo(8);
		assertThat(capacity).isPositive();
		String[] users = { "connection", "Query.users" };
		String[] purchases = { "connection", "User.purchases" };
		assertThat(after.delta(before, "dynamorelay_connection_pages_total", "connection", "Query.users", "cut", "false"))
			.isEqualTo(2);
		assertThat(after.delta(before, "dynamorelay_connection_pages_total", "connection", "User.purchases", "cut",
				"false") + after.delta(before, "dynamorelay_connection_pages_total", "connection", "User.purchases",
						"cut", "true"))
			.isEqualTo(6);
		assertThat(after.delta(before, "dynamorelay_connection_dynamodb_requests_total", users)
				+ after.delta(before, "dynamorelay_connection_dynamodb_requests_total", purchases)).isEqualTo(requests);
		assertThat(after.delta(before, "dynamorelay_connection_items_scanned_total", users)
				+ after.delta(before, "dynamorelay_connection_items_scanned_total", purchases)).isEqualTo(scanned);
		assertThat(after.delta(before, "dynamorelay_connection_items_returned_total", users)
				+ after.delta(before, "dynamorelay_connection_items_returned_total", purchases)).isEqualTo(returned);
		assertThat(after.delta(before, "dynamorelay_connection_consumed_capacity_total", users)
				+ after.delta(before, "dynamorelay_connection_consumed_capacity_total", purchases))
			.isCloseTo(capacity, within(1e-9));

		assertThat(after.delta(before, "dynamorelay_graphql_requests_seconds_count", "operation", "MetricsNested",
				"outcome", "ok")).isEqualTo(2);
		assertThat(after.value("dynamorelay_graphql_requests_seconds_bucket", "operation", "MetricsNested", "outcome",
				"ok", "le", "10.0")).isGreaterThanOrEqualTo(2);
		// Every DynamoDB call is timed by operation: here Scans of Users and Queries of purchases.
		double calls = after.delta(before, "dynamorelay_dynamodb_calls_seconds_count", "operation", "Query", "outcome",
				"ok") + after.delta(before, "dynamorelay_dynamodb_calls_seconds_count", "operation", "Scan", "outcome", "ok");
		assertThat(calls).isEqualTo(requests);
	}

	@Test
	void scannedAndReturnedAreEachTheirOwnFigure() {
		Http http = new Http(this.port);
		Scrape before = scrape();
		// The sample's user-01: the filter drops about one purchase in five (README's first query).
		Http.Answer answer = http.post(null,
				"{ user(userId: \"user-01\") { purchases(first: 2, minAmount: 100) { edges { cursor } } } }");
		Scrape after = scrape();
		double scanned = ((Number) answer.at("extensions", "dynamodb", "scannedCount")).doubleValue();
		double returned = ((Number) answer.at("extensions", "dynamodb", "count")).doubleValue();
		assertThat(scanned).isGreaterThan(returned);
		// The user itself is a lookup (one item scanned and returned), no connection's.
		assertThat(after.delta(before, "dynamorelay_connection_items_scanned_total", "connection", "User.purchases"))
			.isEqualTo(scanned - 1);
		assertThat(after.delta(before, "dynamorelay_connection_items_returned_total", "connection", "User.purchases"))
			.isEqualTo(returned - 1);
	}

	@Test
	void errorsAreCountedByCodeInsideAndOutsideExecutions() throws Exception {
		Http http = new Http(this.port);
		Scrape before = scrape();
		Http.Answer badCursor = http.post(null, "query BadCursor { users(first: 2, after: \"not-a-cursor\") { edges { cursor } } }");
		assertThat(badCursor.at("errors", 0, "extensions", "code")).isEqualTo("INVALID_CURSOR");
		Http.Answer invalid = http.post(null, "{ noSuchField }");
		assertThat(invalid.at("errors", 0, "extensions", "code")).isEqualTo("INVALID_ARGUMENT");
		HttpResponse<String> malformed = this.client.send(HttpRequest.newBuilder(uri("/graphql"))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString("{not json"))
			.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(malformed.statusCode()).isEqualTo(400);
		HttpResponse<String> noPath = this.client.send(HttpRequest.newBuilder(uri("/api/no-such-connection")).build(),
				HttpResponse.BodyHandlers.ofString());
		assertThat(noPath.statusCode()).isEqualTo(404);
		Scrape after = scrape();

		assertThat(after.delta(before, "dynamorelay_errors_total", "code", "INVALID_CURSOR")).isEqualTo(1);
		// The unknown field (an execution's) and the unreadable body (no execution).
		assertThat(after.delta(before, "dynamorelay_errors_total", "code", "INVALID_ARGUMENT")).isEqualTo(2);
		assertThat(after.delta(before, "dynamorelay_errors_total", "code", "NOT_FOUND")).isEqualTo(1);
		assertThat(after.delta(before, "dynamorelay_graphql_requests_seconds_count", "operation", "BadCursor",
				"outcome", "error")).isEqualTo(1);
		// Refused in validation, before an operation was chosen.
		assertThat(after.delta(before, "dynamorelay_graphql_requests_seconds_count", "operation", "none", "outcome",
				"error")).isEqualTo(1);
	}

	@Test
	void writesAreCountedByMutationAndOutcomeWithTheirCapacity() {
		Http http = new Http(this.port);
		String userId = this.fixtures.buyer("metered");
		String create = "mutation($input: CreatePurchaseInput!) { createPurchase(input: $input) { id } }";
		Map<String, Object> input = Map.of("userId", userId, "purchasedAt", "2025-02-02T02:02:02.002Z", "product", "P",
				"category", "books", "amount", 1.5);
		Scrape before = scrape();
		assertThat(http.post(null, create, Map.of("input", input)).errors()).isEmpty();
		assertThat(http.post(null, create, Map.of("input", input)).codes()).containsExactly("CONFLICT");
		Scrape after = scrape();
		String mutation = "Mutation.createPurchase";
		assertThat(after.delta(before, "dynamorelay_mutation_calls_total", "mutation", mutation, "outcome", "written"))
			.isEqualTo(1);
		assertThat(after.delta(before, "dynamorelay_mutation_calls_total", "mutation", mutation, "outcome", "CONFLICT"))
			.isEqualTo(1);
		assertThat(after.delta(before, "dynamorelay_mutation_items_written_total", "mutation", mutation)).isEqualTo(1);
		assertThat(after.delta(before, "dynamorelay_mutation_consumed_capacity_total", "mutation", mutation)).isPositive();
		assertThat(after.delta(before, "dynamorelay_errors_total", "code", "CONFLICT")).isEqualTo(1);
	}

	@Test
	void aDeleteOfNothingIsNotCountedAsWritten() {
		Http http = new Http(this.port);
		String userId = this.fixtures.buyer("unmetered");
		this.fixtures.putPurchases(List.of(Fixtures.purchase(userId, 1_700_000_000_000L, "books", "1")));
		String id = this.ids.purchase(userId, 1_700_000_000_000L);
		String delete = "mutation($id: ID!) { deletePurchase(id: $id) }";
		Scrape before = scrape();
		assertThat(http.post(null, delete, Map.of("id", id)).at("data", "deletePurchase")).isEqualTo(id);
		Http.Answer nothing = http.post(null, delete, Map.of("id", id));
		assertThat(nothing.errors()).isEmpty();
		assertThat(nothing.at("data", "deletePurchase")).isNull();
		Scrape after = scrape();
		String mutation = "Mutation.deletePurchase";
		assertThat(after.delta(before, "dynamorelay_mutation_calls_total", "mutation", mutation, "outcome", "written"))
			.as("the delete that found the purchase").isEqualTo(1);
		assertThat(after.delta(before, "dynamorelay_mutation_calls_total", "mutation", mutation, "outcome", "unchanged"))
			.as("the delete of nothing").isEqualTo(1);
		assertThat(after.delta(before, "dynamorelay_mutation_items_written_total", "mutation", mutation)).isEqualTo(1);
		assertThat(after.delta(before, "dynamorelay_mutation_consumed_capacity_total", "mutation", mutation)).isPositive();
	}

	@Test
	void costLimitRefusalsAreCountedByLimitAndReadNothing() {
		Http http = new Http(this.port);
		StringBuilder aliases = new StringBuilder("query Wide {");
		for (int i = 0; i < 21; i++) {
			aliases.append(" a").append(i).append(": users(first: 1) { edges { cursor } }");
		}
		Scrape before = scrape();
		Http.Answer refused = http.post(null, aliases.append(" }").toString());
		assertThat(refused.at("errors", 0, "extensions", "code")).isEqualTo("QUERY_TOO_COMPLEX");
		Scrape after = scrape();
		assertThat(after.delta(before, "dynamorelay_cost_limit_refusals_total", "limit", "root-fields")).isEqualTo(1);
		assertThat(after.delta(before, "dynamorelay_errors_total", "code", "QUERY_TOO_COMPLEX")).isEqualTo(1);
		assertThat(after.delta(before, "dynamorelay_connection_dynamodb_requests_total", "connection", "Query.users"))
			.isZero();
		assertThat(after.delta(before, "dynamorelay_graphql_requests_seconds_count", "operation", "Wide", "outcome",
				"error")).isEqualTo(1);
	}

	@Test
	void theScrapeIsPrometheusText() throws Exception {
		HttpResponse<String> scrape = this.client.send(HttpRequest.newBuilder(uri("/actuator/prometheus")).build(),
				HttpResponse.BodyHandlers.ofString());
		assertThat(scrape.statusCode()).isEqualTo(200);
		assertThat(scrape.headers().firstValue("Content-Type")).get().asString().startsWith("text/plain");
		assertThat(scrape.body()).contains("# TYPE dynamorelay_graphql_requests_seconds histogram")
			.contains("# TYPE jvm_memory_used_bytes gauge");
	}

	private static double sum(Http.Answer first, Http.Answer second, String figure) {
		return ((Number) first.at("extensions", "dynamodb", figure)).doubleValue()
				+ ((Number) second.at("extensions", "dynamodb", figure)).doubleValue();
	}

	private URI uri(String path) {
		return URI.create("http://127.0.0.1:" + this.port + path);
	}

	private Scrape scrape() {
		try {
			HttpResponse<String> response = this.client.send(HttpRequest.newBuilder(uri("/actuator/prometheus")).build(),
					HttpResponse.BodyHandlers.ofString());
			assertThat(response.statusCode()).isEqualTo(200);
			return new Scrape(Arrays.asList(response.body().split("\n")));
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	/** The samples of one scrape, read from Prometheus's text format. */
	private record Scrape(List<String> lines) {

		/** The sample of {@code name} whose labels include {@code labels} (pairs), or 0 when there is none. */
		double value(String name, String... labels) {
			double found = 0;
			int matches = 0;
			for (String line : this.lines) {
				if (!line.startsWith(name + "{")) {
					continue;
				}
				String labelText = line.substring(name.length() + 1, line.lastIndexOf('}'));
				Map<String, String> pairs = new java.util.HashMap<>();
				for (String pair : labelText.split(",")) {
					int equals = pair.indexOf('=');
					if (equals > 0) {
						pairs.put(pair.substring(0, equals), pair.substring(equals + 2, pair.length() - 1));
					}
				}
				boolean all = true;
				for (int i = 0; i < labels.length; i += 2) {
					all &= labels[i + 1].equals(pairs.get(labels[i]));
				}
				if (all) {
					found = Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
					matches++;
				}
			}
			assertThat(matches).as("samples of %s %s", name, Arrays.toString(labels)).isLessThanOrEqualTo(1);
			return found;
		}

		double delta(Scrape before, String name, String... labels) {
			return value(name, labels) - before.value(name, labels);
		}

	}

}
