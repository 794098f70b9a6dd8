package dev.dynamorelay.pagination;

import java.security.SecureRandom;
import java.util.Base64;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;

import dev.dynamorelay.budget.FairShare;
import dev.dynamorelay.budget.RequestBudgets;
import dev.dynamorelay.dynamodb.DynamoDbProperties;
import dev.dynamorelay.error.RequiredPropertyException;
import dev.dynamorelay.pagination.ConnectionMeters;
import dev.dynamorelay.pagination.CursorCodec;
import dev.dynamorelay.pagination.PageSizes;
import dev.dynamorelay.pagination.Paginator;
import dev.dynamorelay.pagination.ReadBudgets;

/** Wires the pagination engine from configuration. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({ PaginationProperties.class, CursorProperties.class })
class PaginationConfiguration {

	private static final Logger logger = LoggerFactory.getLogger(PaginationConfiguration.class);

	@Bean
	CursorCodec cursorCodec(CursorProperties cursor, DynamoDbProperties dynamoDb) {
		String secret = cursor.secret();
		if (secret == null || secret.isBlank()) {
			if (!dynamoDb.embedded()) {
				throw new RequiredPropertyException("dynamo-relay.cursor.secret", "DynamoDB is not the embedded engine, "
						+ "and the instances serving it must share a secret for their cursors to stay valid across restarts "
						+ "and instances.");
			}
			byte[] random = new byte[32];
			new SecureRandom().nextBytes(random);
			secret = Base64.getEncoder().encodeToString(random);
			// INFO: the embedded engine holds its data in memory, so nothing outlives the process that a cursor could page.
			logger.info("dynamo-relay.cursor.secret is not set: signing cursors with a random secret, so cursors "
					+ "become invalid when this process stops. Set it to keep cursors valid across restarts.");
		}
		return new CursorCodec(secret, cursor.previousSecrets());
	}

	/** The budget each request starts with: the DynamoDB timeout, the request's items, its calls in flight. */
	@Bean
	RequestBudgets requestBudgets(ReadBudgets budgets, DynamoDbProperties dynamoDb, FairShare fairShare) {
		return new RequestBudgets(dynamoDb.readTimeout(), budgets.requestItems(), dynamoDb.maxConcurrencyPerRequest(),
				fairShare);
	}

	@Bean
	ReadBudgets readBudgets(PaginationProperties pagination, DynamoDbProperties dynamoDbProperties) {
		return new ReadBudgets(pagination.readBudget(), pagination.countBudget(), pagination.requestBudget(),
				dynamoDbProperties.timeout());
	}

	@Bean
	PageSizes pageSizes(PaginationProperties pagination) {
		return new PageSizes(pagination.page().defaultSize(), pagination.page().maxSize());
	}

	@Bean
	Paginator paginator(DynamoDbAsyncClient dynamoDb, CursorCodec cursors, PageSizes sizes, ReadBudgets budgets,
			ObjectProvider<ConnectionMeters.Source> meters) {
		return new Paginator(dynamoDb, cursors, sizes, budgets, meters.getIfAvailable(() -> ConnectionMeters.Source.NONE));
	}

}
