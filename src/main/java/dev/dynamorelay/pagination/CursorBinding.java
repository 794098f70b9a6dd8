package dev.dynamorelay.pagination;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Map;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * What a cursor is bound to, and which of its position attributes travel inside it.
 *
 * <p>The fingerprint is a SHA-256 over the connection's field, its partition (the parent), its
 * sort-key prefix, filter and order: the MAC of a cursor covers it, so a cursor verifies only where
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
			AttributeValue partition = query.partition().get();
			field(digest, "partition");
			field(digest, partition.type().name());
			field(digest, partitionValue(partition));
		}
		query.sortKeyPrefix().ifPresent((prefix) -> {
			field(digest, "prefix");
			field(digest, prefix);
		});
		query.filter().ifPresent((filter) -> {
			field(digest, "min");
			field(digest, filter.attribute());
			field(digest, filter.number());
		});
		field(digest, "order");
		field(digest, query.order().name());

		Map<String, AttributeValue> fixed = Map.of();
		List<KeyAttribute> carried = definition.positionKey();
		if (definition.partitionKey().isPresent() && query.partition().isPresent()) {
			KeyAttribute partitionKey = definition.partitionKey().get();
			fixed = Map.of(partitionKey.name(), query.partition().get());
			carried = carried.stream().filter((attribute) -> !attribute.equals(partitionKey)).toList();
		}
		return new CursorBinding(digest.digest(), carried, fixed);
	}

	private static byte[] partitionValue(AttributeValue value) {
		return switch (value.type()) {
			case S -> value.s().getBytes(StandardCharsets.UTF_8);
			case N -> value.n().getBytes(StandardCharsets.US_ASCII);
			case B -> value.b().asByteArray();
			default -> throw new IllegalArgumentException("a partition key is S, N or B, not " + value.type());
		};
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
