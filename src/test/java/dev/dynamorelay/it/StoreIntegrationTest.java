package dev.dynamorelay.it;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Base of the write tests on a table the sample does not have: the server serving
 * {@code src/test/resources/store/} (customers, orders and lines in one table {@code Store_Store} with a
 * sparse {@code GSI1}), with a JWT key configured, written through its declared mutations only. Every
 * test writes under customer ids of its own.
 */
@TestPropertySource(properties = { "dynamo-relay.schema.locations=classpath:store/",
		"dynamo-relay.tables.prefix=Store_", "dynamo-relay.cursor.secret=store-secret" })
public abstract class StoreIntegrationTest extends IntegrationTest {

	public static final String TABLE = "Store_Store";

	protected Http http;

	@DynamicPropertySource
	public static void key(DynamicPropertyRegistry registry) {
		Tokens.configure(registry);
	}

	@BeforeEach
	public void store() {
		assertThat(servesSample()).as("the store schema, not the sample").isFalse();
		this.http = new Http(this.port);
	}

	/** A token of customer {@code customerId}. */
	public static String customer(String customerId) {
		return Tokens.of(customerId);
	}

	/** A token of someone in group {@code staff}. */
	public static String staff() {
		return Tokens.of("staff-" + Fixtures.unique("s"), Map.of("groups", List.of("staff")));
	}

	/** The item with this key, read straight from DynamoDB (strongly consistent); empty when there is none. */
	public Map<String, AttributeValue> stored(String pk, String sk) {
		var response = this.dynamoDb.getItem((get) -> get.tableName(TABLE)
			.key(Map.of("PK", AttributeValue.fromS(pk), "SK", AttributeValue.fromS(sk)))
			.consistentRead(true));
		return response.hasItem() ? response.item() : Map.of();
	}

	/** Creates customer {@code customerId} as itself. */
	public void createCustomer(String customerId) {
		Http.Answer created = this.http.post(customer(customerId),
				"mutation { createCustomer(input: {name: \"C\"}) { customerId } }").clean();
		assertThat(created.errors()).isEmpty();
	}

	public static Map<String, Object> vars(Object... namesAndValues) {
		Map<String, Object> variables = new HashMap<>();
		for (int i = 0; i < namesAndValues.length; i += 2) {
			variables.put((String) namesAndValues[i], namesAndValues[i + 1]);
		}
		return variables;
	}

}
