package dev.dynamorelay.engine.expr;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import dev.dynamorelay.engine.expr.Lexer.Kind;
import dev.dynamorelay.engine.expr.Lexer.Token;
import dev.dynamorelay.engine.expr.Syntax.Cond;
import dev.dynamorelay.engine.expr.Syntax.Elem;
import dev.dynamorelay.engine.expr.Syntax.Opnd;
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
 */
final class Parser {

	/** How deep parentheses and functions may nest before the expression is refused (the stack is the limit). */
	static final int MAX_NESTING = 200;

	private final String text;

	private final List<Token> tokens;

	private int pos;

	private int furthest;

	private int depth;

	private boolean speculative;

	/** Whether the committed parse closed parentheses doubled around one operand, condition or value. */
	private boolean redundant;

	/** Whether the committed parse failed, and whether first at a choice none of whose alternatives fits. */
	private boolean failed;

	private boolean noViableAlternative;

	private final Map<Long, Memo> memo = new HashMap<>();

	private record Memo(Object node, int end, int furthest) {
	}

	private static final Object FAILED = new Object();

	private Parser(String text) {
		this.text = text;
		this.tokens = Lexer.tokens(text);
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

	// ---- tokens ----

	private Token peek() {
		return this.tokens.get(this.pos);
	}

	private boolean atEnd() {
		if (peek().kind() == Kind.EOF) {
			return true;
		}
		note();
		return false;
	}

	/** Records that a rule looked at the current token and did not take it. */
	private void note() {
		if (this.pos > this.furthest) {
			this.furthest = this.pos;
		}
	}

	private Token accept(Kind kind) {
		Token token = peek();
		if (token.kind() == kind) {
			this.pos++;
			return token;
		}
		note();
		return null;
	}

	private boolean acceptKeyword(String keyword) {
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
	private void finish(boolean parsed) {
		if (this.redundant && (parsed || !this.noViableAlternative)) {
			throw new RedundantParentheses();
		}
		if (!parsed) {
			throw syntaxError();
		}
	}

	/** Records that the committed parse met a choice none of whose alternatives fits. */
	private void noViableAlternative() {
		if (!this.speculative && !this.failed) {
			this.noViableAlternative = true;
		}
		if (!this.speculative) {
			this.failed = true;
		}
	}

	private SyntaxException syntaxError() {
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
	private <T> T group(T node, boolean doubled) {
		if (doubled && !this.speculative && !this.failed) {
			this.redundant = true;
		}
		return node;
	}

	// ---- choices ----

	private static final int PARENS = 0;

	private static final int LEAF = 1;

	private static final int COMPARISON = 2;

	private static final int OR = 3;

	private static final int OPERAND = 4;

	private static final int SET_VALUE = 5;

	private static final int ARITHMETIC = 6;

	private static final int UPDATE_OPERAND = 7;

	/**
	 * A rule tried speculatively: memoised (the tree it gives does not depend on the mode), with the furthest token
	 * it looked at. On success the position is after what it parsed, otherwise where it was.
	 */
	private Object speculate(int rule, Supplier<?> body) {
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

	private Object nested(Supplier<?> body) {
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
	private Object choose(int[] rules, List<Supplier<?>> alternatives) {
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

	private static Object orNull(Object node) {
		return (node == FAILED) ? null : node;
	}

	// ---- conditions ----

	private Cond orCondition() {
		if (this.speculative) {
			return (Cond) orNull(speculate(OR, this::orConditionBody));
		}
		return orConditionBody();
	}

	private Cond orConditionBody() {
		Cond left = andCondition();
		if (left == null) {
			return null;
		}
		int save = this.pos;
		if (acceptKeyword("OR")) {
			Cond right = orCondition();
			if (right != null) {
				return new Syntax.Or(left, right);
			}
		}
		this.pos = save;
		return left;
	}

	private Cond andCondition() {
		Cond left = notCondition();
		if (left == null) {
			return null;
		}
		int save = this.pos;
		if (acceptKeyword("AND")) {
			Cond right = andCondition();
			if (right != null) {
				return new Syntax.And(left, right);
			}
		}
		this.pos = save;
		return left;
	}

	private Cond notCondition() {
		int save = this.pos;
		if (acceptKeyword("NOT")) {
			Cond condition = (Cond) nested(this::notCondition);
			if (condition != null) {
				return new Syntax.Not(condition);
			}
			this.pos = save;
			return null;
		}
		return parensCondition();
	}

	/** A condition where one starts: a comparison or function, or a condition in parentheses. */
	private Cond parensCondition() {
		if (peek().kind() != Kind.LPAREN) {
			return leaf();
		}
		return (Cond) choose(new int[] { LEAF, PARENS }, List.of(this::leaf, this::conditionGroup));
	}

	private Cond conditionGroup() {
		int start = this.pos;
		if (accept(Kind.LPAREN) == null) {
			return null;
		}
		Cond inner = orCondition();
		if (inner == null || accept(Kind.RPAREN) == null) {
			this.pos = start;
			return null;
		}
		return group(new Syntax.CondGroup(inner), inner instanceof Syntax.CondGroup);
	}

	/** A comparison, BETWEEN or IN, or a function standing as a condition. */
	private Cond leaf() {
		return (Cond) choose(new int[] { COMPARISON, LEAF + 8 }, List.of(this::comparison, this::functionCondition));
	}

	private Cond functionCondition() {
		Syntax.Function function = function(true);
		return (function != null) ? new Syntax.FunctionCond(function) : null;
	}

	private Cond comparison() {
		int start = this.pos;
		Opnd left = operand();
		if (left == null) {
			return null;
		}
		Token token = peek();
		if (token.is("BETWEEN")) {
			this.pos++;
			Opnd lower = operand();
			if (lower != null && acceptKeyword("AND")) {
				Opnd upper = operand();
				if (upper != null) {
					return new Syntax.Between(left, lower, upper);
				}
			}
		}
		else if (token.is("IN")) {
			this.pos++;
			if (accept(Kind.LPAREN) != null) {
				List<Opnd> values = argumentList(true);
				if (values != null && accept(Kind.RPAREN) != null) {
					return new Syntax.In(left, values);
				}
			}
		}
		else {
			Condition.Comparator comparator = comparator();
			if (comparator != null) {
				Opnd right = operand();
				if (right != null) {
					return new Syntax.Compare(comparator, left, right);
				}
			}
			else {
				// Neither a comparator nor BETWEEN nor IN after an operand: no way on.
				noViableAlternative();
			}
		}
		this.pos = start;
		return null;
	}

	private Condition.Comparator comparator() {
		Token token = peek();
		Condition.Comparator comparator = switch (token.kind()) {
			case EQ -> Condition.Comparator.EQ;
			case NE -> Condition.Comparator.NE;
			case LT -> Condition.Comparator.LT;
			case LE -> Condition.Comparator.LE;
			case GT -> Condition.Comparator.GT;
			case GE -> Condition.Comparator.GE;
			default -> null;
		};
		if (comparator == null) {
			note();
		}
		else {
			this.pos++;
		}
		return comparator;
	}

	/** An operand of a condition: one in parentheses, a function, a value, or a path. */
	private Opnd operand() {
		if (this.speculative) {
			return (Opnd) orNull(speculate(OPERAND, this::operandBody));
		}
		return operandBody();
	}

	private Opnd operandBody() {
		int start = this.pos;
		if (accept(Kind.LPAREN) != null) {
			Opnd inner = (Opnd) nested(this::operand);
			if (inner != null && accept(Kind.RPAREN) != null) {
				return group(new Syntax.OpndGroup(inner), inner instanceof Syntax.OpndGroup);
			}
			this.pos = start;
			return null;
		}
		return simpleOperand(true);
	}

	/** A function, a value or a path. */
	private Opnd simpleOperand(boolean conditionGrammar) {
		int start = this.pos;
		Syntax.Function function = function(conditionGrammar);
		if (function != null) {
			return function;
		}
		this.pos = start;
		Token value = accept(Kind.VALUE_PLACEHOLDER);
		if (value != null) {
			return new Syntax.ValueRef(value.text());
		}
		return path();
	}

	private Syntax.Function function(boolean conditionGrammar) {
		int start = this.pos;
		Token name = peek();
		if (name.kind() != Kind.NAME || isKeyword(name)) {
			note();
			return null;
		}
		this.pos++;
		if (accept(Kind.LPAREN) == null) {
			this.pos = start;
			return null;
		}
		List<Opnd> arguments = argumentList(conditionGrammar);
		if (arguments == null || accept(Kind.RPAREN) == null) {
			this.pos = start;
			return null;
		}
		return new Syntax.Function(name.text(), arguments);
	}

	private List<Opnd> argumentList(boolean conditionGrammar) {
		List<Opnd> arguments = new ArrayList<>();
		do {
			if (!arguments.isEmpty() && accept(Kind.COMMA) == null) {
				return arguments;
			}
			int save = this.pos;
			Opnd argument = (Opnd) nested(conditionGrammar ? this::operand : this::updateOperand);
			if (argument == null) {
				if (arguments.isEmpty()) {
					return null;
				}
				// A comma with nothing after it: the list ends before it, and the caller meets the comma.
				this.pos = save - 1;
				return arguments;
			}
			arguments.add(argument);
		}
		while (true);
	}

	/** A path: a name, then keys and indexes. */
	private PathRef path() {
		Syntax.NameElem name = identifier();
		if (name == null) {
			return null;
		}
		List<Elem> elements = new ArrayList<>();
		elements.add(name);
		while (true) {
			int save = this.pos;
			if (accept(Kind.LBRACKET) != null) {
				Token digits = accept(Kind.NUMBER);
				if (digits != null && accept(Kind.RBRACKET) != null) {
					elements.add(new Syntax.IndexElem(digits.text()));
					continue;
				}
			}
			else if (accept(Kind.DOT) != null) {
				Syntax.NameElem key = identifier();
				if (key != null) {
					elements.add(key);
					continue;
				}
			}
			this.pos = save;
			return new PathRef(elements);
		}
	}

	private Syntax.NameElem identifier() {
		Token token = peek();
		if (token.kind() == Kind.NAME_PLACEHOLDER) {
			this.pos++;
			return new Syntax.NameElem(token.text(), true);
		}
		if (token.kind() == Kind.NAME && !isKeyword(token)) {
			this.pos++;
			return new Syntax.NameElem(token.text(), false);
		}
		note();
		return null;
	}

	// ---- update expressions ----

	private Syntax.Clause clause() {
		Token keyword = peek();
		String name;
		if (keyword.is("SET")) {
			name = "SET";
		}
		else if (keyword.is("REMOVE")) {
			name = "REMOVE";
		}
		else if (keyword.is("ADD")) {
			name = "ADD";
		}
		else if (keyword.is("DELETE")) {
			name = "DELETE";
		}
		else {
			note();
			return null;
		}
		this.pos++;
		List<Syntax.UpdateAction> actions = new ArrayList<>();
		do {
			if (!actions.isEmpty() && accept(Kind.COMMA) == null) {
				break;
			}
			Syntax.UpdateAction action = action(name);
			if (action == null) {
				return null;
			}
			actions.add(action);
		}
		while (true);
		return new Syntax.Clause(name, actions);
	}

	private Syntax.UpdateAction action(String clause) {
		PathRef path = path();
		if (path == null) {
			return null;
		}
		switch (clause) {
			case "SET" -> {
				if (accept(Kind.EQ) == null) {
					return null;
				}
				Opnd value = setValue();
				return (value != null) ? new Syntax.SetAction(path, value) : null;
			}
			case "REMOVE" -> {
				return new Syntax.RemoveAction(path);
			}
			default -> {
				Token value = accept(Kind.VALUE_PLACEHOLDER);
				if (value == null) {
					return null;
				}
				Syntax.ValueRef ref = new Syntax.ValueRef(value.text());
				return clause.equals("ADD") ? new Syntax.AddAction(path, ref) : new Syntax.DeleteAction(path, ref);
			}
		}
	}

	/**
	 * A SET action's value: an operand, or two joined by {@code +} or {@code -}, or such a value in parentheses.
	 * ({@code (b) + c} and {@code (b + c)} are both values, as DynamoDB takes them.)
	 */
	private Opnd setValue() {
		if (peek().kind() != Kind.LPAREN) {
			return arithmetic();
		}
		return (Opnd) choose(new int[] { ARITHMETIC, SET_VALUE }, List.of(this::arithmetic, this::setValueGroup));
	}

	private Opnd setValueGroup() {
		int start = this.pos;
		if (accept(Kind.LPAREN) == null) {
			return null;
		}
		Opnd inner = (Opnd) nested(this::setValue);
		if (inner == null || accept(Kind.RPAREN) == null) {
			this.pos = start;
			return null;
		}
		return group(new Syntax.OpndGroup(inner), inner instanceof Syntax.OpndGroup);
	}

	private Opnd arithmetic() {
		Opnd left = updateOperand();
		if (left == null) {
			return null;
		}
		int save = this.pos;
		boolean plus = accept(Kind.PLUS) != null;
		if (plus || accept(Kind.MINUS) != null) {
			Opnd right = updateOperand();
			if (right != null) {
				return new Syntax.Arithmetic(left, plus, right);
			}
			this.pos = save;
			return null;
		}
		return left;
	}

	/** An operand of an update: one in parentheses, a function, a value or a path. */
	private Opnd updateOperand() {
		if (this.speculative) {
			return (Opnd) orNull(speculate(UPDATE_OPERAND, this::updateOperandBody));
		}
		return updateOperandBody();
	}

	private Opnd updateOperandBody() {
		int start = this.pos;
		if (accept(Kind.LPAREN) != null) {
			Opnd inner = (Opnd) nested(this::updateOperand);
			if (inner != null && accept(Kind.RPAREN) != null) {
				return group(new Syntax.OpndGroup(inner), inner instanceof Syntax.OpndGroup);
			}
			this.pos = start;
			return null;
		}
		return simpleOperand(false);
	}

}
