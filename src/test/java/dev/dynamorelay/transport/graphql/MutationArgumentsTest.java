package dev.dynamorelay.transport.graphql;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

import dev.dynamorelay.declaration.DeclarationReader;
import dev.dynamorelay.declaration.Declarations;
import dev.dynamorelay.declaration.DeclaredMutation;
import dev.dynamorelay.schema.SchemaFiles;
import dev.dynamorelay.write.InputObject;
import dev.dynamorelay.write.MutationInput;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How a mutation field's arguments, as graphql-java coerced them, become the write engine's typed input: the input
 * object (each item of a list input, or the arguments themselves) named by its place, its {@code @children} lists
 * input objects of their own, a field given null told apart from one left out.
 */
class MutationArgumentsTest {

	static final Declarations STORE = DeclarationReader.read(SchemaFiles
		.resolve("classpath:store/", new PathMatchingResourcePatternResolver())
		.parse(), "");

	@Test
	void anInputObjectsChildrenAreInputObjectsNamedByTheirPlace() {
		Map<String, Object> order = new HashMap<>(Map.of("orderId", "o1", "total", 5, "lines",
				List.of(Map.of("line", "1", "sku", "A", "quantity", 1), Map.of("line", "2", "sku", "B", "quantity", 2))));
		order.put("note", null);
		MutationInput input = MutationArguments.input(mutation("createOrder"), Map.of("input", order));
		assertThat(input.objects()).hasSize(1);
		InputObject object = input.objects().get(0);
		assertThat(object.where()).isEqualTo("input");
		assertThat(object.values()).containsOnlyKeys("orderId", "total", "note").containsEntry("note", null);
		assertThat(object.children().get("lines")).extracting(InputObject::where)
			.containsExactly("input.lines[0]", "input.lines[1]");
		assertThat(object.children().get("lines").get(1).values()).isEqualTo(Map.of("line", "2", "sku", "B", "quantity",
				2));
		assertThat(input.idempotencyKey()).isEmpty();
	}

	@Test
	void aListInputIsAnInputObjectPerItem() {
		MutationInput input = MutationArguments.input(mutation("createOrders"), Map.of("input", List.of(
				Map.of("orderId", "o1", "total", 1), Map.of("orderId", "o2", "total", 2))));
		assertThat(input.objects()).extracting(InputObject::where).containsExactly("input[0]", "input[1]");
		assertThat(input.objects()).allSatisfy((object) -> assertThat(object.children()).isEmpty());
	}

	@Test
	void theArgumentsOfAFieldWithoutAnInputAreItsInputObject() {
		MutationInput input = MutationArguments.input(mutation("deleteOrder"), Map.of("id", "T3JkZXI", "expectedVersion",
				3));
		assertThat(input.objects()).singleElement()
			.satisfies((object) -> assertThat(object.where()).isEmpty())
			.satisfies((object) -> assertThat(object.values()).isEqualTo(Map.of("id", "T3JkZXI", "expectedVersion", 3)));
	}

	private static DeclaredMutation mutation(String field) {
		return STORE.mutations()
			.stream()
			.filter((each) -> each.name().equals("Mutation." + field))
			.findFirst()
			.orElseThrow();
	}

}
