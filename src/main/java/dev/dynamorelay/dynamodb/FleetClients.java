package dev.dynamorelay.dynamodb;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * The Kinesis Client Library's clients, for live connections across instances: its DynamoDB client (the lease
 * tables) and the synchronous DynamoDB Streams client its adapter reads through.
 *
 * @param dynamoDb the lease tables' client
 * @param streams the streams' client
 */
public record FleetClients(DynamoDbAsyncClient dynamoDb, DynamoDbStreamsClient streams) implements AutoCloseable {

	@Override
	public void close() {
		this.dynamoDb.close();
		this.streams.close();
	}

}
