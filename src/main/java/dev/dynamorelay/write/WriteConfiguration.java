package dev.dynamorelay.write;

import java.time.Clock;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;

import dev.dynamorelay.dynamodb.DynamoDbProperties;
import dev.dynamorelay.dynamodb.tables.DeclaredTables;

/**
 * Wires the write engine from configuration: the served declarations' mutations, run on the server's DynamoDB
 * client within {@code dynamo-relay.dynamodb.timeout}, so that a transport takes the engine whole and none of its
 * settings.
 */
@Configuration(proxyBeanMethods = false)
class WriteConfiguration {

	@Bean
	Mutations mutations(DeclaredTables tables, DynamoDbAsyncClient dynamoDb, DynamoDbProperties dynamoDbProperties,
			ObjectProvider<WriteMeters.Source> meters) {
		return new Mutations(dynamoDb, tables.declarations(), dynamoDbProperties.timeout(), Clock.systemUTC(),
				meters.getIfAvailable(() -> WriteMeters.Source.NONE));
	}

	/** Counts the attempts of the write engine's calls, which the server's DynamoDB client takes as a bean. */
	@Bean
	static ExecutionInterceptor writeAttempts() {
		return new WriteAttempts();
	}

}
