package dev.dynamorelay.engine.expr;

import java.util.ArrayList;
import java.util.List;

import dev.dynamorelay.engine.expr.Lexer.Kind;
import dev.dynamorelay.engine.expr.Lexer.Token;
import dev.dynamorelay.engine.expr.Syntax.Opnd;
import dev.dynamorelay.engine.expr.Syntax.PathRef;

/**
 * The update expression grammar: clauses {@code SET}, {@code REMOVE}, {@code ADD} and {@code DELETE}, each of
 * actions separated by commas; a SET action's value is an operand, or two joined by {@code +} or {@code -}, or
 * such a value in parentheses.
 */
abstract class UpdateGrammar extends ConditionGrammar {

	UpdateGrammar(String text) {
		super(text);
	}

	Syntax.Clause clause() {
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

	Syntax.UpdateAction action(String clause) {
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
	Opnd setValue() {
		if (peek().kind() != Kind.LPAREN) {
			return arithmetic();
		}
		return (Opnd) choose(new int[] { ARITHMETIC, SET_VALUE }, List.of(this::arithmetic, this::setValueGroup));
	}

	Opnd setValueGroup() {
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

	Opnd arithmetic() {
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

}
