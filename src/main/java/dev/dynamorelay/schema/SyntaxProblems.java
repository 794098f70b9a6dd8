package dev.dynamorelay.schema;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import graphql.language.SourceLocation;
import graphql.org.antlr.v4.runtime.BaseErrorListener;
import graphql.org.antlr.v4.runtime.CharStreams;
import graphql.org.antlr.v4.runtime.CommonTokenStream;
import graphql.org.antlr.v4.runtime.Parser;
import graphql.org.antlr.v4.runtime.RecognitionException;
import graphql.org.antlr.v4.runtime.Recognizer;
import graphql.org.antlr.v4.runtime.Token;
import graphql.org.antlr.v4.runtime.misc.IntervalSet;
import graphql.parser.InvalidSyntaxException;
import graphql.parser.antlr.GraphqlLexer;
import graphql.parser.antlr.GraphqlParser;

import dev.dynamorelay.schema.DeclarationException.Problem;

/**
 * A syntax error of a schema file in words, at its line and column: what the parser expected there and what
 * it found ({@code expected `}` or a field, found `=`}), instead of graphql-java's "offending token".
 *
 * <p>graphql-java's parser is ANTLR's, shaded into its jar with its grammar's lexer and parser: what was
 * expected is asked of them, on the file parsed again only when it has an error.
 */
final class SyntaxProblems {

	/** Beyond this many, the list of what was expected helps no one: only what was found is said. */
	private static final int MOST_EXPECTED = 8;

	private static final int BRACE = literal("{");

	private static final int BRACKET = literal("[");

	private static final int DOLLAR = literal("$");

	private SyntaxProblems() {
	}

	/** The problem of {@code syntax}, thrown by graphql-java's parser for {@code text}, the file {@code file}. */
	static Problem of(InvalidSyntaxException syntax, String text, String file) {
		SourceLocation at = syntax.getLocation();
		Location location = (at != null) ? new Location((at.getSourceName() != null) ? at.getSourceName() : file,
				at.getLine(), Math.max(at.getColumn(), 0)) : new Location(file, 0);
		String found = found(syntax);
		Optional<FirstError> first = firstError(text);
		String message;
		if (first.isEmpty()) {
			// The grammar's document ended (graphql-java's "extra tokens"): what follows begins no definition.
			message = "syntax error: expected a definition (`type`, `input`, `enum`, `interface`, `union`, `scalar`, "
					+ "`extend`, `directive` or `schema`), found " + found + ".";
		}
		else {
			List<String> expected = (first.get().line() == location.line() && first.get().column() == location.column())
					? expected(first.get().expected()) : List.of();
			message = (expected.isEmpty() || expected.size() > MOST_EXPECTED) ? "syntax error: unexpected " + found + "."
					: "syntax error: expected " + words(expected) + ", found " + found + ".";
		}
		return new Problem(location, message);
	}

	/** Where ANTLR's parser of graphql-java's grammar first fails on {@code text}, and what it expected there. */
	private record FirstError(int line, int column, IntervalSet expected) {
	}

	/**
	 * The first error of {@code text} parsed again with graphql-java's grammar, reporting instead of bailing
	 * (graphql-java's exception does not always keep ANTLR's, which knows what was expected); empty when the
	 * document parses (its end came before the end of the text).
	 */
	private static Optional<FirstError> firstError(String text) {
		GraphqlLexer lexer = new GraphqlLexer(CharStreams.fromString(text));
		lexer.removeErrorListeners();
		GraphqlParser parser = new GraphqlParser(new CommonTokenStream(lexer));
		parser.removeErrorListeners();
		List<FirstError> errors = new ArrayList<>();
		parser.addErrorListener(new BaseErrorListener() {

			@Override
			public void syntaxError(Recognizer<?, ?> recognizer, Object offending, int line, int position, String message,
					RecognitionException cause) {
				if (errors.isEmpty()) {
					IntervalSet expected = (cause != null && cause.getExpectedTokens() != null) ? cause.getExpectedTokens()
							: ((Parser) recognizer).getExpectedTokens();
					errors.add(new FirstError(line, position + 1, expected));
				}
			}

		});
		parser.document();
		return errors.stream().findFirst();
	}

	private static String found(InvalidSyntaxException syntax) {
		String token = syntax.getOffendingToken();
		if (token == null || token.equals("<EOF>")) {
			return "the end of the file";
		}
		return "`" + token + "`";
	}

	/** The tokens the grammar allowed, in words: a name stands for the keywords, which are names too. */
	private static List<String> expected(IntervalSet tokens) {
		if (tokens == null) {
			return List.of();
		}
		List<Integer> types = tokens.toList();
		boolean name = types.contains(GraphqlParser.NAME);
		boolean value = types.contains(GraphqlParser.StringValue) && types.contains(GraphqlParser.IntValue)
				&& types.contains(BRACKET);
		Set<String> words = new LinkedHashSet<>();
		for (int type : types) {
			if (value && isValue(type)) {
				words.add("a value");
				continue;
			}
			boolean keyword = type >= GraphqlParser.NullValue && type <= GraphqlParser.REPEATABLE
					|| type == GraphqlParser.BooleanValue;
			if (type == GraphqlParser.NAME || (name && keyword)) {
				words.add("a name");
			}
			else if (type == Token.EOF) {
				words.add("the end of the file");
			}
			else if (type == GraphqlParser.StringValue) {
				words.add("a string");
			}
			else if (type == GraphqlParser.IntValue || type == GraphqlParser.FloatValue) {
				words.add("a number");
			}
			else if (type == GraphqlParser.BooleanValue) {
				words.add("`true` or `false`");
			}
			else if (type == DOLLAR) {
				// `$`: variables belong to operations, never to a schema.
				continue;
			}
			else {
				String literal = GraphqlParser.VOCABULARY.getLiteralName(type);
				if (literal != null) {
					words.add("`" + literal.substring(1, literal.length() - 1) + "`");
				}
			}
		}
		List<String> ordered = new ArrayList<>(words);
		// Punctuation first, then what can be written there in words.
		ordered.sort((a, b) -> Boolean.compare(!a.startsWith("`"), !b.startsWith("`")));
		return ordered;
	}

	private static boolean isValue(int type) {
		return type == GraphqlParser.StringValue || type == GraphqlParser.IntValue || type == GraphqlParser.FloatValue
				|| type == GraphqlParser.BooleanValue || type == GraphqlParser.NullValue || type == BRACKET
				|| type == BRACE || type == DOLLAR || type == GraphqlParser.NAME
				|| type >= GraphqlParser.FRAGMENT && type <= GraphqlParser.REPEATABLE;
	}

	/** The token type of punctuation {@code text} in graphql-java's grammar. */
	private static int literal(String text) {
		for (int type = 1; type <= GraphqlParser.VOCABULARY.getMaxTokenType(); type++) {
			if (("'" + text + "'").equals(GraphqlParser.VOCABULARY.getLiteralName(type))) {
				return type;
			}
		}
		throw new IllegalStateException("no token " + text + " in graphql-java's grammar");
	}

	private static String words(List<String> words) {
		if (words.size() == 1) {
			return words.get(0);
		}
		return String.join(", ", words.subList(0, words.size() - 1)) + " or " + words.get(words.size() - 1);
	}

}
