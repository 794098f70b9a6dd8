package dev.dynamorelay.engine.expr;

import java.util.List;

import dev.dynamorelay.engine.expr.Lexer.Kind;
import dev.dynamorelay.engine.expr.Lexer.Token;
import dev.dynamorelay.engine.expr.Syntax.Cond;
import dev.dynamorelay.engine.expr.Syntax.Opnd;

/**
 * The condition grammar (condition, filter and key condition expressions): OR over AND over NOT, a condition in
 * parentheses, a comparison, BETWEEN, IN, or a function standing as a condition. Where a condition starts with a
 * parenthesis, it looks ahead to tell a condition in parentheses from a comparison whose first operand is in
 * parentheses. A key condition is parsed as a condition; {@code KeyConditions} checks what it may hold.
 */
abstract class ConditionGrammar extends OperandGrammar {

	ConditionGrammar(String text) {
		super(text);
	}

	Cond orCondition() {
		if (this.speculative) {
			return (Cond) orNull(speculate(OR, this::orConditionBody));
		}
		return orConditionBody();
	}

	Cond orConditionBody() {
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

	Cond andCondition() {
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

	Cond notCondition() {
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
	Cond parensCondition() {
		if (peek().kind() != Kind.LPAREN) {
			return leaf();
		}
		return (Cond) choose(new int[] { LEAF, PARENS }, List.of(this::leaf, this::conditionGroup));
	}

	Cond conditionGroup() {
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
	Cond leaf() {
		return (Cond) choose(new int[] { COMPARISON, LEAF + 8 }, List.of(this::comparison, this::functionCondition));
	}

	Cond functionCondition() {
		Syntax.Function function = function(true);
		return (function != null) ? new Syntax.FunctionCond(function) : null;
	}

	Cond comparison() {
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

	Condition.Comparator comparator() {
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

}
