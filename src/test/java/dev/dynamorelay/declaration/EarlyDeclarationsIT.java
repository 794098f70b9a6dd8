package dev.dynamorelay.declaration;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.WebServerFactory;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;

import dev.dynamorelay.DynamoRelayApplication;
import dev.dynamorelay.dynamodb.EmbeddedDynamoDb;
import dev.dynamorelay.schema.DeclarationException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A mistake in the schema files, one that needs no DynamoDB call to find, stops the server's start before its web
 * server, the embedded engine and DynamoDB's client are made: the start reads the declarations first, and the person
 * who wrote the mistake learns of it without waiting for Tomcat and the engine to start.
 */
class EarlyDeclarationsIT {

	private static final String USERS = """
			type User implements Node @table(name: "Users", partitionKey: "userId") {
			  id: ID!
			  userId: String!
			  name: String
			}
			""";

	@TempDir
	Path dir;

	@Test
	void aDeclarationMistakeStopsTheStartBeforeTheServerTheEngineAndTheClientAreMade() throws IOException {
		Start start = start(USERS + """
				type Query {
				  node(id: ID!): Node
				  users(first: Int, after: String, order: SortOrder): UserConnection! @scan
				}
				""");
		assertThat(start.failure()).hasMessageStartingWith("The schema's declarations cannot be served (1 problem):")
			.hasMessageContaining("`Query.users` is a Scan, which reads in DynamoDB's order only: remove `order`.");
		start.assertNothingServingWasMade();
	}

	@Test
	void anAuthMistakeStopsTheStartBeforeTheServerTheEngineAndTheClientAreMade() throws IOException {
		Start start = start(USERS + """
				extend type User @auth(rules: [{allow: OWNER, ownerField: "nickname"}])
				type Query {
				  node(id: ID!): Node
				  user(userId: String!): User @lookup
				}
				""");
		assertThat(start.failure()).hasMessageStartingWith("The schema's @auth rules cannot be served (1 problem):");
		start.assertNothingServingWasMade();
	}

	@Test
	void aSyntaxErrorStopsTheStartBeforeTheServerTheEngineAndTheClientAreMade() throws IOException {
		Start start = start(USERS + "type Query { node(id: ID!): Node users: @ }\n");
		assertThat(start.failure()).hasMessageStartingWith("The schema files are not a valid GraphQL schema (1 problem):");
		start.assertNothingServingWasMade();
	}

	/** The server's start (its application class, a random port) on {@code schema}, every bean made recorded. */
	private Start start(String schema) throws IOException {
		Path file = Files.writeString(this.dir.resolve("mistake.graphqls"), schema);
		List<Object> made = new CopyOnWriteArrayList<>();
		Throwable thrown = catchThrowable(() -> new SpringApplicationBuilder(DynamoRelayApplication.class)
			.initializers((context) -> context.getBeanFactory().addBeanPostProcessor(new BeanPostProcessor() {
				@Override
				public Object postProcessBeforeInitialization(Object bean, String name) {
					made.add(bean);
					return bean;
				}
			}))
			.run("--server.port=0", "--dynamo-relay.schema.locations=file:" + file));
		// Found in the failure's causes as Spring Boot's failure analysis finds it, wrapped or not.
		DeclarationException failure = Stream.iterate(thrown, Objects::nonNull, Throwable::getCause)
			.filter(DeclarationException.class::isInstance)
			.map(DeclarationException.class::cast)
			.findFirst()
			.orElseThrow(() -> new AssertionError("the start did not fail on the schema's mistake", thrown));
		return new Start(failure, made);
	}

	private record Start(DeclarationException failure, List<Object> made) {

		void assertNothingServingWasMade() {
			// The recorder works: the context's bean factory post-processors, made first, went through it.
			assertThat(this.made).hasAtLeastOneElementOfType(BeanFactoryPostProcessor.class);
			assertThat(this.made).as("beans made before the failure")
				.noneMatch(WebServerFactory.class::isInstance)
				.noneMatch(EmbeddedDynamoDb.class::isInstance)
				.noneMatch(DynamoDbAsyncClient.class::isInstance);
		}

	}

}
