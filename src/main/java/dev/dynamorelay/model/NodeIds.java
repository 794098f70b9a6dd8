package dev.dynamorelay.model;

import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

import dev.dynamorelay.error.InvalidArgumentException;
import dev.dynamorelay.model.KeyAttribute;

/**
 * The opaque global id of a node: its type name and its table's primary key values, in base64url
 * without padding.
 *
 * <p>Ids are references, not positions: they are not signed (anyone may name any item), but they are
 * parsed strictly (one spelling per id, key values of the table's key types that DynamoDB can hold:
 * numbers in its range, strings and bytes within its key sizes, and a key that is one field a value of that
 * field's type: a whole number for an {@code Int}), so a malformed or forged id is refused
 * as {@code INVALID_ARGUMENT} and never reaches DynamoDB.
 */
public final class NodeIds {

	/** The contract's fixed limit on the ids of one {@code nodes(ids)}. */
	public static final int MAX_PER_REQUEST = 100;

	private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();

	private static final int MAX_LENGTH = 4096;

	private NodeIds() {
	}

	/** The id of {@code item}, an item of {@code entity} with every key attribute. */
	public static String encode(Entity entity, Map<String, AttributeValue> item) {
		ByteArrayOutputStream out = new ByteArrayOutputStream(64);
		write(out, entity.name().getBytes(StandardCharsets.UTF_8));
		for (KeyAttribute attribute : entity.table().primaryKey()) {
			AttributeValue value = item.get(attribute.name());
			if (value == null) {
				throw new IllegalStateException("item lacks its key attribute " + attribute.name());
			}
			write(out, switch (attribute.type()) {
				case S -> value.s().getBytes(StandardCharsets.UTF_8);
				case N -> value.n().getBytes(StandardCharsets.US_ASCII);
				case B -> value.b().asByteArray();
				default -> throw new IllegalStateException("key attributes are S, N or B");
			});
		}
		return ENCODER.encodeToString(out.toByteArray());
	}

	/**
	 * The type and key an id names.
	 * @param types the declared node type of a type name, if there is one
	 * @throws InvalidArgumentException if {@code id} is not an id this server issues
	 */
	public static Key decode(String id, Function<String, Optional<Entity>> types) {
		ByteBuffer in = ByteBuffer.wrap(base64(id));
		Entity entity = types.apply(text(read(in, id), id)).orElseThrow(() -> malformed(id));
		Map<String, AttributeValue> key = new LinkedHashMap<>();
		int maxBytes = KeyValue.MAX_PARTITION_KEY_BYTES;
		for (KeyAttribute attribute : entity.table().primaryKey()) {
			byte[] bytes = read(in, id);
			// A key DynamoDB cannot hold names no item: it would only come back as a ValidationException.
			if (bytes.length == 0 || (attribute.type() != ScalarAttributeType.N && bytes.length > maxBytes)) {
				throw malformed(id);
			}
			maxBytes = KeyValue.MAX_SORT_KEY_BYTES;
			key.put(attribute.name(), switch (attribute.type()) {
				case S -> AttributeValue.fromS(text(bytes, id));
				case N -> AttributeValue.fromN(number(new String(bytes, StandardCharsets.US_ASCII), id));
				case B -> AttributeValue.fromB(SdkBytes.fromByteArray(bytes));
				default -> throw malformed(id);
			});
		}
		if (in.hasRemaining()) {
			throw malformed(id);
		}
		whole(entity, entity.table().partitionKey(), entity.partition(), key, id);
		entity.sort().ifPresent((template) -> whole(entity, entity.table().sortKey().orElseThrow(), template, key, id));
		return new Key(entity, key);
	}

	/**
	 * Refuses a key attribute that is one field of the type, and a value that field cannot hold: a Movie's
	 * {@code year: Int} is never {@code 1.5} or {@code 1E+38}, though DynamoDB would hold either, so an id that
	 * says so names no item of the type (its {@code year} could not be served).
	 */
	private static void whole(Entity entity, KeyAttribute attribute, KeyTemplate template, Map<String, AttributeValue> key,
			String id) {
		if (!template.isPlaceholder()) {
			return;
		}
		Entity.AttributeField field = entity.fields().get(template.placeholders().get(0));
		if (field != null && field.type().read(key.get(attribute.name())) == null) {
			throw malformed(id);
		}
	}

	private static String number(String text, String id) {
		try {
			BigDecimal number = new BigDecimal(text);
			// Checked first: DynamoDB refuses such a key, and a plain form of 1E+999999999 would not fit in memory.
			if (!DynamoDbNumbers.stores(number)) {
				throw malformed(id);
			}
			String plain = number.stripTrailingZeros().toPlainString();
			// One spelling per id: "+5", "05" or "5.0" is not how DynamoDB returns a number.
			if (!plain.equals(text) && !(number.signum() == 0 && text.equals("0"))) {
				throw malformed(id);
			}
			return text;
		}
		catch (NumberFormatException ex) {
			throw malformed(id);
		}
	}

	private static void write(ByteArrayOutputStream out, byte[] bytes) {
		int length = bytes.length;
		while ((length & ~0x7F) != 0) {
			out.write((length & 0x7F) | 0x80);
			length >>>= 7;
		}
		out.write(length);
		out.writeBytes(bytes);
	}

	private static byte[] read(ByteBuffer in, String id) {
		int length = 0;
		int shift = 0;
		while (true) {
			if (!in.hasRemaining() || shift > 21) {
				throw malformed(id);
			}
			byte b = in.get();
			length |= (b & 0x7F) << shift;
			if ((b & 0x80) == 0) {
				break;
			}
			shift += 7;
		}
		if (length > in.remaining()) {
			throw malformed(id);
		}
		byte[] bytes = new byte[length];
		in.get(bytes);
		return bytes;
	}

	private static String text(byte[] bytes, String id) {
		try {
			return StandardCharsets.UTF_8.newDecoder()
				.onMalformedInput(CodingErrorAction.REPORT)
				.onUnmappableCharacter(CodingErrorAction.REPORT)
				.decode(ByteBuffer.wrap(bytes))
				.toString();
		}
		catch (CharacterCodingException ex) {
			throw malformed(id);
		}
	}

	private static byte[] base64(String id) {
		if (id == null || id.isEmpty() || id.length() > MAX_LENGTH
				|| !id.chars().allMatch((c) -> (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
						|| c == '-' || c == '_')) {
			throw malformed(id);
		}
		byte[] raw;
		try {
			raw = Base64.getUrlDecoder().decode(id);
		}
		catch (IllegalArgumentException ex) {
			throw malformed(id);
		}
		// Base64 lets the last character's unused bits vary; only the canonical spelling is ours.
		if (!ENCODER.encodeToString(raw).equals(id)) {
			throw malformed(id);
		}
		return raw;
	}

	private static InvalidArgumentException malformed(String id) {
		String shown = (id == null) ? "null" : (id.length() > 64) ? id.substring(0, 64) + "..." : id;
		return new InvalidArgumentException(
				"`%s` is not a node id of this server: pass an `id` exactly as a query returned it.".formatted(shown));
	}

	/**
	 * What a node id names.
	 *
	 * @param entity the declared type
	 * @param key the item's primary key in the type's table
	 */
	public record Key(Entity entity, Map<String, AttributeValue> key) {
	}

}
