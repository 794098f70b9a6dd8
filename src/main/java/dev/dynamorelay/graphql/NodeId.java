package dev.dynamorelay.graphql;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.dynamodb.ItemLoader.ItemKey;
import dev.dynamorelay.dynamodb.Tables;
import dev.dynamorelay.error.InvalidArgumentException;

/**
 * The opaque, global id of a node: its type and its primary key, in base64url without padding.
 *
 * <p>Ids are references, not positions: they are not signed (anyone may name any item), but they are
 * parsed strictly, so a malformed id is refused as {@code INVALID_ARGUMENT} and never reaches
 * DynamoDB.
 */
public sealed interface NodeId permits NodeId.UserId, NodeId.PurchaseId, NodeId.MovieId {

	/** The encoded id. */
	String encode();

	/** The item's key in its table. */
	ItemKey key(Tables tables);

	/**
	 * Parses an id.
	 * @throws InvalidArgumentException if {@code id} is not an id this server issues
	 */
	static NodeId decode(String id) {
		byte[] raw = Codec.base64(id);
		if (raw.length < 1) {
			throw Codec.malformed(id);
		}
		ByteBuffer in = ByteBuffer.wrap(raw, 1, raw.length - 1);
		List<String> parts = new ArrayList<>(2);
		while (in.hasRemaining()) {
			parts.add(Codec.readString(in, id));
		}
		NodeId decoded;
		try {
			decoded = switch (raw[0]) {
				case 'U' -> {
					Codec.expect(parts, 1, id);
					yield new UserId(parts.get(0));
				}
				case 'P' -> {
					Codec.expect(parts, 2, id);
					yield new PurchaseId(parts.get(0), Long.parseLong(parts.get(1)));
				}
				case 'M' -> {
					Codec.expect(parts, 2, id);
					yield new MovieId(Integer.parseInt(parts.get(0)), parts.get(1));
				}
				default -> throw Codec.malformed(id);
			};
		}
		catch (IllegalArgumentException ex) {
			throw Codec.malformed(id);
		}
		// One spelling per id: "+5" or "05" in a number part is not ours.
		if (!decoded.encode().equals(id)) {
			throw Codec.malformed(id);
		}
		return decoded;
	}

	/** The id of a {@code Users} item. */
	record UserId(String userId) implements NodeId {

		public UserId {
			Codec.requireKey(userId);
		}

		@Override
		public String encode() {
			return Codec.encode('U', this.userId);
		}

		@Override
		public ItemKey key(Tables tables) {
			return new ItemKey(tables.users(), Map.of("userId", AttributeValue.fromS(this.userId)));
		}

	}

	/** The id of a {@code UserPurchases} item. */
	record PurchaseId(String userId, long purchasedAt) implements NodeId {

		public PurchaseId {
			Codec.requireKey(userId);
		}

		@Override
		public String encode() {
			return Codec.encode('P', this.userId, Long.toString(this.purchasedAt));
		}

		@Override
		public ItemKey key(Tables tables) {
			return new ItemKey(tables.purchases(), Map.of("userId", AttributeValue.fromS(this.userId), "purchasedAt",
					AttributeValue.fromN(Long.toString(this.purchasedAt))));
		}

	}

	/** The id of a {@code Movies} item. */
	record MovieId(int year, String title) implements NodeId {

		public MovieId {
			Codec.requireKey(title);
		}

		@Override
		public String encode() {
			return Codec.encode('M', Integer.toString(this.year), this.title);
		}

		@Override
		public ItemKey key(Tables tables) {
			return new ItemKey(tables.movies(),
					Map.of("year", AttributeValue.fromN(Integer.toString(this.year)), "title", AttributeValue.fromS(this.title)));
		}

	}

	/** The byte format: a type letter, then each part as a varint length and UTF-8 bytes. */
	final class Codec {

		private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();

		private static final int MAX_LENGTH = 4096;

		private Codec() {
		}

		static String encode(char type, String... parts) {
			ByteArrayOutputStream out = new ByteArrayOutputStream();
			out.write(type);
			for (String part : parts) {
				byte[] bytes = part.getBytes(StandardCharsets.UTF_8);
				int length = bytes.length;
				while ((length & ~0x7F) != 0) {
					out.write((length & 0x7F) | 0x80);
					length >>>= 7;
				}
				out.write(length);
				out.writeBytes(bytes);
			}
			return ENCODER.encodeToString(out.toByteArray());
		}

		static byte[] base64(String id) {
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
			if (!ENCODER.encodeToString(raw).equals(id)) {
				throw malformed(id);
			}
			return raw;
		}

		static String readString(ByteBuffer in, String id) {
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

		static void expect(List<String> parts, int count, String id) {
			if (parts.size() != count) {
				throw malformed(id);
			}
		}

		static void requireKey(String value) {
			Objects.requireNonNull(value, "key");
			if (value.isEmpty()) {
				throw new IllegalArgumentException("key attributes are never empty");
			}
		}

		static InvalidArgumentException malformed(String id) {
			return new InvalidArgumentException(
					"`%s` is not a node id of this server: pass an `id` exactly as a query returned it."
						.formatted(abbreviate(id)));
		}

		private static String abbreviate(String id) {
			if (id == null) {
				return "null";
			}
			return (id.length() > 64) ? id.substring(0, 64) + "..." : id;
		}

	}

}
