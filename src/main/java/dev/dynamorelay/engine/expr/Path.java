package dev.dynamorelay.engine.expr;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A document path: a top-level attribute name followed by map keys ({@code .name}) and list indexes
 * ({@code [n]}), with every expression attribute name already replaced by the name it stands for.
 *
 * <p>See the Developer Guide, "Specifying item attributes when using expressions", Document paths.
 *
 * @param elements the elements, the first one always a {@link Name}
 */
public record Path(List<Element> elements) {

	/** The most elements a document path has: "The maximum depth for a document path is 32". */
	public static final int MAX_DEPTH = 32;

	public Path {
		elements = List.copyOf(elements);
		if (elements.isEmpty() || !(elements.get(0) instanceof Name)) {
			throw new IllegalArgumentException("a document path starts with an attribute name: " + elements);
		}
	}

	/** One element of a document path. */
	public sealed interface Element permits Name, Index {
	}

	/**
	 * A map key, or the top-level attribute name.
	 * @param name the name, as the item holds it
	 */
	public record Name(String name) implements Element {

		public Name {
			if (name == null) {
				throw new IllegalArgumentException("a name is not null");
			}
		}

	}

	/**
	 * A list index.
	 * @param index the index, from zero
	 */
	public record Index(int index) implements Element {

		public Index {
			if (index < 0) {
				throw new IllegalArgumentException("a list index is not negative: " + index);
			}
		}

	}

	/** A path of names only: {@code Path.of("a", "b")} is {@code a.b}. */
	public static Path of(String first, String... more) {
		List<Element> elements = new ArrayList<>();
		elements.add(new Name(first));
		for (String name : more) {
			elements.add(new Name(name));
		}
		return new Path(elements);
	}

	/** This path with one more element. */
	public Path then(Element element) {
		List<Element> longer = new ArrayList<>(this.elements);
		longer.add(element);
		return new Path(longer);
	}

	/** This path followed by a map key. */
	public Path then(String name) {
		return then(new Name(name));
	}

	/** This path followed by a list index. */
	public Path then(int index) {
		return then(new Index(index));
	}

	/** The top-level attribute's name. */
	public String head() {
		return ((Name) this.elements.get(0)).name();
	}

	/** Whether this path goes below its top-level attribute. */
	public boolean isNested() {
		return this.elements.size() > 1;
	}

	/** The number of elements. */
	public int depth() {
		return this.elements.size();
	}

	/** The path of all elements but the last (for a top-level attribute: null). */
	public Path parent() {
		return isNested() ? new Path(this.elements.subList(0, this.elements.size() - 1)) : null;
	}

	/** The last element. */
	public Element last() {
		return this.elements.get(this.elements.size() - 1);
	}

	/**
	 * The value at this path in {@code item}, or null when there is none: a missing attribute, a map key that is
	 * absent, an index beyond a list's end, or an element that does not match the value's type (a key in a list,
	 * an index in a map or a scalar).
	 */
	public AttributeValue resolve(Map<String, AttributeValue> item) {
		AttributeValue value = item.get(head());
		for (int i = 1; i < this.elements.size() && value != null; i++) {
			value = step(value, this.elements.get(i));
		}
		return value;
	}

	/** The value one element below {@code value}, or null. */
	static AttributeValue step(AttributeValue value, Element element) {
		if (element instanceof Name name) {
			return (value.type() == AttributeValue.Type.M) ? value.m().get(name.name()) : null;
		}
		int index = ((Index) element).index();
		if (value.type() != AttributeValue.Type.L) {
			return null;
		}
		List<AttributeValue> list = value.l();
		return (index < list.size()) ? list.get(index) : null;
	}

	/**
	 * The path as DynamoDB writes it in its messages: {@code [a, b, [1]]} (names are not quoted, so a name
	 * {@code [3]} and an index 3 print alike, as they do in DynamoDB's messages).
	 */
	public String describe() {
		StringBuilder text = new StringBuilder("[");
		for (int i = 0; i < this.elements.size(); i++) {
			if (i > 0) {
				text.append(", ");
			}
			Element element = this.elements.get(i);
			text.append((element instanceof Name name) ? name.name() : "[" + ((Index) element).index() + "]");
		}
		return text.append(']').toString();
	}

	/** The path in expression syntax, names written as they are (for reading, not for parsing). */
	@Override
	public String toString() {
		StringBuilder text = new StringBuilder(head());
		for (int i = 1; i < this.elements.size(); i++) {
			Element element = this.elements.get(i);
			if (element instanceof Name name) {
				text.append('.').append(name.name());
			}
			else {
				text.append('[').append(((Index) element).index()).append(']');
			}
		}
		return text.toString();
	}

}
