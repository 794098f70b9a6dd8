package dev.dynamorelay.it.rest;

import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;

import dev.dynamorelay.it.IntegrationTest;
import dev.dynamorelay.it.Rest;

import static org.assertj.core.api.Assertions.assertThat;

/** The cost limits apply to the REST view as to GraphQL: a filtered page is weighed by its read budget. */
@TestPropertySource(properties = { "dynamo-relay.limits.max-items=500", "dynamo-relay.read-budget=1000" })
class RestCostLimitsIT extends IntegrationTest {

	@Test
	void aPageOverTheLimitIsRefusedBeforeAnyRead() {
		Rest rest = new Rest(this.port);
		assertThat(rest.get("/api/purchasesByCategory?category=books&minAmount=1").assertProblem(400, "QUERY_TOO_COMPLEX"))
			.contains("1,000", "500");
		assertThat(rest.get("/api/purchasesByCategory?category=books&limit=100").status()).as("unfiltered: 101 items")
			.isEqualTo(200);
	}

}
