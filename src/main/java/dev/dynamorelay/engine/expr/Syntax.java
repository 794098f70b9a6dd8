package dev.dynamorelay.engine.expr;

import java.util.List;

/**
 * The syntax trees the parsers build, before names and values are resolved and DynamoDB's semantic checks run:
 * placeholders and parentheses are kept as written, so that the checks can report what DynamoDB reports, in its
 * order.
 */
final class Syntax {

	private Syntax() {
	}

	/** A condition as written. */
	sealed interface Cond permits Or, And, Not, CondGroup, Compare, Between, In, FunctionCond {
	}

	record Or(Cond left, Cond right) implements Cond {
	}

	record And(Cond left, Cond right) implements Cond {
	}

	record Not(Cond condition) implements Cond {
	}

	/** A condition in parentheses. */
	record CondGroup(Cond condition) implements Cond {
	}

	record Compare(Condition.Comparator comparator, Opnd left, Opnd right) implements Cond {
	}

	record Between(Opnd operand, Opnd lower, Opnd upper) implements Cond {
	}

	record In(Opnd operand, List<Opnd> values) implements Cond {
	}

	/** A function standing as a condition ({@code attribute_exists(a)}). */
	record FunctionCond(Function function) implements Cond {
	}

	/** An operand as written. */
	sealed interface Opnd permits OpndGroup, PathRef, ValueRef, Function, Arithmetic {
	}

	/** An operand in parentheses. */
	record OpndGroup(Opnd operand) implements Opnd {
	}

	/**
	 * A document path as written.
	 * @param elements its elements
	 */
	record PathRef(List<Elem> elements) implements Opnd {
	}

	/**
	 * An expression attribute value.
	 * @param name the placeholder, {@code :} included
	 */
	record ValueRef(String name) implements Opnd {
	}

	/**
	 * A function call.
	 * @param name its name as written
	 * @param arguments its arguments
	 */
	record Function(String name, List<Opnd> arguments) implements Opnd {
	}

	/** {@code left + right} or {@code left - right}, in a SET action's value. */
	record Arithmetic(Opnd left, boolean plus, Opnd right) implements Opnd {
	}

	/** An element of a path as written. */
	sealed interface Elem permits NameElem, IndexElem {
	}

	/**
	 * A name, or an expression attribute name.
	 * @param text as written ({@code #} included for a placeholder)
	 * @param placeholder whether it is an expression attribute name
	 */
	record NameElem(String text, boolean placeholder) implements Elem {
	}

	/**
	 * A list index.
	 * @param digits as written
	 */
	record IndexElem(String digits) implements Elem {
	}

	/** A clause's action of an update expression as written. */
	sealed interface UpdateAction permits SetAction, RemoveAction, AddAction, DeleteAction {

		PathRef path();

	}

	record SetAction(PathRef path, Opnd value) implements UpdateAction {
	}

	record RemoveAction(PathRef path) implements UpdateAction {
	}

	record AddAction(PathRef path, ValueRef value) implements UpdateAction {
	}

	record DeleteAction(PathRef path, ValueRef value) implements UpdateAction {
	}

	/**
	 * A clause of an update expression.
	 * @param keyword SET, REMOVE, ADD or DELETE
	 * @param actions its actions
	 */
	record Clause(String keyword, List<UpdateAction> actions) {
	}

}
