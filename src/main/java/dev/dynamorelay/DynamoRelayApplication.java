package dev.dynamorelay;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** dynamo-relay: Relay cursor connections served straight from DynamoDB. */
@SpringBootApplication
public class DynamoRelayApplication {

	public static void main(String[] args) {
		try {
			SpringApplication.run(DynamoRelayApplication.class, args);
		}
		catch (RuntimeException | Error failure) {
			// Spring Boot has already reported why. The embedded DynamoDB Local keeps background job
			// threads that are not daemons; without an explicit exit the JVM would outlive the failed start.
			System.exit(1);
		}
	}

}
