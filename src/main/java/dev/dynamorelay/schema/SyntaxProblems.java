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
import graphql.org.antlr.v4.runtime.NoViableAltException;
import graphql.org.antlr.v4.runtime.Parser;
import graphql.org.antlr.v4.runtime.RecognitionException;
import graphql.org.antlr.v4.runtime.Recognizer;
import graphql.org.antlr.v4.runtime.Token;
import graphql.org.antlr.v4.runtime.misc.IntervalSet;
import graphql.parser.InvalidSyntaxException;
import graphql.parser.antlr.GraphqlLexer;
import graphql.parser.antlr.GraphqlParser;

import dev.dynamorelay.schema.Problem.SyntaxError;
import dev.dynamorelay.schema.Problem;

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
		String name = (at != null && at.getSourceName() != null) ? at.getSourceName() : file;
		if (holdsNoToken(text)) {
			return new SyntaxError(new Location(name, 1, 1), "syntax error: the file holds no definition (`type`, `input`, "
					+ "`enum`, ...): remove it from dynamo-relay.schema.locations, or declare something in it.");
		}
		Optional<FirstError> first = firstError(text);
		if (first.isEmpty()) {
			// The grammar's document ended (graphql-java's "extra tokens"): what follows begins no definition.
			Location location = (at != null) ? new Location(name, at.getLine(), Math.max(at.getColumn(), 0))
					: new Location(name, 0);
			return new SyntaxError(location, "syntax error: expected a definition (`type`, `input`, `enum`, `interface`, "
					+ "`union`, `scalar`, `extend`, `directive` or `schema`), found " + found(syntax.getOffendingToken()) + ".");
		}
		// ANTLR's first error is where the text stops being GraphQL; graphql-java's may be the start of the
		// definition it was choosing between (e.g. the `[` of a list that has no `]`).
		FirstError error = first.get();
		Location location = new Location(name, error.line(), error.column());
		if (error.character() != null) {
			return new SyntaxError(location, error.character().equals("\"")
					? "syntax error: a string that does not end: close it with `\"` on the same line (or use `\"\"\"` for "
							+ "a block string)."
					: "syntax error: `" + error.character() + "` is no character of GraphQL here.");
		}
		List<String> expected = expected(error.expected());
		String found = found(error.found());
		return new SyntaxError(location, (expected.isEmpty() || expected.size() > MOST_EXPECTED)
				? "syntax error: unexpected " + found + "."
				: "syntax error: expected " + words(expected) + ", found " + found + ".");
	}

	/**
	 * Where ANTLR's lexer or parser of graphql-java's grammar first fails on a text.
	 *
	 * @param line the line, from 1
	 * @param column the column, from 1
	 * @param found the token found there ({@code <EOF>} at the end), for a parser error
	 * @param expected the tokens the grammar allowed there, for a parser error
	 * @param character the character that begins no token, for a lexer error
	 */
	private record FirstError(int line, int column, String found, IntervalSet expected, String character) {
	}

	/**
	 * The first error of {@code text} parsed again with graphql-java's grammar, reporting instead of bailing
	 * (graphql-java's exception does not always keep ANTLR's, which knows what was expected); empty when the
	 * document parses (its end came before the end of the text).
	 */
	private static Optional<FirstError> firstError(String text) {
		List<String> lines = text.lines().toList();
		List<FirstError> errors = new ArrayList<>();
		GraphqlLexer lexer = new GraphqlLexer(CharStreams.fromString(text));
		lexer.removeErrorListeners();
		lexer.addErrorListener(new BaseErrorListener() {

			@Override
			public void syntaxError(Recognizer<?, ?> recognizer, Object offending, int line, int position, String message,
					RecognitionException cause) {
				String character = (line - 1 < lines.size() && position < lines.get(line - 1).length())
						? lines.get(line - 1).substring(position, position + 1) : "?";
				errors.add(new FirstError(line, position + 1, null, null, character));
			}

		});
		GraphqlParser parser = new GraphqlParser(new CommonTokenStream(lexer));
		parser.removeErrorListeners();
		parser.addErrorListener(new BaseErrorListener() {

			@Override
			public void syntaxError(Recognizer<?, ?> recognizer, Object offending, int line, int position, String message,
					RecognitionException cause) {
				IntervalSet expected = (cause != null && cause.getExpectedTokens() != null) ? cause.getExpectedTokens()
						: ((Parser) recognizer).getExpectedTokens();
				if (cause instanceof NoViableAltException choice && choice.getStartToken() != choice.getOffendingToken()) {
					// What the choice begun earlier allowed at its start, not what could follow where it failed.
					expected = null;
				}
				String found = (offending instanceof Token token && token.getType() != Token.EOF) ? token.getText() : null;
				errors.add(new FirstError(line, position + 1, found, expected, null));
			}

		});
		parser.document();
		return errors.stream()
			.min(java.util.Comparator.comparingInt(FirstError::line).thenComparingInt(FirstError::column));
	}

	/** Whether {@code text} is only white space and comments. */
	private static boolean holdsNoToken(String text) {
		GraphqlLexer lexer = new GraphqlLexer(CharStreams.fromString(text));
		lexer.removeErrorListeners();
		return lexer.getAllTokens().stream().noneMatch((token) -> token.getChannel() == Token.DEFAULT_CHANNEL);
	}

	private static String found(String token) {
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
