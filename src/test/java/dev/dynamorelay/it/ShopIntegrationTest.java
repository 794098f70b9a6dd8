package dev.dynamorelay.it;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.springframework.graphql.GraphQlResponse;
import org.springframework.test.context.TestPropertySource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.model.NodeIds;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Base of the shop tests: the server serving {@code src/test/resources/shop/} instead of the sample, its
 * tables ({@code Shop_Shop} with {@code GSI1} and {@code ByTotal}, {@code Shop_Readings}) created by the
 * server from the declarations on its embedded DynamoDB engine. Every shop test class shares this one
 * server; each test writes items under customer ids, statuses and sensors of its own.
 */
@TestPropertySource(properties = { "dynamo-relay.schema.locations=classpath:shop/",
		"dynamo-relay.tables.prefix=Shop_", "dynamo-relay.cursor.secret=shop-secret" })
public abstract class ShopIntegrationTest extends IntegrationTest {

	protected ShopData shop;

	@BeforeEach
	public void shopData() {
		assertThat(servesSample()).as("the shop schema, not the sample").isFalse();
		this.shop = new ShopData(this.dynamoDb, this.fixtures, this.declarations);
	}

	/** Variables from name/value pairs; values may be null (an explicit null means the same as none). */
	public static Map<String, Object> vars(Object... namesAndValues) {
		Map<String, Object> variables = new HashMap<>();
		for (int i = 0; i < namesAndValues.length; i += 2) {
			variables.put((String) namesAndValues[i], namesAndValues[i + 1]);
		}
		return variables;
	}

	public static Map<String, Object> with(Map<String, Object> variables, Object... namesAndValues) {
		Map<String, Object> all = new HashMap<>(variables);
		all.putAll(vars(namesAndValues));
		return all;
	}

	public static Map<String, Object> with(Map<String, Object> variables, Map<String, Object> more) {
		Map<String, Object> all = new HashMap<>(variables);
		all.putAll(more);
		return all;
	}

	/** The value at {@code path} of a response's data. */
	public static <T> T value(GraphQlResponse response, String path) {
		return response.field(path).getValue();
	}

	/** The node keys of a whole walk, forwards or backwards, at one page size. */
	public List<String> walk(String document, String path, Map<String, Object> arguments, int pageSize, boolean forward,
			boolean exact) {
		return ShopData.nodeKeys(forward ? this.walker.forward(document, path, arguments, pageSize, exact)
				: this.walker.backward(document, path, arguments, pageSize, exact));
	}

	/** Walks forwards and backwards at each page size; each walk returns exactly {@code expected}. */
	public void assertWalks(String document, String path, Map<String, Object> arguments, List<String> expected,
			boolean exact, int... pageSizes) {
		for (int pageSize : pageSizes) {
			assertThat(walk(document, path, arguments, pageSize, true, exact))
				.as("%s %s forwards, pages of %d", path, arguments, pageSize)
				.containsExactlyElementsOf(expected);
			assertThat(walk(document, path, arguments, pageSize, false, exact))
				.as("%s %s backwards, pages of %d", path, arguments, pageSize)
				.containsExactlyElementsOf(expected);
		}
	}

	/** The node id the server issues for a stored item of {@code type}. */
	public String id(String type, Map<String, AttributeValue> item) {
		return NodeIds.encode(this.declarations.entity(type), item);
	}

	public Walker.Page page(String document, String path, Map<String, Object> variables) {
		return this.walker.page(document, path, variables);
	}

	public static List<String> keys(Walker.Page page) {
		return ShopData.nodeKeys(page.edges().stream().map(Walker::node).toList());
	}

	public static List<String> orders(List<String> keys) {
		return keys.stream().filter((key) -> key.startsWith("Order:")).toList();
	}

}
