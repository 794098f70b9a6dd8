package dev.dynamorelay.pagination;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.declaration.DeclaredConnection.FilterArgument;
import dev.dynamorelay.declaration.DeclaredConnection.SortArgument;
import dev.dynamorelay.declaration.DeclaredConnection;
import dev.dynamorelay.error.InvalidArgumentException;
import dev.dynamorelay.model.Filter;
import dev.dynamorelay.model.KeyCondition;
import dev.dynamorelay.model.KeyValue;
import dev.dynamorelay.model.SortOrder;
import dev.dynamorelay.model.ValueType;

/**
 * The one way a call of a declared connection becomes its {@link ConnectionQuery}: the partition it reads, the
 * sort key condition, the filters and the order of its arguments, and the caller's own filters.
 *
 * <p>Shared by every way a connection is read (a GraphQL page, a mutation's edge, a live subscription, the
 * export), so that the same arguments select the same items and bind the same cursors whichever way they
 * arrive. The arguments are the values GraphQL hands a data fetcher (coerced by their GraphQL types).
 */
public final class ConnectionQueries {

	/**
	 * The greatest string with a given prefix that a sort key can practically hold: the prefix and
	 * U+10FFFF, the largest code point (its UTF-8 bytes sort after every other character's).
	 */
	private static final String MAX_SUFFIX = new String(Character.toChars(Character.MAX_CODE_POINT));

	/** The Relay arguments of every connection field, which choose the page, not the items. */
	public static final java.util.Set<String> RELAY_ARGUMENTS = java.util.Set.of("first", "after", "last", "before");

	private ConnectionQueries() {
	}

	/**
	 * The query of one call of {@code connection}: the partition given (none for a Scan), the sort key
	 * condition and the filters of its arguments, the filters its caller's access rules add, and the order
	 * its arguments ask for.
	 * @throws InvalidArgumentException for arguments the connection refuses
	 */
	public static ConnectionQuery query(DeclaredConnection connection, Optional<AttributeValue> partition,
			Function<String, Object> arguments, List<Filter> callerFilters) {
		List<Filter> filters = filters(connection, arguments);
		filters.addAll(callerFilters);
		SortOrder order = connection.orderArgument().map(arguments).map(ConnectionQueries::order).orElse(SortOrder.ASC);
		return new ConnectionQuery(partition, sortCondition(connection, arguments), filters, order);
	}

	/**
	 * The sort key condition of the one sort-key argument given, within the connection's prefix.
	 * @throws InvalidArgumentException for values the connection cannot compare its sort key with
	 */
	public static Optional<KeyCondition> sortCondition(DeclaredConnection connection,
			Function<String, Object> arguments) {
		String prefix = connection.sortKeyPrefix();
		SortArgument given = null;
		Object value = null;
		for (SortArgument argument : connection.sortArguments()) {
			Object each = arguments.apply(argument.name());
			if (each == null || (argument.op() == KeyCondition.Op.BEGINS_WITH && "".equals(each))) {
				continue;
			}
			if (given != null) {
				throw new InvalidArgumentException(("Pass one of `%s` and `%s`, not both: DynamoDB compares the sort "
						+ "key once per read.").formatted(given.name(), argument.name()));
			}
			given = argument;
			value = each;
		}
		if (given == null) {
			return prefix.isEmpty() ? Optional.empty()
					: Optional.of(KeyCondition.of(KeyCondition.Op.BEGINS_WITH, AttributeValue.fromS(prefix)));
		}
		String name = given.name();
		if (given.op() == KeyCondition.Op.BETWEEN) {
			List<?> bounds = (List<?>) value;
			if (bounds.size() != 2 || bounds.get(0) == null || bounds.get(1) == null) {
				throw new InvalidArgumentException("`%s` takes two values, the low and the high bound.".formatted(name));
			}
			AttributeValue low = sortValue(given, prefix, bounds.get(0));
			AttributeValue high = sortValue(given, prefix, bounds.get(1));
			if (compare(low, high) > 0) {
				throw new InvalidArgumentException("`%s`: the low bound is above the high bound.".formatted(name));
			}
			return Optional.of(KeyCondition.between(low, high));
		}
		AttributeValue bound = sortValue(given, prefix, value);
		if (prefix.isEmpty()) {
			return Optional.of(KeyCondition.of(given.op(), bound));
		}
		AttributeValue first = AttributeValue.fromS(prefix);
		AttributeValue last = AttributeValue.fromS(prefix + MAX_SUFFIX);
		if (compare(bound, last) > 0) {
			throw new InvalidArgumentException("`%s` sorts after every sort key that starts with `%s`."
				.formatted(name, prefix));
		}
		return Optional.of(switch (given.op()) {
			case EQ, BEGINS_WITH -> KeyCondition.of(given.op(), bound);
			case GE -> KeyCondition.between(bound, last);
			// The least string greater than the bound is the bound followed by U+0000.
			case GT -> KeyCondition.between(AttributeValue.fromS(bound.s() + "\u0000"), last);
			case LE -> KeyCondition.between(first, bound);
			default -> throw new IllegalStateException(given.op() + " on a prefixed sort key is refused at start");
		});
	}

