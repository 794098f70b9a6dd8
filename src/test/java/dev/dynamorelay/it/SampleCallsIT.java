package dev.dynamorelay.it;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.graphql.GraphQlResponse;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;

import dev.dynamorelay.sample.SampleAccess;
import dev.dynamorelay.sample.SampleAccess.Grant;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample's own Java calls, recorded as the server's DynamoDB client makes them, against what
 * {@link SampleAccess} tells {@code generate-iam-policy} they are: the mutations' calls are exactly its
 * grants (a call added to {@code PurchaseMutations} and not to the policy fails here), and loading the
 * sample data at start makes no call its grants leave out.
 */
@Import(SampleCallsIT.Recording.class)
class SampleCallsIT extends IntegrationTest {

	private static final String CREATE = """
			mutation($input: CreatePurchaseInput!) { createPurchase(input: $input) { id } }""";

	private static final String DELETE = "mutation($id: ID!) { deletePurchase(id: $id) }";

	/** Every call of the server's DynamoDB client since it started, as "Operation table". */
	private static final List<String> CALLS = java.util.Collections.synchronizedList(new ArrayList<>());

	@Test
	void theMutationsMakeExactlyTheCallsThePolicyGrantsThem() {
		String userId = this.fixtures.buyer("grants");
		int before = CALLS.size();
		GraphQlResponse created = execute(CREATE, Map.of("input", Map.of("userId", userId, "product", "Widget",
				"category", "books", "amount", 2.5)));
		assertThat(created.getErrors()).isEmpty();
		GraphQlResponse deleted = execute(DELETE, Map.of("id", created.field("createPurchase.id").getValue()));
		assertThat(deleted.getErrors()).isEmpty();
		Set<String> made = new LinkedHashSet<>(calls(before));

		assertThat(made).as("the calls of createPurchase and deletePurchase")
			.containsExactlyInAnyOrderElementsOf(granted(SampleAccess.mutations(this.declarations)));
	}

	@Test
	void loadingTheSampleDataMakesOnlyGrantedCalls() {
		Set<String> granted = granted(SampleAccess.sampleData(this.declarations));
		List<String> loading = calls(0).stream()
			.filter((call) -> call.startsWith("BatchWriteItem ") || call.startsWith("Scan "))
			.toList();
		assertThat(loading).as("the sample data's BatchWriteItem calls at start").anyMatch((call) -> call.startsWith(
				"BatchWriteItem "));
		assertThat(granted).containsAll(loading);
	}

	private static List<String> calls(int from) {
		synchronized (CALLS) {
			return List.copyOf(CALLS.subList(from, CALLS.size()));
		}
	}

	private static Set<String> granted(List<Grant> grants) {
		Set<String> granted = new LinkedHashSet<>();
		for (Grant grant : grants) {
			for (String action : grant.actions()) {
				for (String table : grant.tables()) {
					granted.add(action.substring("dynamodb:".length()) + " " + table);
				}
			}
		}
		return granted;
	}

	/** Adds the recorder to the server's DynamoDB client, which takes every {@code ExecutionInterceptor} bean. */
	static class Recording {

		@Bean
		ExecutionInterceptor callRecorder() {
			return new ExecutionInterceptor() {

				@Override
				public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
					String operation = attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME);
					for (String table : tables(context.request())) {
						CALLS.add(operation + " " + table);
					}
				}

			};
		}

		/** The tables a call names: its {@code TableName}, or the keys of a batch's {@code RequestItems}. */
		private static List<String> tables(SdkRequest request) {
			return request.getValueForField("TableName", String.class)
				.map(List::of)
				.or(() -> request.getValueForField("RequestItems", Map.class)
					.map((items) -> ((Map<?, ?>) items).keySet().stream().map(String::valueOf).toList()))
				.orElse(List.of());
		}

	}

}
