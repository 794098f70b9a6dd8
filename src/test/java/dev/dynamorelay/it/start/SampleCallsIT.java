package dev.dynamorelay.it.start;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;

import dev.dynamorelay.command.iam.IamPolicy;
import dev.dynamorelay.it.Fixtures;
import dev.dynamorelay.it.IntegrationTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The server's DynamoDB calls, recorded as its client makes them, against what {@code generate-iam-policy}
 * grants: the sample's declared mutations make exactly the write calls the policy grants them (a transaction as the
 * calls of its parts, which is how IAM checks it), and every call since the server started, the sample data's
 * loading, the start-up checks and the stream reader's included, is one the policy for the same properties
 * allows.
 */
@Import(SampleCallsIT.Recording.class)
class SampleCallsIT extends IntegrationTest {

	private static final String CREATE = """
			mutation($input: CreatePurchaseInput!) { createPurchase(input: $input) { id } }""";

	private static final String DELETE = "mutation($id: ID!) { deletePurchase(id: $id) }";

	private static final String UPDATE = """
			mutation($input: UpdatePurchaseInput!) { updatePurchase(input: $input) { version } }""";

	private static final String ADD = """
			mutation($input: AddPurchaseInput!) { addPurchase(input: $input) { purchase { id } } }""";

	private static final String REMOVE = """
			mutation($input: RemovePurchaseInput!) { removePurchase(input: $input) { deletedId } }""";

	private static final String ACCOUNT = "123456789012";

	/**
	 * Every call of the server's DynamoDB client since it started, as "Operation resource": the table, an
	 * index as {@code table/index/name}, {@code *} for a call on no table.
	 */
	private static final List<String> CALLS = java.util.Collections.synchronizedList(new ArrayList<>());

	@Test
	void theMutationsMakeExactlyTheCallsThePolicyGrantsThem() {
		String userId = this.fixtures.buyer("grants");
		int before = CALLS.size();
		GraphQlResponse created = execute(CREATE, Map.of("input", Map.of("userId", userId, "product", "Widget",
				"category", "books", "amount", 2.5)));
		assertThat(created.getErrors()).isEmpty();
		String id = created.field("createPurchase.id").getValue();
		assertThat(execute(UPDATE, Map.of("input", Map.of("id", id, "amount", 3.5, "expectedVersion", 1))).getErrors())
			.isEmpty();
		GraphQlResponse deleted = execute(DELETE, Map.of("id", id));
		assertThat(deleted.getErrors()).isEmpty();
		GraphQlResponse added = execute(ADD, Map.of("input", Map.of("userId", userId, "product", "Gadget", "category",
				"books", "amount", 4.5, "idempotencyKey", Fixtures.unique("key"))));
		assertThat(added.getErrors()).isEmpty();
		assertThat(execute(REMOVE, Map.of("input", Map.of("id", added.field("addPurchase.purchase.id").getValue())))
			.getErrors()).isEmpty();
		Set<String> made = new LinkedHashSet<>(calls(before));

		Set<String> granted = new LinkedHashSet<>();
		IamPolicy.writes(this.declarations)
			.forEach((action, tables) -> tables.forEach((table) -> granted.add(action + " " + table)));
		assertThat(made).as("the calls of the sample's five mutations").containsExactlyInAnyOrderElementsOf(granted);
	}

	@Test
	void everyCallSinceTheServerStartedIsOneThePolicyAllows() {
		// As this server runs: the sample's code and data, tables created at start.
		IamPolicy policy = IamPolicy.of(this.declarations, ACCOUNT, "us-east-1", EnumSet.allOf(IamPolicy.Activity.class));
		Set<String> allowed = new LinkedHashSet<>();
		for (IamPolicy.Statement statement : policy.statements()) {
			for (String action : statement.actions()) {
				for (String resource : statement.resources()) {
					allowed.add(action.substring("dynamodb:".length()) + " "
							+ resource.replace("arn:aws:dynamodb:us-east-1:" + ACCOUNT + ":table/", ""));
				}
			}
		}
		List<String> made = calls(0);
		assertThat(made).as("the sample data's loading at start").anyMatch((call) -> call.startsWith("BatchWriteItem "));
		assertThat(allowed).containsAll(new LinkedHashSet<>(made));
	}

	private static List<String> calls(int from) {
		synchronized (CALLS) {
			return List.copyOf(CALLS.subList(from, CALLS.size()));
		}
	}

	private static String part(TransactWriteItem item) {
		if (item.put() != null) {
			return "PutItem " + item.put().tableName();
		}
		if (item.update() != null) {
			return "UpdateItem " + item.update().tableName();
		}
		if (item.delete() != null) {
			return "DeleteItem " + item.delete().tableName();
		}
		return "ConditionCheckItem " + item.conditionCheck().tableName();
	}

	/** Adds the recorder to the server's DynamoDB client, which takes every {@code ExecutionInterceptor} bean. */
	static class Recording {

		@Bean
		ExecutionInterceptor callRecorder() {
			return new ExecutionInterceptor() {

				@Override
				public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
					String operation = attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME);
					if (context.request() instanceof TransactWriteItemsRequest transaction) {
						// IAM checks a transaction's parts: PutItem, UpdateItem, DeleteItem, ConditionCheckItem.
						for (TransactWriteItem item : transaction.transactItems()) {
							CALLS.add(part(item));
						}
						return;
					}
					for (String table : tables(context.request())) {
						CALLS.add(operation + " " + table);
					}
				}

			};
		}

		/**
		 * What a call is on: its {@code TableName} (with {@code /index/} and its {@code IndexName}), or the
		 * keys of a batch's {@code RequestItems}, or {@code *}.
		 */
		private static List<String> tables(SdkRequest request) {
			if (request instanceof TransactWriteItemsRequest transaction) {
				return List.of();
			}
			Optional<String> index = request.getValueForField("IndexName", String.class);
			return request.getValueForField("TableName", String.class)
				.map((table) -> List.of(table + index.map((name) -> "/index/" + name).orElse("")))
				.or(() -> request.getValueForField("RequestItems", Map.class)
					.map((items) -> ((Map<?, ?>) items).keySet().stream().map(String::valueOf).toList()))
				.orElse(List.of("*"));
		}

	}

}
