package dev.dynamorelay.engine.expr;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.engine.expr.Syntax.Cond;
import dev.dynamorelay.engine.expr.Syntax.Opnd;

/**
 * DynamoDB's checks of a condition's syntax tree, and the {@link Condition} it stands for. Each kind of error
 * keeps the first found, in the order DynamoDB finds them (functions once their arguments are read, conditions
 * once their operands are); the error reported is that of the first kind, in DynamoDB's order of kinds (after
 * the parser's, redundant parentheses among them): function names, functions misused, reserved words, then the
 * first comparison or function
 * with an undefined name or value, a wrong number of operands, a repeated operand or an operand of a wrong type
 * (in that order within it). The order is dynalite's, which was checked against DynamoDB.
 */
final class ConditionAnalysis {

	private static final Set<String> FUNCTIONS = Set.of("attribute_exists", "attribute_not_exists", "attribute_type",
			"begins_with", "contains", "size");

	private static final Set<String> TYPE_NAMES = Set.of("S", "N", "B", "NULL", "SS", "BOOL", "L", "BS", "NS", "M");

	/** The most values IN compares with. */
	static final int MAX_IN_OPERANDS = 100;

	private final Placeholders placeholders;

	private final Errors errors = new Errors();

	// The kinds of errors of comparisons and functions, from which the first erroneous one takes its error.
	private String undefined;

	private String operandCount;

	private String distinct;

	private String operandType;

	private String leafError;

	private String unknownFunction;

	private String misusedFunction;

	private int operators;

	private ConditionAnalysis(Placeholders placeholders) {
		this.placeholders = placeholders;
	}

	/**
	 * The condition written {@code text}.
	 * @throws ExpressionException with DynamoDB's message (without the expression's name)
	 */
	static Condition analyze(String text, Placeholders placeholders) {
		Cond syntax = Parser.condition(text);
		ConditionAnalysis analysis = new ConditionAnalysis(placeholders);
		Condition condition = analysis.condition(syntax);
		analysis.misusedSize(syntax);
		analysis.errors.operators(analysis.operators);
		analysis.errors.add(analysis.unknownFunction);
		analysis.errors.add(analysis.misusedFunction);
		analysis.errors.add(analysis.placeholders.pathProblem());
		analysis.errors.add(analysis.leafError);
		analysis.errors.throwFirst();
		return condition;
	}

	/** An operand as read: its tree node, and what the checks need to know of it. */
	private record Arg(Operand operand, boolean path, Path resolvedPath, boolean value, AttributeValue literal,
			String function, String type) {
	}

	private Condition condition(Cond syntax) {
		if (syntax instanceof Syntax.Or or) {
			Condition left = condition(or.left());
			Condition right = condition(or.right());
			this.operators++;
			misusedSize(or.left());
			misusedSize(or.right());
			return new Condition.Or(left, right);
		}
		if (syntax instanceof Syntax.And and) {
			Condition left = condition(and.left());
			Condition right = condition(and.right());
			this.operators++;
			misusedSize(and.left());
			misusedSize(and.right());
			return new Condition.And(left, right);
		}
		if (syntax instanceof Syntax.Not not) {
			Condition inner = condition(not.condition());
			this.operators++;
			misusedSize(not.condition());
			return new Condition.Not(inner);
		}
		if (syntax instanceof Syntax.CondGroup group) {
			return condition(group.condition());
		}
		Condition leaf = leaf(syntax);
		if (this.leafError == null) {
			this.leafError = first(this.undefined, this.operandCount, this.distinct, this.operandType);
		}
		return leaf;
	}

	private Condition leaf(Cond syntax) {
		if (syntax instanceof Syntax.Compare compare) {
			Arg left = operand(compare.left());
			Arg right = operand(compare.right());
			this.operators++;
			misusedFunctions(List.of(left, right));
			checkDistinct(compare.comparator().symbol(), List.of(left, right));
			if (compare.comparator() != Condition.Comparator.EQ && compare.comparator() != Condition.Comparator.NE) {
				orderable(compare.comparator().symbol(), List.of(left, right));
			}
			return new Condition.Compare(compare.comparator(), left.operand(), right.operand());
		}
		if (syntax instanceof Syntax.Between between) {
			Arg operand = operand(between.operand());
			Arg lower = operand(between.lower());
			Arg upper = operand(between.upper());
			this.operators++;
			misusedFunctions(List.of(operand, lower, upper));
			checkDistinct("BETWEEN", List.of(operand, lower, upper));
			orderable("BETWEEN", List.of(operand, lower, upper));
			checkBounds(lower, upper);
			return new Condition.Between(operand.operand(), lower.operand(), upper.operand());
		}
		if (syntax instanceof Syntax.In in) {
			Arg operand = operand(in.operand());
			List<Arg> all = new ArrayList<>();
			all.add(operand);
			List<Operand> values = new ArrayList<>();
			for (Opnd value : in.values()) {
				Arg arg = operand(value);
				all.add(arg);
				values.add(arg.operand());
			}
			this.operators++;
			misusedFunctions(all);
			checkDistinct("IN", all);
			if (values.size() > MAX_IN_OPERANDS && this.operandCount == null) {
				this.operandCount = "The IN operator is provided with too many operands; number of operands: " + values.size();
			}
			return new Condition.In(operand.operand(), values);
		}
		Syntax.Function function = ((Syntax.FunctionCond) syntax).function();
		List<Arg> args = functionArguments(function);
		return functionCondition(function.name(), args);
	}

