package dev.dynamorelay.engine.expr;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.engine.expr.Syntax.Opnd;

/**
 * DynamoDB's checks of an update expression, and the {@link Update} it stands for. Each kind of error keeps the
 * first found; the one reported is of the first kind in DynamoDB's order (dynalite's, checked against DynamoDB):
 * reserved words, function names, a clause used twice, undefined names, undefined values, overlapping paths,
 * conflicting paths, ADD and DELETE operands of a wrong type, then functions' and arithmetic's operands.
 */
final class UpdateAnalysis {

	private static final Set<String> CONDITION_FUNCTIONS = Set.of("attribute_exists", "attribute_not_exists",
			"attribute_type", "begins_with", "contains", "size");

	private static final Map<AttributeValue.Type, String> OPERAND_TYPES = Map.of(AttributeValue.Type.S, "STRING",
			AttributeValue.Type.N, "NUMBER", AttributeValue.Type.B, "BINARY", AttributeValue.Type.NUL, "NULL",
			AttributeValue.Type.BOOL, "BOOLEAN", AttributeValue.Type.L, "LIST", AttributeValue.Type.M, "MAP");

	private final Placeholders placeholders;

	private String unknownFunction;

	private String section;

	private String undefinedName;

	private String undefinedValue;

	private String operand;

	private String function;

	private int operators;

	private UpdateAnalysis(Placeholders placeholders) {
		this.placeholders = placeholders;
	}

	/** A SET value as read: its tree, and what the checks need to know of it. */
	private record Arg(Update.Value value, boolean path, AttributeValue literal, AttributeValue.Type type) {
	}

	static Update analyze(String text, Placeholders placeholders) {
		List<Syntax.Clause> clauses = Parser.update(text);
		UpdateAnalysis analysis = new UpdateAnalysis(placeholders);
		PathOverlaps overlaps = new PathOverlaps();
		Set<String> sections = new HashSet<>();
		List<Update.Action> actions = new ArrayList<>();
		for (Syntax.Clause clause : clauses) {
			for (Syntax.UpdateAction action : clause.actions()) {
				Path path = placeholders.path(action.path(), analysis::undefinedName);
				if (action instanceof Syntax.SetAction set) {
					Arg value = analysis.value(set.value());
					overlaps.add(path);
					actions.add(new Update.SetAction(path, value.value()));
				}
				else if (action instanceof Syntax.RemoveAction) {
					overlaps.add(path);
					actions.add(new Update.RemoveAction(path));
				}
				else {
					String name = (action instanceof Syntax.AddAction add) ? add.value().name()
							: ((Syntax.DeleteAction) action).value().name();
					AttributeValue value = placeholders.value(name, analysis::undefinedValue);
					overlaps.add(path);
					boolean isAdd = action instanceof Syntax.AddAction;
					analysis.checkOperator(isAdd ? "ADD" : "DELETE", value);
					actions.add(isAdd ? new Update.AddAction(path, value) : new Update.DeleteAction(path, value));
				}
			}
			if (!sections.add(clause.keyword()) && analysis.section == null) {
				analysis.section = "The \"" + clause.keyword() + "\" section can only be used once in an update expression;";
			}
		}
		Errors errors = new Errors();
		errors.operators(analysis.operators);
		errors.add(placeholders.pathProblem());
		errors.add(analysis.unknownFunction);
		errors.add(analysis.section);
		errors.add(analysis.undefinedName);
		errors.add(analysis.undefinedValue);
		errors.add(overlaps.overlapError());
		errors.add(overlaps.conflictError());
		errors.add(analysis.operand);
		errors.add(analysis.function);
		errors.throwFirst();
		return new Update(actions, false);
	}

	private void undefinedName(String message) {
		if (this.undefinedName == null) {
			this.undefinedName = message;
		}
	}

	private void undefinedValue(String message) {
		if (this.undefinedValue == null) {
			this.undefinedValue = message;
		}
	}

