package dev.dynamorelay;

import java.util.Arrays;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

import dev.dynamorelay.command.cli.Commands;
import dev.dynamorelay.command.dynamodb.DynamoDbCommand;
import dev.dynamorelay.transport.graphql.live.WebSocketBuffers;

/** dynamo-relay: Relay cursor connections served straight from DynamoDB. */
@SpringBootApplication
public class DynamoRelayApplication {

	public static void main(String[] args) {
		if (args.length > 0 && args[0].equals("dynamodb")) {
			// The engine on its own, parsed by its command alone: the other commands' option classes (Jackson's
			// databind among them) would more than double the start of a process meant to be up at once.
			System.exit(DynamoDbCommand.run(Arrays.copyOfRange(args, 1, args.length)));
		}
		if (DynamoRelayCommands.named(args)) {
			// A command (export, generate-schema, ...) or --help: parsed before, and without, the server's context. A
			// mistyped DYNAMO_RELAY_* variable would be bound to nothing, for a command as for the server.
			DynamoRelayCommands.environmentProblem(System.getenv()).ifPresent((problem) -> {
				System.err.println("dynamo-relay: " + problem);
				System.exit(Commands.USAGE);
			});
			System.exit(DynamoRelayCommands.run(args));
		}
		// A mistyped property (argument or DYNAMO_RELAY_* variable) would be bound to nothing, in silence: refused before
		// anything starts.
		DynamoRelayCommands.refuseServer(System.err, args).ifPresent(System::exit);
		// Before Tomcat loads: it reads its WebSocket buffers' size once, when its first WebSocket container is made.
		WebSocketBuffers.setTomcatDefault();
		try {
			SpringApplication.run(DynamoRelayApplication.class, args);
		}
		catch (SpringApplication.AbandonedRunException abandoned) {
			// Spring's own tools (AOT processing, test slices) stop the run on purpose after the context is made.
			throw abandoned;
		}
		catch (RuntimeException | Error failure) {
			// Spring Boot has already reported why: status 1, without the failure printed again, and no thread a
			// library left running keeps the JVM alive after the failed start.
			System.exit(1);
		}
	}

}
