package dev.dynamorelay;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

import dev.dynamorelay.graphql.live.WebSocketBuffers;

/** dynamo-relay: Relay cursor connections served straight from DynamoDB. */
@SpringBootApplication
public class DynamoRelayApplication {

	public static void main(String[] args) {
		if (DynamoRelayCommands.named(args)) {
			// A command (export, generate-schema, ...) or --help: parsed before, and without, the server's context.
			System.exit(DynamoRelayCommands.run(args));
		}
		// Before Tomcat loads: it reads its WebSocket buffers' size once, when its first WebSocket container is made.
		WebSocketBuffers.setTomcatDefault();
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