	private static AttributeValue sortValue(SortArgument argument, String prefix, Object value) {
		AttributeValue written = argument.type().write(argument.name(), value);
		if (!prefix.isEmpty()) {
			// The value itself must not be empty: the prefix alone would make `""` a valid key.
			String text = argument.type().keyText(checkSortKey(argument.name(), written));
			written = AttributeValue.fromS(prefix + text);
		}
		return checkSortKey(argument.name(), written);
	}

	/** A sort key value DynamoDB accepts: not empty, within its size limit. */
	private static AttributeValue checkSortKey(String argument, AttributeValue value) {
		return ValueType.checkKey(argument, value, KeyValue.MAX_SORT_KEY_BYTES);
	}

	/** DynamoDB's order of two key values of one type: numbers by value, strings and bytes by their bytes. */
	private static int compare(AttributeValue a, AttributeValue b) {
		if (a.n() != null && b.n() != null) {
			return new BigDecimal(a.n()).compareTo(new BigDecimal(b.n()));
		}
		byte[] left = (a.s() != null) ? a.s().getBytes(java.nio.charset.StandardCharsets.UTF_8) : a.b().asByteArray();
		byte[] right = (b.s() != null) ? b.s().getBytes(java.nio.charset.StandardCharsets.UTF_8) : b.b().asByteArray();
		return java.util.Arrays.compareUnsigned(left, right);
	}

	/**
	 * The filter conditions of the filter arguments given.
	 * @throws InvalidArgumentException for an {@code IN} with no or too many values, or a value of the wrong kind
	 */
	static List<Filter> filters(DeclaredConnection connection, Function<String, Object> arguments) {
		List<Filter> filters = new ArrayList<>();
		for (FilterArgument argument : connection.filterArguments()) {
			Object value = arguments.apply(argument.name());
			if (value == null) {
				continue;
			}
			filters.add(switch (argument.op()) {
				case EXISTS -> new Filter(argument.attribute(),
						Boolean.TRUE.equals(value) ? Filter.Op.EXISTS : Filter.Op.NOT_EXISTS, List.of());
				case IN -> {
					List<?> values = (List<?>) value;
					if (values.isEmpty() || values.size() > Filter.MAX_IN) {
						throw new InvalidArgumentException("`%s` takes 1 to %d values, got %d."
							.formatted(argument.name(), Filter.MAX_IN, values.size()));
					}
					List<AttributeValue> written = new ArrayList<>();
					values.forEach((each) -> written.add(argument.type().write(argument.name(), each)));
					yield new Filter(argument.attribute(), Filter.Op.IN, written);
				}
				default -> new Filter(argument.attribute(), argument.op(),
						List.of(argument.type().write(argument.name(), value)));
			});
		}
		return filters;
	}

	/** The order an {@code order} argument's value names (an enum constant or its name). */
	public static SortOrder order(Object value) {
		String name = (value instanceof Enum<?> constant) ? constant.name() : String.valueOf(value);
		return SortOrder.valueOf(name);
	}

}
