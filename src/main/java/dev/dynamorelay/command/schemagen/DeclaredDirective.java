package dev.dynamorelay.command.schemagen;

import java.util.ArrayList;
import java.util.List;

/**
 * A directive as it is written in SDL, such as {@code @table(name: "Movies", partitionKey: "year")}: its
 * arguments in the order added, string values quoted and escaped, enum values as they are.
 *
 * @param name the directive's name without {@code @}
 * @param arguments each argument written out ({@code name: "Movies"})
 */
record DeclaredDirective(String name, List<String> arguments) {

	static DeclaredDirective of(String name) {
		return new DeclaredDirective(name, List.of());
	}

	/** This directive with a string argument more; none when {@code value} is null. */
	DeclaredDirective with(String argument, String value) {
		return (value != null) ? plus(argument + ": " + SdlWriter.string(value)) : this;
	}

	/** This directive with an enum argument more. */
	DeclaredDirective withEnum(String argument, String value) {
		return plus(argument + ": " + value);
	}

	private DeclaredDirective plus(String written) {
		List<String> arguments = new ArrayList<>(this.arguments);
		arguments.add(written);
		return new DeclaredDirective(this.name, List.copyOf(arguments));
	}

	/** The directive in SDL. */
	String sdl() {
		return "@" + this.name + (this.arguments.isEmpty() ? "" : "(" + String.join(", ", this.arguments) + ")");
	}

}
