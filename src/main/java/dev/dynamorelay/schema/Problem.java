package dev.dynamorelay.schema;

import java.util.Collection;
import java.util.Optional;

/**
 * One mismatch between the declarations and what can be served, typed by what a person does to fix it (as
 * graphql-java types its schema errors and collects them into a {@code SchemaProblem}); a
 * {@link DeclarationException} reports every one found, each as {@code file:line:column: message}.
 *
 * <p>The message is the sentence the report prints: what is wrong and what to change. Code that reacts to a
 * kind of mistake (a test, the {@code check} command) tells the kinds apart by their type.
 */
public sealed interface Problem {

	/** Where the declaration is written. */
	Location location();

	/** What is wrong and what to change, as the report prints it. */
	String message();

	/** The report's line of this problem: {@code file:line:column: message}. */
	default String describe() {
		return location() + ": " + message();
	}

	/**
	 * A schema file is not GraphQL: a character or a token where the grammar expects another. Fix the syntax.
	 *
	 * @param location where the parser stopped
	 * @param message what it expected
	 */
	record SyntaxError(Location location, String message) implements Problem {

		/** The report's line: {@code file:line:column: message}. */
		@Override
		public String toString() {
			return describe();
		}

	}

	/**
	 * A configured schema location cannot be read, or holds no schema file. Fix the path or the files.
	 *
	 * @param location the location as configured
	 * @param message why nothing can be read there
	 */
	record UnreadableFiles(Location location, String message) implements Problem {

		/** The report's line: {@code file:line:column: message}. */
		@Override
		public String toString() {
			return describe();
		}

	}

	/**
	 * The files are no valid GraphQL schema by graphql-java's own checks (a type defined twice, an interface not
	 * implemented as declared): its message, as it words it. Fix the schema as the message says.
	 *
	 * @param location where graphql-java places the error ({@code (schema)} when nowhere)
	 * @param message graphql-java's message
	 */
	record InvalidSchema(Location location, String message) implements Problem {

		/** The report's line: {@code file:line:column: message}. */
		@Override
		public String toString() {
			return describe();
		}

	}

	/**
	 * A name that names nothing: a type, field, directive, argument, enum value, index or connection that is not
	 * declared; with the declared name closest to it, when one is close enough to be the one meant. Spell the
	 * name as declared, or declare it.
	 *
	 * @param location where the name is written
	 * @param name the name as written
	 * @param closest the declared name closest to it, if close enough ({@link Suggestions#closest})
	 * @param message the sentence, with its "did you mean" when there is one
	 */
	record UnknownName(Location location, String name, Optional<String> closest, String message) implements Problem {

		/** The report's line: {@code file:line:column: message}. */
		@Override
		public String toString() {
			return describe();
		}

		/**
		 * {@code sentence} (a whole sentence) followed by {@code " Did you mean `x`?"} for the name of {@code known}
		 * closest to {@code name}, if any.
		 */
		public static UnknownName of(Location location, String sentence, String name, Collection<String> known) {
			Optional<String> closest = Suggestions.closest(name, known);
			return new UnknownName(location, name, closest,
					sentence + closest.map((each) -> " Did you mean `" + each + "`?").orElse(""));
		}

		/**
		 * {@code sentence} (without its full stop) followed by {@code ": " + otherwise}, or by
		 * {@code ". Did you mean `x`? Otherwise " + otherwise} when a name of {@code known} is close to
		 * {@code name}.
		 */
		public static UnknownName orElse(Location location, String sentence, String name, Collection<String> known,
				String otherwise) {
			Optional<String> closest = Suggestions.closest(name, known);
			return new UnknownName(location, name, closest, sentence + closest
				.map((each) -> ". Did you mean `" + each + "`? Otherwise " + otherwise)
				.orElse(": " + otherwise));
		}

	}

	/**
	 * A type that is stored in no table where a stored type is needed (a connection's node, a write's type, a
	 * looked-up or child type). Give it a {@code @table}, or name a stored type.
	 *
	 * @param location where the type is named
	 * @param message which declaration names it
	 */
	record NotStored(Location location, String message) implements Problem {

		/** The report's line: {@code file:line:column: message}. */
		@Override
		public String toString() {
			return describe();
		}

	}

	/**
	 * A field, argument or input field declared with a GraphQL type that cannot hold what it serves or compares.
	 * Declare it with the type the message names.
	 *
	 * @param location the field or argument
	 * @param message its type, what it serves, and the type to declare
	 */
	record WrongType(Location location, String message) implements Problem {

		/** The report's line: {@code file:line:column: message}. */
		@Override
		public String toString() {
			return describe();
		}

	}

	/**
	 * A directive or field that lacks an argument it needs (a table's name, a connection's {@code first}, a
	 * condition's attribute, a rule's owner field). Add the argument.
	 *
	 * @param location the directive or field
	 * @param message the argument it needs
	 */
	record MissingArgument(Location location, String message) implements Problem {

