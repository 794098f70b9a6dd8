package dev.dynamorelay.engine.expr;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Resolves the paths and values of one expression against the request's ExpressionAttributeNames and
 * ExpressionAttributeValues, noting which are used, and finds on the way the first reserved word used as a name,
 * the first list index beyond DynamoDB's range and the first path deeper than 32 levels.
 */
final class Placeholders {

	private final Map<String, String> names;

	private final Map<String, AttributeValue> values;

	private final Set<String> usedNames;

	private final Set<String> usedValues;

	private String reserved;

	private String structure;

	Placeholders(Map<String, String> names, Map<String, AttributeValue> values, Set<String> usedNames,
			Set<String> usedValues) {
		this.names = names;
		this.values = values;
		this.usedNames = usedNames;
		this.usedValues = usedValues;
	}

	/** "Attribute name is a reserved keyword; reserved keyword: x" for the first one, or null. */
	String reservedError() {
		return this.reserved;
	}

	/** A list index out of range or a path too deep, the first one, or null. */
	String structureError() {
		return this.structure;
	}

	/**
	 * The path {@code ref} names, or null when an expression attribute name in it is not defined (then told to
	 * {@code undefined}) or an index is out of range.
	 */
	Path path(Syntax.PathRef ref, Consumer<String> undefined) {
		List<Path.Element> elements = new ArrayList<>();
		boolean resolved = true;
		for (Syntax.Elem element : ref.elements()) {
			if (element instanceof Syntax.NameElem name) {
				if (name.placeholder()) {
					String actual = (this.names != null) ? this.names.get(name.text()) : null;
					if (actual == null) {
						undefined.accept("An expression attribute name used in the document path is not defined; attribute name: "
								+ name.text());
						resolved = false;
						continue;
					}
					this.usedNames.add(name.text());
					elements.add(new Path.Name(actual));
				}
				else {
					if (this.reserved == null && ReservedWords.isReserved(name.text())) {
						this.reserved = "Attribute name is a reserved keyword; reserved keyword: " + name.text();
					}
					elements.add(new Path.Name(name.text()));
				}
			}
			else {
				String digits = ((Syntax.IndexElem) element).digits();
				long index = (digits.length() > 10) ? Long.MAX_VALUE : Long.parseLong(digits);
				if (index > Integer.MAX_VALUE) {
					if (this.structure == null) {
						this.structure = "List index is not within the allowable range; index: [" + digits + "]";
					}
					resolved = false;
					continue;
				}
				elements.add(new Path.Index((int) index));
			}
		}
		int depth = ref.elements().size();
		if (depth > Path.MAX_DEPTH && this.structure == null) {
			this.structure = "The document path has too many nesting levels; nesting levels: " + depth;
		}
		return resolved ? new Path(elements) : null;
	}

	/** The value a placeholder names, or null when it is not defined (then told to {@code undefined}). */
	AttributeValue value(String name, Consumer<String> undefined) {
		AttributeValue value = (this.values != null) ? this.values.get(name) : null;
		if (value == null) {
			undefined.accept("An expression attribute value used in expression is not defined; attribute value: " + name);
			return null;
		}
		this.usedValues.add(name);
		return value;
	}

}
