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
 * list index beyond DynamoDB's range or path deeper than 32 levels.
 */
final class Placeholders {

	private final Map<String, String> names;

	private final Map<String, AttributeValue> values;

	private final Set<String> usedNames;

	private final Set<String> usedValues;

	/** The first reserved word used as a name, list index out of range or path too deep, in the order written. */
	private String pathProblem;

	Placeholders(Map<String, String> names, Map<String, AttributeValue> values, Set<String> usedNames,
			Set<String> usedValues) {
		this.names = names;
		this.values = values;
		this.usedNames = usedNames;
		this.usedValues = usedValues;
	}

	/**
	 * The first problem of a path in the order written, or null: a reserved word used as a name ("Attribute name
	 * is a reserved keyword; reserved keyword: x"), a list index beyond 2147483647, a path of more than 32 levels
	 * (DynamoDB finds them together, in this order within a path).
	 */
	String pathProblem() {
		return this.pathProblem;
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
					// "size" is reserved but DynamoDB takes it as a name in a path (it is also a function's name).
					if (this.pathProblem == null && ReservedWords.isReserved(name.text()) && !name.text().equalsIgnoreCase("size")) {
						this.pathProblem = "Attribute name is a reserved keyword; reserved keyword: " + name.text();
					}
					elements.add(new Path.Name(name.text()));
				}
			}
			else {
				String digits = ((Syntax.IndexElem) element).digits();
				long index = (digits.length() > 10) ? Long.MAX_VALUE : Long.parseLong(digits);
				if (index > Integer.MAX_VALUE) {
					if (this.pathProblem == null) {
						this.pathProblem = "List index is not within the allowable range; index: [" + digits + "]";
					}
					resolved = false;
					continue;
				}
				elements.add(new Path.Index((int) index));
			}
		}
		int depth = ref.elements().size();
		if (depth > Path.MAX_DEPTH && this.pathProblem == null) {
			this.pathProblem = "The document path has too many nesting levels; nesting levels: " + depth;
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
