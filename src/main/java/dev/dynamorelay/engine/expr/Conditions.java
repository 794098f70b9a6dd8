package dev.dynamorelay.engine.expr;

import java.math.BigDecimal;
import java.util.List;

import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.engine.value.Values;

/** The rules shared by the conditions' evaluation: order, type names, prefixes, containment. */
final class Conditions {

	private Conditions() {
	}

	/**
	 * The order of two values if both are strings, numbers or binaries of one type; otherwise null (DynamoDB's
	 * order comparators are false for anything else, and for a missing value).
	 */
	static Integer order(AttributeValue left, AttributeValue right) {
		if (left == null || right == null || left.type() != right.type()) {
			return null;
		}
		return switch (left.type()) {
			case S, N, B -> Values.compare(left, right);
			default -> null;
		};
	}

	/** Whether values of {@code type} have an order (S, N and B). */
	static boolean ordered(AttributeValue.Type type) {
		return type == AttributeValue.Type.S || type == AttributeValue.Type.N || type == AttributeValue.Type.B;
	}

	/** The name DynamoDB gives a value's type: S, N, B, SS, NS, BS, BOOL, NULL, L or M. */
	static String typeName(AttributeValue value) {
		return typeName(value.type());
	}

	/** The name DynamoDB gives a type. */
	static String typeName(AttributeValue.Type type) {
		return switch (type) {
			case NUL -> "NULL";
			case UNKNOWN_TO_SDK_VERSION -> "UNKNOWN";
			default -> type.name();
		};
	}

	static boolean beginsWith(AttributeValue value, AttributeValue prefix) {
		if (value == null || prefix == null || value.type() != prefix.type()) {
			return false;
		}
		if (value.type() == AttributeValue.Type.S) {
			return value.s().startsWith(prefix.s());
		}
		if (value.type() == AttributeValue.Type.B) {
			byte[] bytes = value.b().asByteArrayUnsafe();
			byte[] start = prefix.b().asByteArrayUnsafe();
			return bytes.length >= start.length && java.util.Arrays.equals(bytes, 0, start.length, start, 0, start.length);
		}
		return false;
	}

	static boolean contains(AttributeValue value, AttributeValue element) {
		if (value == null || element == null) {
			return false;
		}
		switch (value.type()) {
			case S:
				return element.type() == AttributeValue.Type.S && value.s().contains(element.s());
			case B:
				return element.type() == AttributeValue.Type.B
						&& indexOf(value.b().asByteArrayUnsafe(), element.b().asByteArrayUnsafe()) >= 0;
			case SS:
				return element.type() == AttributeValue.Type.S && value.ss().contains(element.s());
			case NS:
				if (element.type() != AttributeValue.Type.N) {
					return false;
				}
				BigDecimal number = Values.number(element.n());
				for (String member : value.ns()) {
					if (Values.number(member).compareTo(number) == 0) {
						return true;
					}
				}
				return false;
			case BS:
				if (element.type() != AttributeValue.Type.B) {
					return false;
				}
				for (SdkBytes member : value.bs()) {
					if (member.equals(element.b())) {
						return true;
					}
				}
				return false;
			case L:
				// differs from dynalite: any element type is compared (a list of maps holds a map), as
				// "contains (path, operand) ... a List that contains a particular element within the list" reads;
				// dynalite only finds strings, numbers and binaries in lists.
				List<AttributeValue> list = value.l();
				for (AttributeValue member : list) {
					if (Values.equal(member, element)) {
						return true;
					}
				}
				return false;
			default:
				return false;
		}
	}

	private static int indexOf(byte[] bytes, byte[] part) {
		outer: for (int i = 0; i + part.length <= bytes.length; i++) {
			for (int j = 0; j < part.length; j++) {
				if (bytes[i + j] != part[j]) {
					continue outer;
				}
			}
			return i;
		}
		return -1;
	}

	static void collectPaths(Condition condition, List<Path> paths) {
		if (condition instanceof Condition.And and) {
			collectPaths(and.left(), paths);
			collectPaths(and.right(), paths);
		}
		else if (condition instanceof Condition.Or or) {
			collectPaths(or.left(), paths);
			collectPaths(or.right(), paths);
		}
		else if (condition instanceof Condition.Not not) {
			collectPaths(not.condition(), paths);
		}
		else if (condition instanceof Condition.Compare compare) {
			collectPaths(compare.left(), paths);
			collectPaths(compare.right(), paths);
		}
		else if (condition instanceof Condition.Between between) {
			collectPaths(between.operand(), paths);
			collectPaths(between.lower(), paths);
			collectPaths(between.upper(), paths);
		}
		else if (condition instanceof Condition.In in) {
			collectPaths(in.operand(), paths);
			for (Operand value : in.values()) {
				collectPaths(value, paths);
			}
		}
		else if (condition instanceof Condition.AttributeExists exists) {
			paths.add(exists.path());
		}
		else if (condition instanceof Condition.AttributeNotExists notExists) {
			paths.add(notExists.path());
		}
		else if (condition instanceof Condition.AttributeType type) {
			collectPaths(type.operand(), paths);
			collectPaths(type.type(), paths);
		}
		else if (condition instanceof Condition.BeginsWith beginsWith) {
			collectPaths(beginsWith.operand(), paths);
			collectPaths(beginsWith.prefix(), paths);
		}
		else if (condition instanceof Condition.Contains contains) {
			collectPaths(contains.operand(), paths);
			collectPaths(contains.element(), paths);
		}
	}

	static void collectPaths(Operand operand, List<Path> paths) {
		if (operand instanceof Operand.PathOperand path) {
			paths.add(path.path());
		}
		else if (operand instanceof Operand.Size size) {
			collectPaths(size.operand(), paths);
		}
	}

}
