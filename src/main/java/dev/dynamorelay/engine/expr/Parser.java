package dev.dynamorelay.engine.expr;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.dynamorelay.engine.expr.Lexer.Kind;
import dev.dynamorelay.engine.expr.Lexer.Token;
import dev.dynamorelay.engine.expr.Syntax.Cond;
import dev.dynamorelay.engine.expr.Syntax.Elem;
import dev.dynamorelay.engine.expr.Syntax.Opnd;
import dev.dynamorelay.engine.expr.Syntax.PathRef;

/**
 * The grammars of DynamoDB's expressions, parsed by recursive descent over the tokens of {@link Lexer}. The
 * condition grammar is a parsing expression grammar (ordered choice, memoised) as dynalite's, whose choices were
 * checked against DynamoDB: for instance {@code (a.b).c = x} is refused while {@code ((a.b).c) = x} is a path
 * with a parenthesised head. A failed parse reports the furthest token any rule tried, with the text from the
 * token before it to the token after it: {@code Syntax error; token: "are", near: "things are not"}.
 */
final class Parser {

	/** How deep parentheses may nest before the expression is refused (Java's stack is the limit otherwise). */
	static final int MAX_NESTING = 100;

	private final String text;

	private final List<Token> tokens;

	private int pos;

	private int furthest;

	private int depth;

	private final Map<Long, Memo> memo = new HashMap<>();

	private record Memo(Object node, int end) {
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
		if (condition == null || !parser.atEnd()) {
			throw parser.syntaxError();
		}
		return condition;
	}

