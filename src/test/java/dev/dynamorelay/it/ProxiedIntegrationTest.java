package dev.dynamorelay.it;

import java.io.IOException;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.TestInfo;
import org.springframework.test.annotation.DirtiesContext;

/**
 * An integration test whose server talks to its own DynamoDB engine through a {@link FreezableProxy}
 * ({@link ProxiedDynamoDb}); the test's direct reads go to DynamoDB itself, and the proxy forwards again
 * after each test. The subclass takes its {@link ProxiedDynamoDb} in a static field
 * ({@link #proxiedDynamoDb}) and points {@code dynamo-relay.dynamodb.endpoint} at its proxy; it is closed after
 * all the class's tests.
 *
 * <p>Its server is closed after the class too, not kept in Spring's context cache: its DynamoDB is gone, and a
 * cached server would go on reading that DynamoDB's streams (and failing) while the other classes run.
 */
@DirtiesContext
public abstract class ProxiedIntegrationTest extends IntegrationTest {

	/** Each test class's DynamoDB engine and proxy, started with the class and closed after its tests. */
	private static final Map<Class<?>, ProxiedDynamoDb> ENGINES = new ConcurrentHashMap<>();

	/** The DynamoDB engine and proxy of {@code test}, started by the first call (its static field's initializer). */
	protected static ProxiedDynamoDb proxiedDynamoDb(Class<? extends ProxiedIntegrationTest> test) {
		return ENGINES.computeIfAbsent(test, (key) -> ProxiedDynamoDb.start());
	}

	/** This class's DynamoDB engine and proxy. */
	protected ProxiedDynamoDb proxied() {
		return proxiedDynamoDb(getClass());
	}

	@AfterAll
	static void closeProxiedDynamoDb(TestInfo test) throws IOException {
		ProxiedDynamoDb engine = ENGINES.remove(test.getTestClass().orElseThrow());
		if (engine != null) {
			engine.close();
		}
	}

	@Override
	protected URI dynamoDbEndpoint() {
		return proxied().endpoint();
	}

	@AfterEach
	public void forwardAgain() {
		proxied().proxy().mode(FreezableProxy.Mode.FORWARD);
		proxied().proxy().loseAnswers(null, 0);
	}

}
