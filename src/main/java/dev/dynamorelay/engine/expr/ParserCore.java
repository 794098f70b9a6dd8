package dev.dynamorelay.engine.expr;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import dev.dynamorelay.engine.expr.Lexer.Kind;
import dev.dynamorelay.engine.expr.Lexer.Token;

/**
 * The machinery the expression grammars share: one parse's tokens and position, speculation with memoised
 * alternatives and the furthest token looked at, the nesting bound, and the errors DynamoDB reports (a syntax error
 * near the furthest token, redundant parentheses). The grammars extend it in one line, {@link OperandGrammar},
 * {@link ConditionGrammar}, {@link UpdateGrammar} and {@link Parser}, because their rules call each other within one
 * parse state; see {@link Parser} for what they parse.
 */
abstract class ParserCore {

	/** How deep parentheses and functions may nest before the expression is refused (the stack is the limit). */
	static final int MAX_NESTING = 200;

	private final String text;

	private final List<Token> tokens;

	/** The next token's index; the grammars move it as they take tokens, and set it back when a rule fails. */
	int pos;

	private int furthest;

	private int depth;

	/** Whether the rules run speculatively (their trees memoised, nothing reported). */
	boolean speculative;

	/** Whether the committed parse closed parentheses doubled around one operand, condition or value. */
	private boolean redundant;

	/** Whether the committed parse failed, and whether first at a choice none of whose alternatives fits. */
	private boolean failed;

	private boolean noViableAlternative;

	private final Map<Long, Memo> memo = new HashMap<>();

	private record Memo(Object node, int end, int furthest) {
	}

	private static final Object FAILED = new Object();

	ParserCore(String text) {
		this.text = text;
		this.tokens = Lexer.tokens(text);
	}

	// ---- tokens ----

	Token peek() {
		return this.tokens.get(this.pos);
	}

	boolean atEnd() {
		if (peek().kind() == Kind.EOF) {
			return true;
		}
		note();
		return false;
	}

	/** Records that a rule looked at the current token and did not take it. */
	void note() {
		if (this.pos > this.furthest) {
			this.furthest = this.pos;
		}
	}

	Token accept(Kind kind) {
		Token token = peek();
		if (token.kind() == kind) {
			this.pos++;
			return token;
		}
		note();
		return null;
	}

	boolean acceptKeyword(String keyword) {
		if (peek().is(keyword)) {
			this.pos++;
			return true;
		}
		note();
		return false;
	}

	/** Whether a name is one of the keywords, which no grammar takes as an attribute's or a function's name. */
	static boolean isKeyword(Token token) {
		return token.is("AND") || token.is("OR") || token.is("NOT") || token.is("BETWEEN") || token.is("IN")
				|| token.is("SET") || token.is("REMOVE") || token.is("ADD") || token.is("DELETE");
	}

	/**
	 * Ends a parse: parentheses doubled in what the parser committed to are refused before a syntax error met
	 * after them, unless the parser met no way on at all (a choice none of whose alternatives fits: DynamoDB
	 * reports the syntax error then); otherwise the syntax error, if any.
	 */
	void finish(boolean parsed) {
		if (this.redundant && (parsed || !this.noViableAlternative)) {
			throw new RedundantParentheses();
		}
		if (!parsed) {
			throw syntaxError();
		}
	}

	/** Records that the committed parse met a choice none of whose alternatives fits. */
	void noViableAlternative() {
		if (!this.speculative && !this.failed) {
			this.noViableAlternative = true;
		}
		if (!this.speculative) {
			this.failed = true;
		}
	}

	SyntaxException syntaxError() {
		Token token = this.tokens.get(this.furthest);
		int from = (this.furthest > 0) ? this.tokens.get(this.furthest - 1).start() : token.start();
		int to;
		if (token.kind() == Kind.EOF) {
			to = this.text.length();
		}
		else {
			// The text up to the end of the next token; after the last token, to the end (its spaces included).
			Token next = this.tokens.get(this.furthest + 1);
			to = (next.kind() == Kind.EOF) ? this.text.length() : next.end();
		}
		return new SyntaxException("Syntax error; token: \"" + token.text() + "\", near: \""
				+ this.text.substring(from, to) + "\"");
	}

