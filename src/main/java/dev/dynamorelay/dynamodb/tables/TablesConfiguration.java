package dev.dynamorelay.dynamodb.tables;

import java.util.Comparator;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;

import dev.dynamorelay.declaration.Declarations;
import dev.dynamorelay.declaration.TablesProperties;
import dev.dynamorelay.dynamodb.DynamoDbProperties;
import dev.dynamorelay.dynamodb.EmbeddedDynamoDb;
import dev.dynamorelay.dynamodb.StartupCalls;
import dev.dynamorelay.model.Table;

/**
 * Makes the declared tables real (created where allowed, then checked against DynamoDB) before the server
 * takes requests, and reports DynamoDB's health by one of them.
 */
@Configuration(proxyBeanMethods = false)
public class TablesConfiguration {

	/**
	 * The declared tables, created where missing (if allowed: by default only on the embedded engine) and
	 * checked; other start-up work waits for it,
	 * and the {@link TablesReady} beans are told at once.
	 */
	@Bean
	DeclaredTables declaredTables(DynamoDbAsyncClient dynamoDb, Declarations declarations, TablesProperties tables,
			DynamoDbProperties dynamo, ObjectProvider<EmbeddedDynamoDb> embedded, StartupCalls startup,
			ObjectProvider<TablesReady> ready) throws Exception {
		TableSetup setup = new TableSetup(dynamoDb, declarations, startup);
		// Only the engine the server starts for itself is changed unasked: another endpoint's tables are someone's.
		if (tables.create(dynamo.embedded())) {
			setup.createMissing();
		}
		String endpoint = dynamo.url()
			.map(Object::toString)
			.orElseGet(() -> dynamo.aws() ? "AWS" : embedded.getObject().endpoint().toString());
		DeclaredTables declared = new DeclaredTables(declarations, setup.check(endpoint));
		ready.orderedStream().forEach((listener) -> listener.tablesReady(declared));
		return declared;
	}

	@Bean
	DynamoDbHealthIndicator dynamoDbHealthIndicator(DynamoDbAsyncClient dynamoDb, DeclaredTables tables) {
		String table = tables.declarations()
			.tables()
			.values()
			.stream()
			.min(Comparator.comparing(Table::physicalName))
			.map(Table::physicalName)
			.orElseThrow();
		return new DynamoDbHealthIndicator(dynamoDb, table);
	}

}
