package dev.dynamorelay.it;

import java.net.URI;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;
import org.springframework.graphql.GraphQlResponse;
import org.springframework.graphql.test.tester.HttpGraphQlTester;
import org.springframework.http.client.reactive.JdkClientHttpConnector;
import org.springframework.test.web.reactive.server.WebTestClient;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

import dev.dynamorelay.DynamoRelayApplication;
import dev.dynamorelay.declaration.Declarations;
import dev.dynamorelay.dynamodb.EmbeddedDynamoDb;

/**
 * Base of the integration tests: the whole server on a random port, over its embedded DynamoDB engine,
 * reached over HTTP with {@link HttpGraphQlTester}; the test reads and writes DynamoDB directly with
 * its own SDK client.
 */
@SpringBootTest(classes = DynamoRelayApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
public abstract class IntegrationTest {

	@LocalServerPort
	protected int port;

	@Autowired
	protected Declarations declarations;

	/** The sample's tables; null when the server serves other schema files (see {@link #servesSample()}). */
	protected Tables tables;

	protected Ids ids;

	@Autowired
	private ApplicationContext context;

	protected HttpGraphQlTester graphQl;

	protected DynamoDbClient dynamoDb;

	protected Fixtures fixtures;

	protected Walker walker;

	@BeforeEach
	public void connect() {
		WebTestClient client = WebTestClient.bindToServer(new JdkClientHttpConnector())
			.baseUrl("http://127.0.0.1:" + this.port + "/graphql")
			.responseTimeout(Duration.ofSeconds(60))
			.codecs((codecs) -> codecs.defaultCodecs().maxInMemorySize(64 * 1024 * 1024))
			.build();
		this.graphQl = HttpGraphQlTester.create(client);
		this.tables = servesSample() ? Tables.of(this.declarations) : null;
		this.ids = new Ids(this.declarations);
		this.dynamoDb = dynamoDbClient(dynamoDbEndpoint());
		this.fixtures = new Fixtures(this.dynamoDb, this.tables);
		this.walker = new Walker(this::execute);
	}

	/** Whether the server serves the sample's declarations (User, Purchase, Movie), as it does by default. */
	protected boolean servesSample() {
		return this.declarations.entities().keySet().containsAll(java.util.List.of("User", "Purchase", "Movie"));
	}

	/** Where the server's DynamoDB is; the embedded one unless a test configures another. */
	protected URI dynamoDbEndpoint() {
		return this.context.getBean(EmbeddedDynamoDb.class).endpoint();
	}

	public static DynamoDbClient dynamoDbClient(URI endpoint) {
		return DynamoDbClient.builder()
			.httpClient(UrlConnectionHttpClient.create())
			.endpointOverride(endpoint)
			.region(Region.US_EAST_1)
			.credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
			.build();
	}

	/** Runs a document over HTTP and returns the whole response, errors and extensions included. */
	protected GraphQlResponse execute(String document, Map<String, Object> variables) {
		return this.graphQl.document(document).variables(variables).execute().returnResponse();
	}

	protected GraphQlResponse execute(String document) {
		return execute(document, Map.of());
	}

}