	/** An update expression's clauses, in order. */
	static List<Syntax.Clause> update(String text) {
		Parser parser = new Parser(text);
		List<Syntax.Clause> clauses = new ArrayList<>();
		do {
			Syntax.Clause clause = parser.clause();
			if (clause == null) {
				throw parser.syntaxError();
			}
			clauses.add(clause);
		}
		while (!parser.atEnd());
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
			PathRef path = parser.plainPath(Grammar.PROJECTION);
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

	private SyntaxException syntaxError() {
		Token token = this.tokens.get(this.furthest);
		int from = (this.furthest > 0) ? this.tokens.get(this.furthest - 1).start() : token.start();
		int to;
		if (token.kind() == Kind.EOF) {
			to = this.text.length();
		}
		else {
			Token next = this.tokens.get(this.furthest + 1);
			to = (next.kind() == Kind.EOF) ? token.end() : next.end();
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

	// ---- memoisation of the condition grammar's alternatives ----

	private static final int OR = 0;

	private static final int PARENS = 1;

	private static final int CONDITION = 2;

	private static final int OPERAND_PARENS = 3;

	private static final int PATH = 4;

	private interface Rule {

		Object parse();

	}

	private Object memoised(int rule, Rule body) {
		long key = ((long) this.pos << 3) | rule;
		Memo known = this.memo.get(key);
		if (known != null) {
			this.pos = known.end();
			return (known.node() == FAILED) ? null : known.node();
		}
		int start = this.pos;
		if (++this.depth > MAX_NESTING * 6) {
			this.depth--;
			note();
			return null;
		}
		Object node = body.parse();
		this.depth--;
		if (node == null) {
			this.pos = start;
		}
		this.memo.put(key, new Memo((node == null) ? FAILED : node, this.pos));
		return node;
	}

	// ---- conditions ----

	private Cond orCondition() {
		return (Cond) memoised(OR, () -> {
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
		});
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
			Cond condition = parensCondition();
			if (condition != null) {
				return new Syntax.Not(condition);
			}
			this.pos = save;
		}
		return parensCondition();
	}

	private Cond parensCondition() {
		return (Cond) memoised(PARENS, () -> {
			int start = this.pos;
			if (accept(Kind.LPAREN) != null && accept(Kind.LPAREN) != null) {
				Cond inner = orCondition();
				if (inner != null && accept(Kind.RPAREN) != null && accept(Kind.RPAREN) != null) {
					return new Syntax.CondGroup(new Syntax.CondGroup(inner));
				}
			}
			this.pos = start;
			Cond condition = condition();
			if (condition != null) {
				return condition;
			}
			this.pos = start;
			if (accept(Kind.LPAREN) != null) {
				Cond inner = orCondition();
				if (inner != null && accept(Kind.RPAREN) != null) {
					return new Syntax.CondGroup(inner);
				}
			}
			return null;
		});
	}

	private Cond condition() {
		return (Cond) memoised(CONDITION, () -> {
			int start = this.pos;
			Opnd left = operandParens();
			if (left != null) {
				int afterLeft = this.pos;
				Condition.Comparator comparator = comparator();
				if (comparator != null) {
					Opnd right = operandParens();
					if (right != null) {
						return new Syntax.Compare(comparator, left, right);
					}
				}
				this.pos = afterLeft;
				if (acceptKeyword("BETWEEN")) {
					Opnd lower = operandParens();
					if (lower != null && acceptKeyword("AND")) {
						Opnd upper = operandParens();
						if (upper != null) {
							return new Syntax.Between(left, lower, upper);
						}
					}
				}
				this.pos = afterLeft;
				if (acceptKeyword("IN") && accept(Kind.LPAREN) != null) {
					List<Opnd> values = argumentList();
					if (values != null && accept(Kind.RPAREN) != null) {
						return new Syntax.In(left, values);
					}
				}
			}
			this.pos = start;
			Syntax.Function function = function(Grammar.CONDITION);
			return (function != null) ? new Syntax.FunctionCond(function) : null;
		});
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

	private Opnd operandParens() {
		return (Opnd) memoised(OPERAND_PARENS, () -> {
			int start = this.pos;
			if (accept(Kind.LPAREN) != null && accept(Kind.LPAREN) != null) {
				Opnd inner = operand(Grammar.CONDITION);
				if (inner != null && accept(Kind.RPAREN) != null && accept(Kind.RPAREN) != null) {
					return new Syntax.OpndGroup(new Syntax.OpndGroup(inner));
				}
			}
			this.pos = start;
			if (accept(Kind.LPAREN) != null) {
				Opnd inner = operand(Grammar.CONDITION);
				if (inner != null && accept(Kind.RPAREN) != null) {
					return new Syntax.OpndGroup(inner);
				}
			}
			this.pos = start;
			return operand(Grammar.CONDITION);
		});
	}

	/** A function, a value or a path; the condition grammar allows parenthesised path heads. */
	private Opnd operand(Grammar grammar) {
		int start = this.pos;
		Syntax.Function function = function(grammar);
		if (function != null) {
			return function;
		}
		this.pos = start;
		Token value = accept(Kind.VALUE_PLACEHOLDER);
		if (value != null) {
			return new Syntax.ValueRef(value.text());
		}
		return (grammar == Grammar.CONDITION) ? groupedPath() : plainPath(grammar);
	}

	private Syntax.Function function(Grammar grammar) {
		int start = this.pos;
		Token name = peek();
		if (name.kind() != Kind.NAME || grammar.isKeyword(name)) {
			note();
			return null;
		}
		this.pos++;
		if (accept(Kind.LPAREN) == null) {
			this.pos = start;
			return null;
		}
		List<Opnd> arguments = (grammar == Grammar.CONDITION) ? argumentList() : updateArgumentList();
		if (arguments == null || accept(Kind.RPAREN) == null) {
			this.pos = start;
			return null;
		}
		return new Syntax.Function(name.text(), arguments);
	}

	private List<Opnd> argumentList() {
		List<Opnd> arguments = new ArrayList<>();
		Opnd first = operandParens();
		if (first == null) {
			return null;
		}
		arguments.add(first);
		while (true) {
			int save = this.pos;
			if (accept(Kind.COMMA) == null) {
				return arguments;
			}
			Opnd next = operandParens();
			if (next == null) {
				this.pos = save;
				return arguments;
			}
			arguments.add(next);
		}
	}

	/** A path of the condition grammar, whose head may be a path in parentheses. */
	private PathRef groupedPath() {
		return (PathRef) memoised(PATH, () -> {
			List<Elem> elements = new ArrayList<>();
			boolean redundant = false;
			int start = this.pos;
			Syntax.NameElem name = identifier(Grammar.CONDITION);
			if (name != null) {
				elements.add(name);
			}
			else {
				this.pos = start;
				PathRef inner = null;
				if (accept(Kind.LPAREN) != null && accept(Kind.LPAREN) != null) {
					inner = groupedPath();
					if (inner != null && accept(Kind.RPAREN) != null && accept(Kind.RPAREN) != null) {
						redundant = true;
					}
					else {
						inner = null;
					}
				}
				if (inner == null) {
					this.pos = start;
					if (accept(Kind.LPAREN) != null) {
						inner = groupedPath();
						if (inner != null && accept(Kind.RPAREN) == null) {
							inner = null;
						}
					}
				}
				if (inner == null) {
					return null;
				}
				elements.addAll(inner.elements());
				redundant |= inner.redundant();
			}
			pathTail(elements, Grammar.CONDITION);
			return new PathRef(elements, redundant);
		});
	}

	/** A path of the update and projection grammars: a name, then keys and indexes. */
	private PathRef plainPath(Grammar grammar) {
		Syntax.NameElem name = identifier(grammar);
		if (name == null) {
			return null;
		}
		List<Elem> elements = new ArrayList<>();
		elements.add(name);
		pathTail(elements, grammar);
		return new PathRef(elements, false);
	}

	private void pathTail(List<Elem> elements, Grammar grammar) {
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
				Syntax.NameElem name = identifier(grammar);
				if (name != null) {
					elements.add(name);
					continue;
				}
			}
			this.pos = save;
			return;
		}
	}

	private Syntax.NameElem identifier(Grammar grammar) {
		Token token = peek();
		if (token.kind() == Kind.NAME_PLACEHOLDER) {
			this.pos++;
			return new Syntax.NameElem(token.text(), true);
		}
		if (token.kind() == Kind.NAME && !grammar.isKeyword(token)) {
			this.pos++;
			return new Syntax.NameElem(token.text(), false);
		}
		note();
		return null;
	}

	/** The three grammars, whose keywords (never names of attributes in them) differ. */
	private enum Grammar {

		CONDITION, UPDATE, PROJECTION;

		boolean isKeyword(Token token) {
			return switch (this) {
				case CONDITION -> token.is("AND") || token.is("OR") || token.is("NOT") || token.is("BETWEEN")
						|| token.is("IN");
				case UPDATE -> token.is("SET") || token.is("REMOVE") || token.is("ADD") || token.is("DELETE");
				case PROJECTION -> false;
			};
		}

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
		PathRef path = plainPath(Grammar.UPDATE);
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
	 * A SET action's value: an operand, or two joined by {@code +} or {@code -}, either in one pair of parentheses
	 * or not. (Unlike dynalite's ordered choice, {@code (b) + c} is accepted as well as {@code (b + c)}.)
	 */
	private Opnd setValue() {
		int start = this.pos;
		Opnd value = arithmetic();
		if (value != null) {
			return value;
		}
		this.pos = start;
		if (accept(Kind.LPAREN) != null) {
			value = arithmetic();
			if (value != null && accept(Kind.RPAREN) != null) {
				return new Syntax.OpndGroup(value);
			}
		}
		this.pos = start;
		return null;
	}

	private Opnd arithmetic() {
		Opnd left = updateOperandParens();
		if (left == null) {
			return null;
		}
		int save = this.pos;
		boolean plus = accept(Kind.PLUS) != null;
		if (plus || accept(Kind.MINUS) != null) {
			Opnd right = updateOperandParens();
			if (right != null) {
				return new Syntax.Arithmetic(left, plus, right);
			}
		}
		this.pos = save;
		return left;
	}

	private Opnd updateOperandParens() {
		int start = this.pos;
		if (accept(Kind.LPAREN) != null) {
			Opnd inner = operand(Grammar.UPDATE);
			if (inner != null && accept(Kind.RPAREN) != null) {
				return new Syntax.OpndGroup(inner);
			}
			this.pos = start;
		}
		return operand(Grammar.UPDATE);
	}

	private List<Opnd> updateArgumentList() {
		List<Opnd> arguments = new ArrayList<>();
		do {
			if (!arguments.isEmpty() && accept(Kind.COMMA) == null) {
				return arguments;
			}
			Opnd argument = updateOperandParens();
			if (argument == null) {
				return null;
			}
			arguments.add(argument);
		}
		while (true);
	}

}
