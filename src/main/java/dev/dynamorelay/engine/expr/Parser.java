package dev.dynamorelay.engine.expr;

import java.util.ArrayList;
import java.util.List;

import dev.dynamorelay.engine.expr.Lexer.Kind;
import dev.dynamorelay.engine.expr.Syntax.Cond;
import dev.dynamorelay.engine.expr.Syntax.PathRef;

/**
 * The grammars of DynamoDB's expressions, parsed by recursive descent over the tokens of {@link Lexer}, as
 * DynamoDB's parser parses them (checked against it case by case):
 * <ul>
 * <li>{@code AND OR NOT BETWEEN IN SET REMOVE ADD DELETE} are keywords of every grammar, never names;</li>
 * <li>a path is a name or expression attribute name followed by {@code .name} and {@code [index]} (an index is
 * {@code 0} or digits not starting with 0); no path starts with a parenthesis;</li>
 * <li>where a condition starts with a parenthesis, the parser looks ahead to tell a condition in parentheses from a
 * comparison whose first operand is in parentheses, then commits: parentheses doubled around one operand or
 * condition are refused as they close ("The expression has redundant parentheses;"), before any syntax error
 * further on;</li>
 * <li>a failed parse reports the furthest token the parser tried, with the text from the token before it to the
 * token after it: {@code Syntax error; token: "are", near: "things are not"}.</li>
 * </ul>
 * The alternatives are tried in order, speculatively (and memoised) where they share a beginning; the one
 * committed to is the first that parses, or the one that got furthest.
 *
 * <p>This class holds the entry points, one for each kind of expression, and the projection grammar (paths
 * separated by commas); the rules are {@link ConditionGrammar}'s, {@link UpdateGrammar}'s and
 * {@link OperandGrammar}'s, over {@link ParserCore}'s machinery.
 */
final class Parser extends UpdateGrammar {

	private Parser(String text) {
		super(text);
	}

	// ---- entry points ----

	/** A condition, filter or key condition expression. */
	static Cond condition(String text) {
		Parser parser = new Parser(text);
		Cond condition = parser.orCondition();
		parser.finish(condition != null && parser.atEnd());
		return condition;
	}

	/** An update expression's clauses, in order. */
	static List<Syntax.Clause> update(String text) {
		Parser parser = new Parser(text);
		List<Syntax.Clause> clauses = new ArrayList<>();
		do {
			Syntax.Clause clause = parser.clause();
			if (clause == null) {
				parser.finish(false);
			}
			clauses.add(clause);
		}
		while (!parser.atEnd());
		parser.finish(true);
		return clauses;
	}

	/** A projection expression's paths, in order. */
	static List<PathRef> projection(String text) {
		Parser parser = new Parser(text);
		List<PathRef> paths = new ArrayList<>();
		do {
			if (!paths.isEmpty() && parser.accept(Kind.COMMA) == null) {
				throw parser.syntaxError();
			}
			PathRef path = parser.path();
			if (path == null) {
				throw parser.syntaxError();
			}
			paths.add(path);
		}
		while (!parser.atEnd());
		return paths;
	}

}
