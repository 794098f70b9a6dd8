package dev.dynamorelay.engine.expr;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.engine.action.AwsError;
import dev.dynamorelay.engine.value.Numbers;
import dev.dynamorelay.engine.value.Values;

/**
 * Applies an {@link Update} to an item. Containers the update writes into are copied into mutable nodes (the rest
 * of the item is shared); list elements are addressed by their index in the list as it was, removals and appends
 * being made once every action has run.
 */
final class UpdateApplier {

	private final Update update;

	private final Map<String, AttributeValue> item;

	UpdateApplier(Update update, Map<String, AttributeValue> item) {
		this.update = update;
		this.item = item;
	}

	static AwsError incorrectType(boolean legacy) {
		return AwsError.validation(legacy ? "Type mismatch for attribute to update"
				: "An operand in the update expression has an incorrect data type");
	}

	/**
	 * The result of arithmetic (SET's {@code +} and {@code -}, ADD's sum), exact, in DynamoDB's form: refused when
	 * it needs more than 38 digits ("DynamoDB only supports precision up to 38 digits", DynamoDB's message for a
	 * result, where a number given with 39 digits is refused with another) or leaves DynamoDB's range.
	 */
	static AttributeValue arithmeticResult(BigDecimal exact) {
		if (exact.signum() != 0 && exact.stripTrailingZeros().precision() > Numbers.MAX_DIGITS) {
			throw AwsError.validation("DynamoDB only supports precision up to 38 digits");
		}
		return AttributeValue.fromN(Numbers.format(Numbers.check(exact)));
	}

	private static AwsError invalidPath() {
		return AwsError.validation("The document path provided in the update expression is invalid for update");
	}

	/** A map being changed: its entries are values, or nodes for those changed below. */
	private static final class MapNode {

		final LinkedHashMap<String, Object> entries;

		MapNode(Map<String, AttributeValue> map) {
			this.entries = new LinkedHashMap<>(map);
		}

	}

	/** A list being changed: its elements by their original index, those removed, those appended. */
	private static final class ListNode {

		final List<Object> elements;

		final BitSet removed = new BitSet();

		final TreeMap<Integer, Object> appended = new TreeMap<>();

		ListNode(List<AttributeValue> list) {
			this.elements = new ArrayList<>(list);
		}

	}

	Map<String, AttributeValue> apply() {
		// Every SET value is computed on the item as it was, before anything changes.
		List<AttributeValue> setValues = new ArrayList<>();
		for (Update.Action action : this.update.actions()) {
			if (action instanceof Update.SetAction set) {
				setValues.add(set.value().evaluate(this.item));
			}
		}
		MapNode root = new MapNode(this.item);
		int next = 0;
		for (Update.Action action : this.update.actions()) {
			Path path = action.path();
			Object parent = parentOf(root, path);
			Path.Element last = path.last();
			if (action instanceof Update.SetAction) {
				put(parent, last, setValues.get(next++));
			}
			else if (action instanceof Update.RemoveAction) {
				remove(parent, last);
			}
			else if (action instanceof Update.AddAction add) {
				AttributeValue sum = add(get(parent, last), add.value());
				put(parent, last, sum);
			}
			else if (action instanceof Update.DeleteAction delete) {
				AttributeValue existing = get(parent, last);
				if (existing != null) {
					AttributeValue rest = delete(existing, delete.value());
					if (rest == null) {
						remove(parent, last);
					}
					else {
						put(parent, last, rest);
					}
				}
			}
		}
		Map<String, AttributeValue> result = new LinkedHashMap<>();
		for (Map.Entry<String, Object> entry : root.entries.entrySet()) {
			result.put(entry.getKey(), materialize(entry.getValue()));
		}
		return result;
	}

	/** The node holding the path's last element: every element before it must exist and be a map or list. */
	private static Object parentOf(MapNode root, Path path) {
		Object node = root;
		List<Path.Element> elements = path.elements();
		for (int i = 0; i < elements.size() - 1; i++) {
			Path.Element element = elements.get(i);
			Path.Element next = elements.get(i + 1);
			Object child = getNode(node, element);
			if (child == null) {
				throw invalidPath();
			}
			Object container = toNode(child, next);
			if (container == null) {
				throw invalidPath();
			}
			if (container != child) {
				setNode(node, element, container);
			}
			node = container;
		}
		// The last element must suit its container: a key in a map, an index in a list.
		Path.Element last = path.last();
		if ((last instanceof Path.Name) != (node instanceof MapNode)) {
			throw invalidPath();
		}
		return node;
	}

	/** {@code child} as a node {@code next} can address, copying it if it is still a value; null if it cannot. */
	private static Object toNode(Object child, Path.Element next) {
		if (next instanceof Path.Name) {
			if (child instanceof MapNode) {
				return child;
			}
			if (child instanceof AttributeValue value && value.type() == AttributeValue.Type.M) {
				return new MapNode(value.m());
			}
			return null;
		}
		if (child instanceof ListNode) {
			return child;
		}
		if (child instanceof AttributeValue value && value.type() == AttributeValue.Type.L) {
			return new ListNode(value.l());
		}
		return null;
	}

	/** The element of a node, as it was (a list's elements by their original index), or null. */
	private static Object getNode(Object node, Path.Element element) {
		if (node instanceof MapNode map) {
			return (element instanceof Path.Name name) ? map.entries.get(name.name()) : null;
		}
		ListNode list = (ListNode) node;
		if (!(element instanceof Path.Index index)) {
			return null;
		}
		int i = index.index();
		return (i < list.elements.size() && !list.removed.get(i)) ? list.elements.get(i) : null;
	}

