package dev.dynamorelay.engine.expr;

import java.util.Map;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * What a comparison or a function of a condition compares: a document path into the item, an expression attribute
 * value, or the size of either.
 *
 * <p>See the Developer Guide, "Comparison operator and function reference".
 */
public sealed interface Operand permits Operand.PathOperand, Operand.Value, Operand.Size {

	/** The operand's value for {@code item}, or null when it has none (a missing attribute, a size of nothing). */
	AttributeValue evaluate(Map<String, AttributeValue> item);

	/**
	 * The attribute at a document path of the item.
	 * @param path the path
	 */
	record PathOperand(Path path) implements Operand {

		@Override
		public AttributeValue evaluate(Map<String, AttributeValue> item) {
			return this.path.resolve(item);
		}

		@Override
		public String toString() {
			return this.path.toString();
		}

	}

	/**
	 * An expression attribute value (or a value of a legacy parameter).
	 * @param value the value
	 */
	record Value(AttributeValue value) implements Operand {

		@Override
		public AttributeValue evaluate(Map<String, AttributeValue> item) {
			return this.value;
		}

		@Override
		public String toString() {
			return String.valueOf(this.value);
		}

	}

	/**
	 * {@code size(operand)}: the length of a string (in UTF-16 code units, as dynalite counts it), the bytes of a
	 * binary, the elements of a set, list or map; nothing for a number, a boolean or a null.
	 * @param operand what is measured
	 */
	record Size(Operand operand) implements Operand {

		@Override
		public AttributeValue evaluate(Map<String, AttributeValue> item) {
			return size(this.operand.evaluate(item));
		}

		/** The size of {@code value}, or null when it has none. */
		static AttributeValue size(AttributeValue value) {
			if (value == null) {
				return null;
			}
			int size;
			switch (value.type()) {
				case S -> size = value.s().length();
				case B -> size = value.b().asByteArrayUnsafe().length;
				case SS -> size = value.ss().size();
				case NS -> size = value.ns().size();
				case BS -> size = value.bs().size();
				case L -> size = value.l().size();
				case M -> size = value.m().size();
				default -> {
					return null;
				}
			}
			return AttributeValue.fromN(Integer.toString(size));
		}

		@Override
		public String toString() {
			return "size(" + this.operand + ")";
		}

	}

}
