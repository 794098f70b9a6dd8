package dev.dynamorelay.pagination;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Map;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.model.ConnectionDefinition;
import dev.dynamorelay.model.Filter;
import dev.dynamorelay.model.KeyAttribute;
import dev.dynamorelay.model.KeyCondition;

/**
 * What a cursor is bound to, and which of its position attributes travel inside it.
 *
 * <p>The fingerprint is a SHA-256 over the connection's field, its partition (the parent), its
 * sort key condition, filters and order (and a parallel Scan's segment, when it has one): the MAC of a cursor covers it, so a cursor verifies only where
 * all of these are equal. Page size and direction are not part of it: a cursor is a position, and
 * may be read from in either direction with any page size. The partition key value is not carried
 * in the cursor (the binding already fixes it) to keep cursors short.
 *
 * @param fingerprint SHA-256 of the binding's canonical form
 * @param carried the position attributes encoded in the cursor, in order
 * @param fixed position attributes the binding fixes, added back when decoding
 */
public record CursorBinding(byte[] fingerprint, List<KeyAttribute> carried, Map<String, AttributeValue> fixed) {

	private static final byte[] DOMAIN = "dynamo-relay cursor v1".getBytes(StandardCharsets.UTF_8);

	/** The binding of cursors issued by {@code definition} for {@code query}. */
	public static CursorBinding of(ConnectionDefinition<?> definition, ConnectionQuery query) {
		MessageDigest digest = sha256();
		field(digest, DOMAIN);
		field(digest, definition.field());
		if (query.partition().isPresent()) {
			field(digest, "partition");
			value(digest, query.partition().get());
		}
		// A prefix and a single lower bound keep the canonical form they had before any other condition
		// existed, so that instances of both versions sharing a secret accept each other's cursors.
		query.sortCondition().ifPresent((condition) -> {
			if (condition.op() == KeyCondition.Op.BEGINS_WITH && condition.values().get(0).s() != null) {
				field(digest, "prefix");
				field(digest, condition.values().get(0).s());
				return;
			}
			field(digest, "sort");
			field(digest, condition.op().name());
			condition.values().forEach((value) -> value(digest, value));
		});
		List<Filter> filters = query.filters();
		if (filters.size() == 1 && filters.get(0).op() == Filter.Op.GE && filters.get(0).values().get(0).n() != null) {
			field(digest, "min");
			field(digest, filters.get(0).attribute());
			field(digest, canonical(filters.get(0).values().get(0).n()));
		}
		else {
			for (Filter filter : filters) {
				field(digest, "filter");
				field(digest, filter.attribute());
				field(digest, filter.op().name());
				field(digest, Integer.toString(filter.values().size()));
				filter.values().forEach((value) -> value(digest, value));
			}
		}
		field(digest, "order");
		field(digest, query.order().name());
		// Only a segment's cursors bind it, so that every other cursor keeps the binding it always had.
		query.segment().ifPresent((segment) -> {
			field(digest, "segment");
			field(digest, Integer.toString(segment.segment()));
			field(digest, Integer.toString(segment.total()));
		});

		Map<String, AttributeValue> fixed = Map.of();
		List<KeyAttribute> carried = definition.positionKey();
		if (definition.partitionKey().isPresent() && query.partition().isPresent()) {
			KeyAttribute partitionKey = definition.partitionKey().get();
			fixed = Map.of(partitionKey.name(), query.partition().get());
			carried = carried.stream().filter((attribute) -> !attribute.equals(partitionKey)).toList();
		}
		return new CursorBinding(digest.digest(), carried, fixed);
	}

	/** A condition's value: its type, then its bytes. */
	private static void value(MessageDigest digest, AttributeValue value) {
		field(digest, value.type().name());
		field(digest, switch (value.type()) {
			case S -> value.s().getBytes(StandardCharsets.UTF_8);
			// Equal numbers bind alike whatever their spelling (10 and 10.0), as DynamoDB compares them.
			case N -> canonical(value.n()).getBytes(StandardCharsets.US_ASCII);
			case B -> value.b().asByteArray();
			case BOOL -> value.bool().toString().getBytes(StandardCharsets.US_ASCII);
			default -> throw new IllegalArgumentException("conditions compare S, N, B or BOOL, not " + value.type());
		});
	}

	private static String canonical(String number) {
		BigDecimal stripped = new BigDecimal(number).stripTrailingZeros();
		return (stripped.signum() == 0) ? "0" : stripped.toPlainString();
	}

	private static void field(MessageDigest digest, String value) {
		field(digest, value.getBytes(StandardCharsets.UTF_8));
	}

	private static void field(MessageDigest digest, byte[] value) {
		int length = value.length;
		digest.update(new byte[] { (byte) (length >>> 24), (byte) (length >>> 16), (byte) (length >>> 8),
				(byte) length });
		digest.update(value);
	}

	private static MessageDigest sha256() {
		try {
			return MessageDigest.getInstance("SHA-256");
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("every Java platform has SHA-256", ex);
		}
	}

}
