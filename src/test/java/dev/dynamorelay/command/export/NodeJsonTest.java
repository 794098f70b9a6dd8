package dev.dynamorelay.command.export;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import graphql.schema.GraphQLSchema;
import graphql.schema.idl.TypeDefinitionRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.json.JsonFactory;

import dev.dynamorelay.declaration.DeclarationReader;
import dev.dynamorelay.declaration.Declarations;
import dev.dynamorelay.declaration.DeclaredConnection;
import dev.dynamorelay.model.Item;
import dev.dynamorelay.model.NodeIds;
import dev.dynamorelay.schema.SchemaFiles;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A node's JSON line: {@code id}, then every attribute field in schema order, serialized as GraphQL
 * serializes it (Decimal as a string, Long as a number, Bytes as base64, JSON as its value, timestamps as
 * ISO-8601), missing attributes as null, and {@code __typename} first when asked.
 */
class NodeJsonTest {

	private final TypeDefinitionRegistry registry = SchemaFiles
		.resolve("classpath:shop/", new PathMatchingResourcePatternResolver())
		.parse();

	private final Declarations declarations = DeclarationReader.read(this.registry, "");

	private final GraphQLSchema schema = ExportTarget.schema(this.registry);

	private final NodeJson json = new NodeJson(this.schema);

	@Test
	void anOrderAsAQuerySelectingEveryScalarFieldWouldAnswerIt() {
		Map<String, AttributeValue> order = new HashMap<>();
		order.put("PK", AttributeValue.fromS("CUSTOMER#c1"));
		order.put("SK", AttributeValue.fromS("ORDER#2025-01-01T00:00:00.000Z"));
		order.put("orderId", AttributeValue.fromS("o1"));
		order.put("status", AttributeValue.fromS("NEW"));
		order.put("total", AttributeValue.fromN("12.50"));
		order.put("tags", AttributeValue.fromSs(List.of("sale", "red")));
		order.put("gift", AttributeValue.fromBool(true));
		order.put("lines", AttributeValue.fromN("2"));
		Item item = new Item(this.declarations.entity("Order"), order);
		String id = NodeIds.encode(item.entity(), order);
		assertThat(write(item, false)).isEqualTo(("{\"id\":\"%s\",\"customerId\":\"c1\",\"orderedAt\":\"2025-01-01T00:00:00.000Z\","
				+ "\"orderId\":\"o1\",\"status\":\"NEW\",\"total\":12.5,\"totalExact\":\"12.50\",\"note\":null,"
				+ "\"tags\":[\"red\",\"sale\"],\"gift\":true,\"lines\":2}").formatted(id));
		assertThat(write(item, true)).startsWith("{\"__typename\":\"Order\",\"id\":\"" + id + "\",");
	}

	@Test
	void longBytesDecimalJsonAndTimestampsAsGraphQlServesThem() {
		Map<String, AttributeValue> reading = new HashMap<>();
		reading.put("sensor", AttributeValue.fromB(SdkBytes.fromByteArray(new byte[] { 1, 2, (byte) 255 })));
		reading.put("seq", AttributeValue.fromN("9007199254740993"));
		reading.put("value", AttributeValue.fromN("0.10"));
		reading.put("samples", AttributeValue.fromL(List.of(AttributeValue.fromN("1"), AttributeValue.fromN("2"))));
		reading.put("at", AttributeValue.fromN("1735689600123"));
		reading.put("raw", AttributeValue.fromM(Map.of("ok", AttributeValue.fromBool(true))));
		Item item = new Item(this.declarations.entity("Reading"), reading);
		assertThat(write(item, false)).isEqualTo(("{\"id\":\"%s\",\"sensor\":\"AQL/\",\"seq\":9007199254740993,"
				+ "\"value\":\"0.10\",\"samples\":[1,2],\"at\":\"2025-01-01T00:00:00.123Z\",\"raw\":{\"ok\":true}}")
			.formatted(NodeIds.encode(item.entity(), reading)));
	}

	@Test
	void onlyConnectionsOfUnionsAndInterfacesNameTheirType() {
		assertThat(this.json.abstractNodes(connection("Customer.activity"))).isTrue();
		assertThat(this.json.abstractNodes(connection("Query.shop"))).isTrue();
		assertThat(this.json.abstractNodes(connection("Customer.orders"))).isFalse();
	}

	private DeclaredConnection connection(String coordinates) {
		return this.declarations.connections()
			.stream()
			.filter((each) -> (each.coordinates().getTypeName() + "." + each.coordinates().getFieldName()).equals(coordinates))
			.findFirst()
			.orElseThrow();
	}

	private String write(Item item, boolean typename) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		try (JsonGenerator generator = new JsonFactory().createGenerator(ObjectWriteContext.empty(), out)) {
			this.json.write(generator, item, typename);
		}
		return out.toString(StandardCharsets.UTF_8);
	}

}
