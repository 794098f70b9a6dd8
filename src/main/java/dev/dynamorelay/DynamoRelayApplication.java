package dev.dynamorelay;

import java.util.Arrays;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

import dev.dynamorelay.export.ExportCommand;
import dev.dynamorelay.iam.GenerateIamPolicyCommand;
import dev.dynamorelay.schemagen.GenerateSchemaCommand;

/** dynamo-relay: Relay cursor connections served straight from DynamoDB. */
@SpringBootApplication
public class DynamoRelayApplication {

	public static void main(String[] args) {
		if (args.length > 0 && "generate-schema".equals(args[0])) {
			System.exit(GenerateSchemaCommand.run(Arrays.copyOfRange(args, 1, args.length)));
		}
		if (args.length > 0 && "generate-iam-policy".equals(args[0])) {
			System.exit(GenerateIamPolicyCommand.run(Arrays.copyOfRange(args, 1, args.length)));
		}
		if (args.length > 0 && "export".equals(args[0])) {
			System.exit(ExportCommand.run(Arrays.copyOfRange(args, 1, args.length)));
		}
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
