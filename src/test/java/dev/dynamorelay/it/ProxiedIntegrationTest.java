package dev.dynamorelay.it;

import java.net.URI;

import org.junit.jupiter.api.AfterEach;
import org.springframework.test.annotation.DirtiesContext;

/**
 * An integration test whose server talks to its own DynamoDB engine through a {@link FreezableProxy}
 * ({@link ProxiedDynamoDb}); the test's direct reads go to DynamoDB itself, and the proxy forwards again
 * after each test. The subclass starts its {@link ProxiedDynamoDb} in a static field, points
 * {@code dynamo-relay.dynamodb.endpoint} at its proxy and closes it after all its tests.
 *
 * <p>Its server is closed after the class too, not kept in Spring's context cache: its DynamoDB is gone, and a
 * cached server would go on reading that DynamoDB's streams (and failing) while the other classes run.
 */
@DirtiesContext
public abstract class ProxiedIntegrationTest extends IntegrationTest {

	/** The subclass's DynamoDB engine and proxy. */
	protected abstract ProxiedDynamoDb proxied();

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
