package dev.dynamorelay.dynamodb;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;

/**
 * Reports DynamoDB as UP when it describes the {@code Users} table within two seconds.
 */
public class DynamoDbHealthIndicator extends AbstractHealthIndicator {

	private static final Duration TIMEOUT = Duration.ofSeconds(2);

	private final DynamoDbAsyncClient dynamoDb;

	private final Tables tables;

	public DynamoDbHealthIndicator(DynamoDbAsyncClient dynamoDb, Tables tables) {
		super("DynamoDB health check failed");
		this.dynamoDb = dynamoDb;
		this.tables = tables;
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) throws Exception {
		var table = this.dynamoDb
			.describeTable((describe) -> describe.tableName(this.tables.users())
				.overrideConfiguration((override) -> override.apiCallTimeout(TIMEOUT)))
			.get(TIMEOUT.toMillis() + 500, TimeUnit.MILLISECONDS)
			.table();
		builder.up().withDetail("table", table.tableName()).withDetail("status", table.tableStatusAsString());
	}

}