		/** The report's line: {@code file:line:column: message}. */
		@Override
		public String toString() {
			return describe();
		}

	}

	/**
	 * An argument or directive argument that does nothing where it is written. Give it its use, or remove it.
	 *
	 * @param location the argument
	 * @param message why it does nothing
	 */
	record UselessArgument(Location location, String message) implements Problem {

		/** The report's line: {@code file:line:column: message}. */
		@Override
		public String toString() {
			return describe();
		}

	}

	/**
	 * A key template or key value that cannot name items: a placeholder of no field, a field that cannot be in a
	 * key, a sort key template missing or extra, a constant too long, children whose keys would not hold their
	 * parent's. Fix the {@code @table}, {@code @key} or key template.
	 *
	 * @param location the template or key argument
	 * @param message what the key lacks or has too much
	 */
	record KeyMistake(Location location, String message) implements Problem {

		/** The report's line: {@code file:line:column: message}. */
		@Override
		public String toString() {
			return describe();
		}

	}

	/**
	 * An index declaration, or a read or key of an index, that DynamoDB cannot serve as written. Fix the
	 * {@code @globalIndex}, {@code @localIndex} or {@code @indexKey}.
	 *
	 * @param location the index declaration or the argument naming it
	 * @param message what the index lacks
	 */
	record IndexMistake(Location location, String message) implements Problem {

		/** The report's line: {@code file:line:column: message}. */
		@Override
		public String toString() {
			return describe();
		}

	}

	/**
	 * Two declarations that contradict each other (two of {@code @query}, {@code @scan} and {@code @lookup}; two
	 * {@code @version} fields; one table declared with two keys). Keep one.
	 *
	 * @param location the second declaration
	 * @param message the two and which to keep
	 */
	record ConflictingDeclarations(Location location, String message) implements Problem {

		/** The report's line: {@code file:line:column: message}. */
		@Override
		public String toString() {
			return describe();
		}

	}

	/**
	 * A directive where it does not apply: on a type without {@code @table}, on a field of another root type, on an
	 * interface's field, on a child's input. Move it, or remove it.
	 *
	 * @param location the directive
	 * @param message where it belongs
	 */
	record MisplacedDirective(Location location, String message) implements Problem {

		/** The report's line: {@code file:line:column: message}. */
		@Override
		public String toString() {
			return describe();
		}

	}

	/**
	 * Declarations each valid alone that cannot be served together (a sort-key condition on a Scan, a condition on
	 * a create, BEGINS_WITH on a number, a list where one value is compared). Change one of them.
	 *
	 * @param location the declaration that cannot be served
	 * @param message what cannot be combined, and what can
	 */
	record UnsupportedCombination(Location location, String message) implements Problem {

		/** The report's line: {@code file:line:column: message}. */
		@Override
		public String toString() {
			return describe();
		}

	}

	/**
	 * A field that answers a type its declaration cannot fill: a connection's type, a mutation's answer or
	 * payload, a live connection's change type, a lookup's type. Answer the type the message names.
	 *
	 * @param location the field or payload type
	 * @param message what it answers and what it can answer
	 */
	record WrongAnswer(Location location, String message) implements Problem {

		/** The report's line: {@code file:line:column: message}. */
		@Override
		public String toString() {
			return describe();
		}

	}

	/**
	 * A constant in a directive that the attribute or field it applies to cannot hold (a condition's value, an
	 * index's {@code when} values, a generated value's field, a bound of a value that has none). Write a value
	 * that fits.
	 *
	 * @param location the value
	 * @param message what the value should be
	 */
	record InvalidValue(Location location, String message) implements Problem {

		/** The report's line: {@code file:line:column: message}. */
		@Override
		public String toString() {
			return describe();
		}

	}

	/**
	 * An {@code @auth} rule that cannot be enforced as written: a rule without the arguments it needs, an owner
	 * field that leads to no identity, an owner that no key or filter of a connection can check. Fix the rule, or
	 * the connection it guards.
	 *
	 * @param location the rule or the connection it guards
	 * @param message why the rule cannot be enforced
	 */
	record UnenforceableRule(Location location, String message) implements Problem {

		/** The report's line: {@code file:line:column: message}. */
		@Override
		public String toString() {
			return describe();
		}

	}

	/**
	 * A declared table or index that does not match the one DynamoDB has (missing, other keys, other key types,
	 * another projection, no stream for live connections). Change the declaration or the table.
	 *
	 * @param location the table or index declaration
	 * @param message what DynamoDB has
	 */
	record TableMismatch(Location location, String message) implements Problem {

		/** The report's line: {@code file:line:column: message}. */
		@Override
		public String toString() {
			return describe();
		}

	}

}
