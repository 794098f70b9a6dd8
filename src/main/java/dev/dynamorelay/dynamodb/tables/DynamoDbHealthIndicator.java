package dev.dynamorelay.dynamodb.tables;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;

/**
 * Reports DynamoDB as UP when it describes a declared table within two seconds.
 */
public class DynamoDbHealthIndicator extends AbstractHealthIndicator {

	private static final Duration TIMEOUT = Duration.ofSeconds(2);

	private final DynamoDbAsyncClient dynamoDb;

	private final String table;

	public DynamoDbHealthIndicator(DynamoDbAsyncClient dynamoDb, String table) {
		super("DynamoDB health check failed");
		this.dynamoDb = dynamoDb;
		this.table = table;
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) throws Exception {
		var table = this.dynamoDb
			.describeTable((describe) -> describe.tableName(this.table)
				.overrideConfiguration((override) -> override.apiCallTimeout(TIMEOUT)))
			.get(TIMEOUT.toMillis() + 500, TimeUnit.MILLISECONDS)
			.table();
		builder.up().withDetail("table", table.tableName()).withDetail("status", table.tableStatusAsString());
	}

}