	private static void setNode(Object node, Path.Element element, Object child) {
		if (node instanceof MapNode map) {
			map.entries.put(((Path.Name) element).name(), child);
		}
		else {
			((ListNode) node).elements.set(((Path.Index) element).index(), child);
		}
	}

	private static AttributeValue get(Object parent, Path.Element last) {
		Object child = getNode(parent, last);
		return (child == null) ? null : materialize(child);
	}

	private static void put(Object parent, Path.Element last, AttributeValue value) {
		if (parent instanceof MapNode map) {
			map.entries.put(((Path.Name) last).name(), value);
			return;
		}
		ListNode list = (ListNode) parent;
		int index = ((Path.Index) last).index();
		if (index < list.elements.size()) {
			list.elements.set(index, value);
		}
		else {
			// "If the element doesn't already exist, SET appends the new element at the end of the list. If you add
			// multiple elements in a single SET operation, the elements are sorted in order by element number."
			list.appended.put(index, value);
		}
	}

	private static void remove(Object parent, Path.Element last) {
		if (parent instanceof MapNode map) {
			map.entries.remove(((Path.Name) last).name());
			return;
		}
		ListNode list = (ListNode) parent;
		int index = ((Path.Index) last).index();
		// An index beyond the end removes nothing; those within are removed once all actions ran, so that every
		// index names an element of the list as it was ("REMOVE RelatedItems[1], RelatedItems[2]").
		if (index < list.elements.size()) {
			list.removed.set(index);
		}
	}

	private AttributeValue add(AttributeValue existing, AttributeValue value) {
		boolean legacy = this.update.legacy();
		AttributeValue.Type type = value.type();
		if (existing != null && existing.type() != type) {
			throw incorrectType(legacy);
		}
		switch (type) {
			case N: {
				BigDecimal sum = Values.number(value.n());
				if (existing != null) {
					sum = Values.number(existing.n()).add(sum);
				}
				return arithmeticResult(sum);
			}
			case SS, NS, BS: {
				return (existing == null) ? value : union(existing, value);
			}
			case L: {
				// Only AttributeUpdates' ADD takes a list (an UpdateExpression's ADD refuses one before this).
				if (existing == null) {
					return value;
				}
				List<AttributeValue> both = new ArrayList<>(existing.l());
				both.addAll(value.l());
				return AttributeValue.fromL(both);
			}
			default:
				throw incorrectType(legacy);
		}
	}

	/** The union of two sets of one type, the existing set's elements first (numbers compared by value). */
	private static AttributeValue union(AttributeValue existing, AttributeValue value) {
		switch (value.type()) {
			case SS: {
				List<String> union = new ArrayList<>(existing.ss());
				for (String element : value.ss()) {
					if (!union.contains(element)) {
						union.add(element);
					}
				}
				return AttributeValue.fromSs(union);
			}
			case NS: {
				List<String> union = new ArrayList<>(existing.ns());
				for (String element : value.ns()) {
					if (indexOfNumber(union, element) < 0) {
						union.add(element);
					}
				}
				return AttributeValue.fromNs(union);
			}
			default: {
				List<SdkBytes> union = new ArrayList<>(existing.bs());
				for (SdkBytes element : value.bs()) {
					if (!union.contains(element)) {
						union.add(element);
					}
				}
				return AttributeValue.fromBs(union);
			}
		}
	}

	/** The set without the elements of {@code value}, or null when none is left. */
	private AttributeValue delete(AttributeValue existing, AttributeValue value) {
		if (existing.type() != value.type()) {
			throw incorrectType(this.update.legacy());
		}
		switch (value.type()) {
			case SS: {
				List<String> rest = new ArrayList<>(existing.ss());
				rest.removeAll(value.ss());
				return rest.isEmpty() ? null : AttributeValue.fromSs(rest);
			}
			case NS: {
				List<String> rest = new ArrayList<>(existing.ns());
				for (String element : value.ns()) {
					int index = indexOfNumber(rest, element);
					if (index >= 0) {
						rest.remove(index);
					}
				}
				return rest.isEmpty() ? null : AttributeValue.fromNs(rest);
			}
			case BS: {
				List<SdkBytes> rest = new ArrayList<>(existing.bs());
				rest.removeAll(value.bs());
				return rest.isEmpty() ? null : AttributeValue.fromBs(rest);
			}
			default:
				throw incorrectType(this.update.legacy());
		}
	}

	private static int indexOfNumber(List<String> numbers, String number) {
		BigDecimal wanted = Values.number(number);
		for (int i = 0; i < numbers.size(); i++) {
			if (Values.number(numbers.get(i)).compareTo(wanted) == 0) {
				return i;
			}
		}
		return -1;
	}

	private static AttributeValue materialize(Object node) {
		if (node instanceof AttributeValue value) {
			return value;
		}
		if (node instanceof MapNode map) {
			Map<String, AttributeValue> entries = new LinkedHashMap<>();
			for (Map.Entry<String, Object> entry : map.entries.entrySet()) {
				entries.put(entry.getKey(), materialize(entry.getValue()));
			}
			return AttributeValue.fromM(entries);
		}
		ListNode list = (ListNode) node;
		List<AttributeValue> elements = new ArrayList<>();
		for (int i = 0; i < list.elements.size(); i++) {
			if (!list.removed.get(i)) {
				elements.add(materialize(list.elements.get(i)));
			}
		}
		for (Object appended : list.appended.values()) {
			elements.add(materialize(appended));
		}
		return AttributeValue.fromL(elements);
	}

}
