package dev.dynamorelay.declaration;

import java.util.Comparator;
import java.util.Map;
import java.util.Set;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.graphql.autoconfigure.GraphQlSourceBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.support.ResourcePatternResolver;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;

import dev.dynamorelay.dynamodb.DynamoDbHealthIndicator;
import dev.dynamorelay.dynamodb.DynamoDbProperties;
import dev.dynamorelay.dynamodb.EmbeddedDynamoDb;
import dev.dynamorelay.dynamodb.StartupCalls;
import dev.dynamorelay.dynamodb.TableSetup;
import dev.dynamorelay.dynamodb.TablesProperties;

/**
 * Reads the declarations from the configured schema files, serves those files, and makes the declared
 * tables real (created where allowed, then checked against DynamoDB) before the server takes requests.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(SchemaProperties.class)
public class DeclarationConfiguration {

	private static final Logger logger = LoggerFactory.getLogger(DeclarationConfiguration.class);

	@Bean
	SchemaFiles schemaFiles(SchemaProperties properties, ResourcePatternResolver resolver) {
		return SchemaFiles.resolve(properties.locations(), resolver);
	}

	@Bean
	Declarations declarations(SchemaFiles files, TablesProperties tables) {
		Declarations declarations = DeclarationReader.read(files.parse(), tables.prefix());
		logger.info("Serving {} declared types in {} tables from {}", declarations.entities().size(),
				declarations.tables().size(), files.files().keySet());
		return declarations;
	}

	/** The configured files join the declaration language's file, which Spring GraphQL loads itself. */
	@Bean
	GraphQlSourceBuilderCustomizer declaredSchemaFiles(SchemaFiles files) {
		return (builder) -> builder
			.schemaResources(files.files().values().toArray(org.springframework.core.io.Resource[]::new))
			.configureTypeDefinitions(new GeneratedConnections());
	}

	/** The declared tables, created where missing (if allowed) and checked; other start-up work waits for it. */
	@Bean
	DeclaredTables declaredTables(DynamoDbAsyncClient dynamoDb, Declarations declarations, TablesProperties tables,
			DynamoDbProperties dynamo, ObjectProvider<EmbeddedDynamoDb> embedded, StartupCalls startup) throws Exception {
		TableSetup setup = new TableSetup(dynamoDb, declarations, startup);
		if (tables.create()) {
			setup.createMissing();
		}
		String endpoint = dynamo.url()
			.map(Object::toString)
			.orElseGet(() -> dynamo.aws() ? "AWS" : embedded.getObject().endpoint().toString());
		return new DeclaredTables(declarations, setup.check(endpoint));
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

	/**
	 * The declarations once their tables exist and match them.
	 *
	 * @param declarations the checked declarations
	 * @param partialIndexes the global indexes that hold only part of their items, as
	 * {@link TableSetup#indexKey} names them, each with the attributes it holds: reads of them are
	 * completed from the table
	 */
	public record DeclaredTables(Declarations declarations, Map<String, Set<String>> partialIndexes) {

		public DeclaredTables {
			partialIndexes = Map.copyOf(partialIndexes);
		}

		/** Whether {@code definition} reads a global index that lacks attributes of its items. */
		public boolean partial(dev.dynamorelay.pagination.ConnectionDefinition<?> definition) {
			return definition.globalIndex() && this.partialIndexes.containsKey(key(definition));
		}

		/** Whether what {@code definition} reads holds {@code attribute}, so that a filter on it can match. */
		public boolean holds(dev.dynamorelay.pagination.ConnectionDefinition<?> definition, String attribute) {
			return !partial(definition) || this.partialIndexes.get(key(definition)).contains(attribute);
		}

		private static String key(dev.dynamorelay.pagination.ConnectionDefinition<?> definition) {
			return TableSetup.indexKey(definition.table(), definition.index().orElseThrow());
		}

	}

}
