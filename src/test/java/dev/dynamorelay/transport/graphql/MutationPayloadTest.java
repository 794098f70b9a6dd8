package dev.dynamorelay.transport.graphql;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import graphql.ExecutionResult;
import graphql.GraphQL;
import graphql.schema.GraphQLSchema;
import graphql.schema.idl.RuntimeWiring;
import graphql.schema.idl.SchemaGenerator;
import graphql.schema.idl.SchemaParser;
import graphql.schema.idl.TypeRuntimeWiring;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.declaration.DeclaredMutation.Answer;
import dev.dynamorelay.model.Entity;
import dev.dynamorelay.model.Item;
import dev.dynamorelay.model.NodeIds;
import dev.dynamorelay.write.Written;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A payload type answers the write engine's {@link Written} as it is: its declared fields, whatever their names,
 * read the record's properties ({@code item}, {@code id}, {@code clientMutationId}), an empty one as null.
 */
class MutationPayloadTest {

	private static final Entity ORDER = MutationArgumentsTest.STORE.entities().get("Order");

	private static final Map<String, AttributeValue> KEY = Map.of("PK", AttributeValue.fromS("CUSTOMER#alice"), "SK",
			AttributeValue.fromS("ORDER#o1"));

	@Test
	void aPayloadsFieldsReadTheAnswersPropertiesByName() {
		Written deleted = new Written(Optional.of(new Item(ORDER, KEY)), Optional.of("m1"));
		String id = NodeIds.encode(ORDER, KEY);
		assertThat(payload(deleted)).isEqualTo(Map.of("removed", id, "mutationId", "m1", "written", Map.of("id", id)));
	}

	@Test
	void anEmptyPropertyIsNull() {
		Map<String, Object> answer = new HashMap<>();
		answer.put("removed", null);
		answer.put("mutationId", null);
		answer.put("written", null);
		assertThat(payload(new Written(Optional.empty(), Optional.empty()))).isEqualTo(answer);
	}

	private static Object payload(Written written) {
		GraphQLSchema schema = new SchemaGenerator().makeExecutableSchema(new SchemaParser().parse("""
				type Query { remove: RemovePayload }
				type RemovePayload { removed: ID  mutationId: String  written: Order }
				type Order { id: ID }
				"""), RuntimeWiring.newRuntimeWiring()
			.type(TypeRuntimeWiring.newTypeWiring("Query").dataFetcher("remove", (environment) -> written))
			.type(TypeRuntimeWiring.newTypeWiring("Order").dataFetcher("id", (environment) -> {
				Item item = environment.getSource();
				return NodeIds.encode(item.entity(), item.attributes());
			}))
			.type(MutationWiring.payload(new Answer.Payload("RemovePayload", Optional.of("written"), List.of(),
					Optional.of("removed"), Optional.of("mutationId"))))
			.build());
		ExecutionResult result = GraphQL.newGraphQL(schema).build().execute("{ remove { removed mutationId written { id } } }");
		assertThat(result.getErrors()).isEmpty();
		Map<String, Object> data = result.getData();
		return data.get("remove");
	}

}