	private List<Arg> functionArguments(Syntax.Function function) {
		List<Arg> args = new ArrayList<>();
		for (Opnd argument : function.arguments()) {
			args.add(operand(argument));
		}
		this.operators++;
		misusedFunctions(args);
		return args;
	}

	private Condition functionCondition(String name, List<Arg> args) {
		checkFunction(name, args);
		Arg first = args.get(0);
		Arg second = (args.size() > 1) ? args.get(1) : null;
		return switch (name) {
			case "attribute_exists" -> new Condition.AttributeExists(first.resolvedPath());
			case "attribute_not_exists" -> new Condition.AttributeNotExists(first.resolvedPath());
			case "attribute_type" -> new Condition.AttributeType(first.operand(), (second != null) ? second.operand() : null);
			case "begins_with" -> new Condition.BeginsWith(first.operand(), (second != null) ? second.operand() : null);
			case "contains" -> new Condition.Contains(first.operand(), (second != null) ? second.operand() : null);
			// size as a condition, or a function that is not one: refused, the tree is never used.
			default -> null;
		};
	}

	private Arg operand(Opnd syntax) {
		if (syntax instanceof Syntax.OpndGroup group) {
			return operand(group.operand());
		}
		if (syntax instanceof Syntax.PathRef ref) {
			Path path = this.placeholders.path(ref, this::undefined);
			return new Arg((path != null) ? new Operand.PathOperand(path) : null, true, path, false, null, null, null);
		}
		if (syntax instanceof Syntax.ValueRef ref) {
			AttributeValue value = this.placeholders.value(ref.name(), this::undefined);
			return new Arg((value != null) ? new Operand.Value(value) : null, false, null, true, value, null,
					(value != null) ? Conditions.typeName(value) : null);
		}
		Syntax.Function function = (Syntax.Function) syntax;
		List<Arg> args = functionArguments(function);
		String type = checkFunction(function.name(), args);
		Operand operand = function.name().equals("size") && !args.isEmpty() && args.get(0).operand() != null
				? new Operand.Size(args.get(0).operand()) : null;
		return new Arg(operand, false, null, false, null, function.name(), type);
	}

	private void undefined(String message) {
		if (this.undefined == null) {
			this.undefined = message;
		}
	}

	/** A function other than size used as an operand. */
	private void misusedFunctions(List<Arg> args) {
		if (this.misusedFunction != null) {
			return;
		}
		for (Arg arg : args) {
			if (arg.function() != null && !arg.function().equals("size")) {
				this.misusedFunction = misused(arg.function());
				return;
			}
		}
	}

	/** size used as a condition. */
	private void misusedSize(Cond syntax) {
		while (syntax instanceof Syntax.CondGroup group) {
			syntax = group.condition();
		}
		if (syntax instanceof Syntax.FunctionCond function && function.function().name().equals("size")
				&& this.misusedFunction == null) {
			this.misusedFunction = misused("size");
		}
	}

	private static String misused(String function) {
		return "The function is not allowed to be used this way in an expression; function: " + function;
	}

	/** DynamoDB's checks of a function's name and operands; the type of what it gives, or null. */
	private String checkFunction(String name, List<Arg> args) {
		if (this.unknownFunction != null) {
			return null;
		}
		if (name.equals("if_not_exists") || name.equals("list_append")) {
			this.unknownFunction = "The function is not allowed in a condition expression; function: " + name;
			return null;
		}
		if (!FUNCTIONS.contains(name)) {
			this.unknownFunction = "Invalid function name; function: " + name;
			return null;
		}
		if (this.operandCount != null) {
			return null;
		}
		int expected = (name.equals("attribute_exists") || name.equals("attribute_not_exists") || name.equals("size")) ? 1 : 2;
		if (args.size() != expected) {
			this.operandCount = "Incorrect number of operands for operator or function; operator or function: " + name
					+ ", number of operands: " + args.size();
			return null;
		}
		if (args.size() == 2) {
			checkDistinct(name, args);
		}
		if (this.operandType != null) {
			return null;
		}
		return checkOperandTypes(name, args);
	}