	private Arg value(Opnd syntax) {
		if (syntax instanceof Syntax.OpndGroup group) {
			return value(group.operand());
		}
		if (syntax instanceof Syntax.PathRef ref) {
			Path path = this.placeholders.path(ref, this::undefinedName);
			return new Arg((path != null) ? new Update.Value.Attribute(path) : null, true, null, null);
		}
		if (syntax instanceof Syntax.ValueRef ref) {
			AttributeValue value = this.placeholders.value(ref.name(), this::undefinedValue);
			return new Arg((value != null) ? new Update.Value.Literal(value) : null, false, value,
					(value != null) ? value.type() : null);
		}
		if (syntax instanceof Syntax.Arithmetic arithmetic) {
			Arg left = value(arithmetic.left());
			Arg right = value(arithmetic.right());
			this.operators++;
			String name = arithmetic.plus() ? "+" : "-";
			AttributeValue.Type type = checkFunction(name, List.of(left, right));
			Update.Value value = arithmetic.plus() ? new Update.Value.Plus(left.value(), right.value())
					: new Update.Value.Minus(left.value(), right.value());
			return new Arg(value, false, null, type);
		}
		Syntax.Function function = (Syntax.Function) syntax;
		List<Arg> args = new ArrayList<>();
		for (Opnd argument : function.arguments()) {
			args.add(value(argument));
		}
		this.operators++;
		AttributeValue.Type type = checkFunction(function.name(), args);
		Update.Value value = null;
		if (args.size() == 2) {
			if (function.name().equals("if_not_exists") && args.get(0).value() instanceof Update.Value.Attribute attribute) {
				value = new Update.Value.IfNotExists(attribute.path(), args.get(1).value());
			}
			else if (function.name().equals("list_append")) {
				value = new Update.Value.ListAppend(args.get(0).value(), args.get(1).value());
			}
		}
		return new Arg(value, false, null, type);
	}

	/** DynamoDB's checks of a function's or operator's name and operands; the type it gives, or null. */
	private AttributeValue.Type checkFunction(String name, List<Arg> args) {
		if (this.unknownFunction != null) {
			return null;
		}
		if (CONDITION_FUNCTIONS.contains(name)) {
			this.unknownFunction = "The function is not allowed in an update expression; function: " + name;
			return null;
		}
		if (!name.equals("if_not_exists") && !name.equals("list_append") && !name.equals("+") && !name.equals("-")) {
			this.unknownFunction = "Invalid function name; function: " + name;
			return null;
		}
		if (this.function != null) {
			return null;
		}
		if (args.size() != 2) {
			this.function = "Incorrect number of operands for operator or function; operator or function: " + name
					+ ", number of operands: " + args.size();
			return null;
		}
		switch (name) {
			case "if_not_exists" -> {
				if (!args.get(0).path()) {
					this.function = "Operator or function requires a document path; operator or function: " + name;
					return null;
				}
				return args.get(1).type();
			}
			case "list_append" -> {
				return requireType(name, args, AttributeValue.Type.L);
			}
			default -> {
				return requireType(name, args, AttributeValue.Type.N);
			}
		}
	}

	/** The operands given as values must be of {@code type} (those read from the item are checked when read). */
	private AttributeValue.Type requireType(String name, List<Arg> args, AttributeValue.Type type) {
		for (Arg arg : args) {
			if (arg.literal() != null && arg.literal().type() != type) {
				this.function = "Incorrect operand type for operator or function; operator or function: " + name
						+ ", operand type: " + Conditions.typeName(arg.literal());
				return null;
			}
		}
		return type;
	}

	/** ADD takes a number or a set, DELETE a set. */
	private void checkOperator(String operator, AttributeValue value) {
		if (this.operand != null || value == null) {
			return;
		}
		String type = OPERAND_TYPES.get(value.type());
		if (type != null && !(operator.equals("ADD") && value.type() == AttributeValue.Type.N)) {
			this.operand = "Incorrect operand type for operator or function; operator: " + operator + ", operand type: " + type
					+ ", typeSet: ALLOWED_FOR_" + operator + "_OPERAND";
		}
	}

}