	/** A syntax error; the caller prefixes the expression's name. */
	static final class SyntaxException extends RuntimeException {

		private static final long serialVersionUID = 1L;

		SyntaxException(String message) {
			super(message, null, false, false);
		}

	}

	/** Parentheses doubled around one operand or condition, refused as soon as the parser commits to them. */
	static final class RedundantParentheses extends RuntimeException {

		private static final long serialVersionUID = 1L;

		RedundantParentheses() {
			super("The expression has redundant parentheses;", null, false, false);
		}

	}

	/** A group of parentheses closed: if it holds another group only, and the parser committed, it is refused. */
	<T> T group(T node, boolean doubled) {
		if (doubled && !this.speculative && !this.failed) {
			this.redundant = true;
		}
		return node;
	}

	// ---- choices ----

	static final int PARENS = 0;

	static final int LEAF = 1;

	static final int COMPARISON = 2;

	static final int OR = 3;

	static final int OPERAND = 4;

	static final int SET_VALUE = 5;

	static final int ARITHMETIC = 6;

	static final int UPDATE_OPERAND = 7;

	/**
	 * A rule tried speculatively: memoised (the tree it gives does not depend on the mode), with the furthest token
	 * it looked at. On success the position is after what it parsed, otherwise where it was.
	 */
	Object speculate(int rule, Supplier<?> body) {
		int start = this.pos;
		long key = ((long) start << 4) | rule;
		Memo known = this.memo.get(key);
		if (known == null) {
			int outerFurthest = this.furthest;
			this.furthest = start;
			boolean wasSpeculative = this.speculative;
			this.speculative = true;
			Object node = nested(body);
			this.speculative = wasSpeculative;
			known = new Memo((node == null) ? FAILED : node, (node == null) ? start : this.pos, this.furthest);
			this.memo.put(key, known);
			this.furthest = Math.max(outerFurthest, this.furthest);
		}
		else {
			this.furthest = Math.max(this.furthest, known.furthest());
		}
		this.pos = known.end();
		return known.node();
	}

	Object nested(Supplier<?> body) {
		if (++this.depth > MAX_NESTING * 8) {
			this.depth--;
			note();
			return null;
		}
		try {
			return body.get();
		}
		finally {
			this.depth--;
		}
	}

	/**
	 * One of several alternatives, each {rule id, parser}: speculatively the first that parses; committed, the
	 * first that parses speculatively or, if none does, the one that got furthest, parsed again for real (so that
	 * what it finds on its way is reported).
	 */
	Object choose(int[] rules, List<Supplier<?>> alternatives) {
		int start = this.pos;
		if (this.speculative) {
			for (int i = 0; i < alternatives.size(); i++) {
				Object node = speculate(rules[i], alternatives.get(i));
				if (node != FAILED) {
					return node;
				}
			}
			return null;
		}
		int chosen = -1;
		int best = -1;
		boolean tie = false;
		for (int i = 0; i < alternatives.size(); i++) {
			this.pos = start;
			Object node = speculate(rules[i], alternatives.get(i));
			if (node != FAILED) {
				chosen = i;
				tie = false;
				break;
			}
			int reached = this.memo.get(((long) start << 4) | rules[i]).furthest();
			if (reached > best) {
				best = reached;
				chosen = i;
				tie = false;
			}
			else if (reached == best) {
				tie = true;
			}
		}
		this.pos = start;
		if (tie) {
			// Every alternative fails at the same token: no way on was found, nothing was committed to.
			noViableAlternative();
			return null;
		}
		Object node = nested(alternatives.get(chosen));
		if (node == null) {
			this.pos = start;
		}
		return node;
	}

	static Object orNull(Object node) {
		return (node == FAILED) ? null : node;
	}

}