	/** DynamoDB's checks of the types of a function's operands; the type of what it gives, or null. */
	private String checkOperandTypes(String name, List<Arg> args) {
		switch (name) {
			case "attribute_exists", "attribute_not_exists" -> {
				if (!args.get(0).path()) {
					this.operandType = "Operator or function requires a document path; operator or function: " + name;
				}
				return null;
			}
			case "begins_with" -> {
				for (Arg arg : args) {
					if (arg.type() != null && !arg.type().equals("S") && !arg.type().equals("B")) {
						this.operandType = incorrectType(name, arg.type());
						return null;
					}
				}
				return "BOOL";
			}
			case "attribute_type" -> {
				Arg type = args.get(1);
				if (!"S".equals(type.type())) {
					// The set of types DynamoDB prints for a path, whose own type it cannot know.
					this.operandType = incorrectType(name, (type.type() != null) ? type.type()
							: "{S,NULL,BS,BOOL,L,DECIMAL,SS,INTSET,DECIMALSET,DICT,FS,M,HD,FLOAT,B,DOUBLESET,DOUBLE,NS,HDS,N,INT}");
					return null;
				}
				if (type.literal() != null && !TYPE_NAMES.contains(type.literal().s())) {
					this.operandType = "Invalid attribute type name found; type: " + type.literal().s()
							+ ", valid types: {N,BS,L,B,NULL,M,S,SS,NS,BOOL}";
					return null;
				}
				return "BOOL";
			}
			case "size" -> {
				String type = args.get(0).type();
				if ("N".equals(type) || "BOOL".equals(type) || "NULL".equals(type)) {
					this.operandType = incorrectType(name, type);
					return null;
				}
				return "N";
			}
			default -> {
				return "BOOL";
			}
		}
	}

	private static String incorrectType(String function, String type) {
		return "Incorrect operand type for operator or function; operator or function: " + function + ", operand type: " + type;
	}

	/** The first operand, a path, repeated among the others (of a comparison, BETWEEN, IN or a function). */
	private void checkDistinct(String operator, List<Arg> args) {
		Arg first = args.get(0);
		if (this.distinct != null || first.resolvedPath() == null) {
			return;
		}
		for (int i = 1; i < args.size(); i++) {
			if (first.resolvedPath().equals(args.get(i).resolvedPath())) {
				this.distinct = "The first operand must be distinct from the remaining operands for this operator or function; operator: "
						+ operator + ", first operand: " + first.resolvedPath().describe();
				return;
			}
		}
	}

	/**
	 * The order comparators and BETWEEN compare strings, numbers and binaries: a value of another type is refused
	 * as DynamoDB refuses it ("Incorrect operand type for operator or function; operator or function: <=, operand
	 * type: BOOL", as reported by DynamoDB; dynalite accepts it and compares false).
	 */
	private void orderable(String operator, List<Arg> args) {
		if (this.operandType != null) {
			return;
		}
		for (Arg arg : args) {
			if (arg.literal() != null && !Conditions.ordered(arg.literal().type())) {
				this.operandType = incorrectType(operator, arg.type());
				return;
			}
		}
	}

	private void checkBounds(Arg lower, Arg upper) {
		if (this.operandType != null || lower.literal() == null || upper.literal() == null) {
			return;
		}
		AttributeValue low = lower.literal();
		AttributeValue high = upper.literal();
		String bounds = "lower bound operand: AttributeValue: {" + Printing.typed(low) + "}, upper bound operand: AttributeValue: {"
				+ Printing.typed(high) + "}";
		if (low.type() != high.type()) {
			this.operandType = "The BETWEEN operator requires same data type for lower and upper bounds; " + bounds;
		}
		else {
			Integer order = Conditions.order(low, high);
			if (order != null && order > 0) {
				this.operandType = "The BETWEEN operator requires upper bound to be greater than or equal to lower bound; " + bounds;
			}
		}
	}

	private static String first(String... messages) {
		for (String message : messages) {
			if (message != null) {
				return message;
			}
		}
		return null;
	}

}
