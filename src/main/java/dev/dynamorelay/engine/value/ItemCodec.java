package dev.dynamorelay.engine.value;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Items at rest: one immutable byte array an item, with no object per attribute, decoded into the SDK's
 * {@code Map<String, AttributeValue>} when read. The array starts with the item's DynamoDB size and its page size
 * ({@link ItemSize#pageSize}: so that a Query counts its capacity and its 1 MB page without decoding), then the
 * number of attributes, then each attribute's name and value.
 *
 * <p>Format: {@code item = varint(size) varint(pageSize) varint(count) (name value)*}; {@code name = varint(length) utf8};
 * {@code value = tag payload}, the tag one byte: S and N (a number in DynamoDB's plain notation, ASCII) and B
 * {@code varint(length) bytes}; SS, NS, BS {@code varint(count)} and their members so; M {@code varint(count)
 * (name value)*}; L {@code varint(count) value*}; BOOL true, BOOL false and NULL nothing more.
 *
 * <p>Stream records and the journal keep keys and images in the same form without the two sizes
 * ({@link #writeAttributes}): one binary form of items in the engine. The journal's files hold it: a change to the
 * format needs a new version of the journal's files.
 */
public final class ItemCodec {

	private static final int S = 1;

	private static final int N = 2;

	private static final int B = 3;

	private static final int SS = 4;

	private static final int NS = 5;

	private static final int BS = 6;

	private static final int M = 7;

	private static final int L = 8;

	private static final int TRUE = 9;

	private static final int FALSE = 10;

	private static final int NULL = 11;

	private static final AttributeValue TRUE_VALUE = AttributeValue.fromBool(true);

	private static final AttributeValue FALSE_VALUE = AttributeValue.fromBool(false);

	private static final AttributeValue NULL_VALUE = AttributeValue.fromNul(true);

	private ItemCodec() {
	}

	/**
	 * The item's bytes; its values must be valid, its numbers normalized ({@link ValueChecks}); {@code rangeKey}
	 * is its table's sort key (null when none), for its page size.
	 */
	public static byte[] encode(Map<String, AttributeValue> item, String rangeKey) {
		return encode(item, ItemSize.of(item), ItemSize.pageSize(item, rangeKey));
	}

	/** The item's bytes, its DynamoDB size and page size already known. */
	public static byte[] encode(Map<String, AttributeValue> item, long size, long pageSize) {
		ByteSink out = new ByteSink((int) Math.min(size + 16 + item.size() * 4L, 1 << 20));
		out.writeVarint((int) size);
		out.writeVarint((int) pageSize);
		writeMap(out, item);
		return out.toByteArray();
	}

	/** The item's DynamoDB size, read from its bytes. */
	public static int size(byte[] bytes) {
		return new ByteSource(bytes).readVarint();
	}

	/** The item's page size ({@link ItemSize#pageSize}), read from its bytes. */
	public static int pageSize(byte[] bytes) {
		ByteSource in = new ByteSource(bytes);
		in.readVarint();
		return in.readVarint();
	}

	/** The item the bytes hold. */
	public static Map<String, AttributeValue> decode(byte[] bytes) {
		ByteSource in = new ByteSource(bytes);
		in.readVarint();
		in.readVarint();
		return readMap(in);
	}

	/** One top-level attribute of the item the bytes hold, or null when it has none of that name. */
	public static AttributeValue attribute(byte[] bytes, String name) {
		byte[] wanted = name.getBytes(StandardCharsets.UTF_8);
		ByteSource in = new ByteSource(bytes);
		in.readVarint();
		in.readVarint();
		int count = in.readVarint();
		for (int i = 0; i < count; i++) {
			int length = in.readVarint();
			in.need(length);
			boolean match = length == wanted.length
					&& Arrays.equals(bytes, in.position, in.position + length, wanted, 0, length);
			in.position += length;
			if (match) {
				return readValue(in);
			}
			skipValue(in);
		}
		return null;
	}

	/**
	 * Appends attributes (an item, a key, an image) without the stored form's sizes: their count, then each name and
	 * value, as a map is written inside an item. What stream records and the journal keep.
	 */
	public static void writeAttributes(ByteSink out, Map<String, AttributeValue> attributes) {
		writeMap(out, attributes);
	}

	/**
	 * Reads attributes {@link #writeAttributes} wrote, in the order they were written.
	 * @throws IllegalArgumentException when the bytes are not such attributes
	 */
	public static Map<String, AttributeValue> readAttributes(ByteSource in) {
		return readMap(in);
	}

	private static void writeMap(ByteSink out, Map<String, AttributeValue> map) {
		out.writeVarint(map.size());
		for (Map.Entry<String, AttributeValue> entry : map.entrySet()) {
			out.writeString(entry.getKey());
			writeValue(out, entry.getValue());
		}
	}

	private static void writeValue(ByteSink out, AttributeValue value) {
		if (value.s() != null) {
			out.write(S);
			out.writeString(value.s());
		}
		else if (value.n() != null) {
			out.write(N);
			writeAscii(out, value.n());
		}
		else if (value.b() != null) {
			out.write(B);
			out.writeByteArray(value.b().asByteArrayUnsafe());
		}
		else if (value.hasSs()) {
			out.write(SS);
			out.writeVarint(value.ss().size());
			for (String member : value.ss()) {
				out.writeString(member);
			}
		}
		else if (value.hasNs()) {
			out.write(NS);
			out.writeVarint(value.ns().size());
			for (String member : value.ns()) {
				writeAscii(out, member);
			}
		}
		else if (value.hasBs()) {
			out.write(BS);
			out.writeVarint(value.bs().size());
			for (SdkBytes member : value.bs()) {
				out.writeByteArray(member.asByteArrayUnsafe());
			}
		}
		else if (value.hasM()) {
			out.write(M);
			writeMap(out, value.m());
		}
		else if (value.hasL()) {
			out.write(L);
			out.writeVarint(value.l().size());
			for (AttributeValue member : value.l()) {
				writeValue(out, member);
			}
		}
		else if (value.bool() != null) {
			out.write(value.bool() ? TRUE : FALSE);
		}
		else if (value.nul() != null) {
			out.write(NULL);
		}
		else {
			throw new IllegalArgumentException("an attribute value without a type: " + value);
		}
	}

	private static void writeAscii(ByteSink out, String text) {
		int length = text.length();
		out.writeVarint(length);
		for (int i = 0; i < length; i++) {
			out.write(text.charAt(i));
		}
	}

	private static Map<String, AttributeValue> readMap(ByteSource in) {
		int count = in.readVarint();
		// every attribute takes two bytes at least: a count larger than that is not an item's
		Map<String, AttributeValue> map = new LinkedHashMap<>((int) (Math.min(count, in.remaining()) / 0.75f) + 1);
		for (int i = 0; i < count; i++) {
			String name = in.readString();
			map.put(name, readValue(in));
		}
		return map;
	}

	private static AttributeValue readValue(ByteSource in) {
		int tag = in.readByte();
		switch (tag) {
			case S:
				return AttributeValue.fromS(in.readString());
			case N:
				return AttributeValue.fromN(in.readLatin1());
			case B:
				return AttributeValue.fromB(SdkBytes.fromByteArrayUnsafe(in.readByteArray()));
			case SS: {
				int count = in.readVarint();
				List<String> members = new ArrayList<>(Math.min(count, in.remaining()));
				for (int i = 0; i < count; i++) {
					members.add(in.readString());
				}
				return AttributeValue.fromSs(members);
			}
			case NS: {
				int count = in.readVarint();
				List<String> members = new ArrayList<>(Math.min(count, in.remaining()));
				for (int i = 0; i < count; i++) {
					members.add(in.readLatin1());
				}
				return AttributeValue.fromNs(members);
			}
			case BS: {
				int count = in.readVarint();
				List<SdkBytes> members = new ArrayList<>(Math.min(count, in.remaining()));
				for (int i = 0; i < count; i++) {
					members.add(SdkBytes.fromByteArrayUnsafe(in.readByteArray()));
				}
				return AttributeValue.fromBs(members);
			}
			case M:
				return AttributeValue.fromM(readMap(in));
			case L: {
				int count = in.readVarint();
				List<AttributeValue> members = new ArrayList<>(Math.min(count, in.remaining()));
				for (int i = 0; i < count; i++) {
					members.add(readValue(in));
				}
				return AttributeValue.fromL(members);
			}
			case TRUE:
				return TRUE_VALUE;
			case FALSE:
				return FALSE_VALUE;
			case NULL:
				return NULL_VALUE;
			default:
				throw new IllegalArgumentException("not an item's bytes: tag " + tag + " at " + (in.position - 1));
		}
	}

	private static void skipValue(ByteSource in) {
		int tag = in.readByte();
		switch (tag) {
			case S, N, B -> in.skip(in.readVarint());
			case SS, NS, BS -> {
				int count = in.readVarint();
				for (int i = 0; i < count; i++) {
					in.skip(in.readVarint());
				}
			}
			case M -> {
				int count = in.readVarint();
				for (int i = 0; i < count; i++) {
					in.skip(in.readVarint());
					skipValue(in);
				}
			}
			case L -> {
				int count = in.readVarint();
				for (int i = 0; i < count; i++) {
					skipValue(in);
				}
			}
			case TRUE, FALSE, NULL -> {
				// nothing follows the tag
			}
			default -> throw new IllegalArgumentException("not an item's bytes: tag " + tag + " at " + (in.position - 1));
		}
	}

}
