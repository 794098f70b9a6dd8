package dev.dynamorelay.bench.startup;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A way to run a server: dynamo-relay's java command and flags and how it is launched, or the Node server
 * ({@code java} null); {@code arguments} are more of the server's own (a lever that is a setting).
 */
record ServerRuntime(String key, String name, Path java, List<String> flags, List<String> launch, List<String> arguments) {

	ServerRuntime(String name, Path java, List<String> flags, List<String> launch) {
		this("", name, java, flags, launch, List.of());
	}

	boolean node() {
		return this.java == null;
	}

	List<String> command(List<String> more, List<String> serverArguments) {
		if (node()) {
			return List.of("node", this.launch.get(0));
		}
		List<String> command = new ArrayList<>();
		command.add(this.java.toString());
		command.addAll(List.of("-Xms1g", "-Xmx1g"));
		command.addAll(this.flags);
		command.addAll(more);
		command.addAll(this.launch);
		command.addAll(serverArguments);
		command.addAll(this.arguments);
		return command;
	}

}
