package dev.dynamorelay;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** dynamo-relay: Relay cursor connections served straight from DynamoDB. */
@SpringBootApplication
public class DynamoRelayApplication {

	public static void main(String[] args) {
		SpringApplication.run(DynamoRelayApplication.class, args);
	}

}
