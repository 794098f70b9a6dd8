package dev.dynamorelay.it;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;

import org.springframework.test.context.DynamicPropertyRegistry;

import dev.dynamorelay.dynamodb.EmbeddedDynamoDb;

/**
 * A test class's own DynamoDB engine behind a {@link FreezableProxy}: the server is pointed at the proxy
 * ({@link #proxyEndpoint()}), the test's direct reads and writes go to DynamoDB itself ({@link #endpoint()}).
 */
public final class ProxiedDynamoDb implements AutoCloseable {

	private final EmbeddedDynamoDb dynamoDb;

	private final FreezableProxy proxy;

	private ProxiedDynamoDb(EmbeddedDynamoDb dynamoDb, FreezableProxy proxy) {
		this.dynamoDb = dynamoDb;
		this.proxy = proxy;
	}

	public static ProxiedDynamoDb start() {
		EmbeddedDynamoDb dynamoDb = EmbeddedDynamoDb.start();
		try {
			return new ProxiedDynamoDb(dynamoDb,
					new FreezableProxy(new InetSocketAddress("127.0.0.1", dynamoDb.endpoint().getPort())));
		}
		catch (IOException ex) {
			dynamoDb.close();
			throw new IllegalStateException(ex);
		}
	}

	public FreezableProxy proxy() {
		return this.proxy;
	}

	/** DynamoDB itself. */
	public URI endpoint() {
		return this.dynamoDb.endpoint();
	}

	/** The proxy, as {@code dynamo-relay.dynamodb.endpoint}. */
	public String proxyEndpoint() {
		return "http://127.0.0.1:" + this.proxy.port();
	}

	/**
	 * Points the server at the proxy, with cursor secret {@code secret}, the sample's tables created and its data
	 * loaded (an endpoint other than the embedded one gets neither by default).
	 */
	public void serveSample(DynamicPropertyRegistry registry, String secret) {
		registry.add("dynamo-relay.dynamodb.endpoint", this::proxyEndpoint);
		registry.add("dynamo-relay.tables.create", () -> "true");
		// The live connections' stream reads go around the proxy: the calls it counts are the requests' own.
		registry.add("dynamo-relay.dynamodb.streams-endpoint", this::endpoint);
		registry.add("dynamo-relay.cursor.secret", () -> secret);
		registry.add("dynamo-relay.sample-data.enabled", () -> "true");
	}

	@Override
	public void close() throws IOException {
		try {
			this.proxy.close();
		}
		finally {
			this.dynamoDb.close();
		}
	}

}
