package dev.dynamorelay.engine.expr;

import java.util.ArrayList;
import java.util.List;

import dev.dynamorelay.engine.expr.Lexer.Kind;
import dev.dynamorelay.engine.expr.Lexer.Token;
import dev.dynamorelay.engine.expr.Syntax.Elem;
import dev.dynamorelay.engine.expr.Syntax.Opnd;
import dev.dynamorelay.engine.expr.Syntax.PathRef;

/**
 * The operands of DynamoDB's expression grammars: an operand in parentheses, a function call, a value placeholder,
 * a path (a name or name placeholder, then {@code .name} and {@code [index]}); the condition grammar's operands and
 * the update grammar's, which differ only in the operands a function's arguments may be.
 */
abstract class OperandGrammar extends ParserCore {

	OperandGrammar(String text) {
		super(text);
	}

	/** An operand of a condition: one in parentheses, a function, a value, or a path. */
	Opnd operand() {
		if (this.speculative) {
			return (Opnd) orNull(speculate(OPERAND, this::operandBody));
		}
		return operandBody();
	}

	Opnd operandBody() {
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
	Opnd simpleOperand(boolean conditionGrammar) {
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

	Syntax.Function function(boolean conditionGrammar) {
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

	List<Opnd> argumentList(boolean conditionGrammar) {
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
	PathRef path() {
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

	Syntax.NameElem identifier() {
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

	/** An operand of an update: one in parentheses, a function, a value or a path. */
	Opnd updateOperand() {
		if (this.speculative) {
			return (Opnd) orNull(speculate(UPDATE_OPERAND, this::updateOperandBody));
		}
		return updateOperandBody();
	}

	Opnd updateOperandBody() {
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
