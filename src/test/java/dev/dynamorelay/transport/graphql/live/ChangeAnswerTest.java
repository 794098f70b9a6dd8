package dev.dynamorelay.transport.graphql.live;

import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import graphql.ExecutionResult;
import graphql.GraphQL;
import graphql.schema.idl.RuntimeWiring;
import graphql.schema.idl.SchemaGenerator;
import graphql.schema.idl.SchemaParser;
import graphql.schema.idl.TypeRuntimeWiring;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.declaration.DeclaredSubscription;
import dev.dynamorelay.live.Change;
import dev.dynamorelay.live.StreamPosition;
import dev.dynamorelay.model.Entity;
import dev.dynamorelay.model.Item;
import dev.dynamorelay.model.KeyAttribute;
import dev.dynamorelay.model.KeyTemplate;
import dev.dynamorelay.model.Table;
import dev.dynamorelay.pagination.Edge;
import dev.dynamorelay.schema.Location;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A subscription's answer is the {@link Change} record, read by property name: its kind as the {@code ChangeKind}
 * value of its name, its edge (also under another field name), the id of what left and its event id; an empty one
 * is null.
 */
class ChangeAnswerTest {

	private static final String SCHEMA = """
			type Query { change: PurchaseChange }
			enum ChangeKind { ADDED UPDATED REMOVED }
			type PurchaseChange { kind: ChangeKind! purchase: PurchaseEdge deletedId: ID eventId: String }
			type PurchaseEdge { cursor: String! node: Purchase }
			type Purchase { product: String }
			""";

	private static final DeclaredSubscription.ChangeType TYPE = new DeclaredSubscription.ChangeType("PurchaseChange",
			Optional.of("purchase"), Optional.of("deletedId"), Optional.of("eventId"));

	private static final Table TABLE = new Table("UserPurchases", "UserPurchases", KeyAttribute.string("userId"),
			Optional.empty(), Map.of(), Optional.empty(), new Location("test", 1));

	private static final Entity PURCHASE = new Entity("Purchase", TABLE, KeyTemplate.of("userId"), Optional.empty(),
			Optional.empty(), Map.of(), true, new Location("test", 1));

	private static final StreamPosition POSITION = new StreamPosition("shard-1", BigInteger.valueOf(42));

	@Test
	void anAddedItemAnswersItsKindEdgeAndEventId() {
		Item tent = new Item(PURCHASE, Map.of("userId", AttributeValue.fromS("u1"), "product", AttributeValue.fromS("Tent")));
		Change added = new Change(Change.Kind.ADDED, Optional.of(new Edge<>("cursor-1", tent)), Optional.empty(), "key",
				POSITION);
		Map<String, Object> edge = new LinkedHashMap<>();
		edge.put("cursor", "cursor-1");
		edge.put("node", Map.of("product", "Tent"));
		Map<String, Object> expected = new LinkedHashMap<>();
		expected.put("kind", "ADDED");
		expected.put("purchase", edge);
		expected.put("deletedId", null);
		expected.put("eventId", POSITION.eventId());
		assertThat(answer(added)).isEqualTo(Map.of("change", expected));
	}

	@Test
	void aRemovedItemAnswersTheIdThatLeftAndNoEdge() {
		Change removed = new Change(Change.Kind.REMOVED, Optional.empty(), Optional.of("id-1"), "key", POSITION);
		Map<String, Object> expected = new LinkedHashMap<>();
		expected.put("kind", "REMOVED");
		expected.put("purchase", null);
		expected.put("deletedId", "id-1");
		expected.put("eventId", POSITION.eventId());
		assertThat(answer(removed)).isEqualTo(Map.of("change", expected));
	}

	private static Object answer(Change change) {
		RuntimeWiring.Builder wiring = RuntimeWiring.newRuntimeWiring()
			.type(TypeRuntimeWiring.newTypeWiring("Query").dataFetcher("change", (environment) -> change))
			.type(TypeRuntimeWiring.newTypeWiring("Purchase")
				.dataFetcher("product", (environment) -> environment.<Item>getSource().attributes().get("product").s()));
		SubscriptionWiring.changeFields(wiring, TYPE);
		GraphQL graphQl = GraphQL.newGraphQL(new SchemaGenerator().makeExecutableSchema(new SchemaParser().parse(SCHEMA),
				wiring.build())).build();
		ExecutionResult result = graphQl
			.execute("{ change { kind purchase { cursor node { product } } deletedId eventId } }");
		assertThat(result.getErrors()).isEmpty();
		return result.getData();
	}

}
