package dev.dynamorelay.engine.value;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
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
		return new Reader(bytes, 0).varint();
	}

	/** The item's page size ({@link ItemSize#pageSize}), read from its bytes. */
	public static int pageSize(byte[] bytes) {
		Reader in = new Reader(bytes, 0);
		in.varint();
		return in.varint();
	}

	/** The item the bytes hold. */
	public static Map<String, AttributeValue> decode(byte[] bytes) {
		Reader in = new Reader(bytes, 0);
		in.varint();
		in.varint();
		return in.map();
	}

	/** One top-level attribute of the item the bytes hold, or null when it has none of that name. */
	public static AttributeValue attribute(byte[] bytes, String name) {
		byte[] wanted = name.getBytes(StandardCharsets.UTF_8);
		Reader in = new Reader(bytes, 0);
		in.varint();
		in.varint();
		int count = in.varint();
		for (int i = 0; i < count; i++) {
			int length = in.varint();
			boolean match = length == wanted.length
					&& java.util.Arrays.equals(bytes, in.position, in.position + length, wanted, 0, length);
			in.position += length;
			if (match) {
				return in.value();
			}
			in.skipValue();
		}
		return null;
	}

	private static void writeMap(ByteSink out, Map<String, AttributeValue> map) {
		out.writeVarint(map.size());
		for (Map.Entry<String, AttributeValue> entry : map.entrySet()) {
			writeString(out, entry.getKey());
			writeValue(out, entry.getValue());
		}
	}

	private static void writeValue(ByteSink out, AttributeValue value) {
		if (value.s() != null) {
			out.write(S);
			writeString(out, value.s());
		}
		else if (value.n() != null) {
			out.write(N);
			writeAscii(out, value.n());
		}
		else if (value.b() != null) {
			out.write(B);
			byte[] bytes = value.b().asByteArrayUnsafe();
			out.writeVarint(bytes.length);
			out.write(bytes);
		}
		else if (value.hasSs()) {
			out.write(SS);
			out.writeVarint(value.ss().size());
			for (String member : value.ss()) {
				writeString(out, member);
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
				byte[] bytes = member.asByteArrayUnsafe();
				out.writeVarint(bytes.length);
				out.write(bytes);
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

	private static void writeString(ByteSink out, String text) {
		byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
		out.writeVarint(bytes.length);
		out.write(bytes);
	}

	private static void writeAscii(ByteSink out, String text) {
		int length = text.length();
		out.writeVarint(length);
		for (int i = 0; i < length; i++) {
			out.write(text.charAt(i));
		}
	}

	/** Reads values from an item's bytes. */
	private static final class Reader {

		private final byte[] bytes;

		private int position;

		Reader(byte[] bytes, int position) {
			this.bytes = bytes;
			this.position = position;
		}

		int varint() {
			int value = 0;
			int shift = 0;
			while (true) {
				int b = this.bytes[this.position++];
				value |= (b & 0x7F) << shift;
				if ((b & 0x80) == 0) {
					return value;
				}
				shift += 7;
			}
		}

		String string() {
			int length = varint();
			String text = new String(this.bytes, this.position, length, StandardCharsets.UTF_8);
			this.position += length;
			return text;
		}

		String ascii() {
			int length = varint();
			String text = new String(this.bytes, this.position, length, StandardCharsets.ISO_8859_1);
			this.position += length;
			return text;
		}

		byte[] binary() {
			int length = varint();
			byte[] copy = java.util.Arrays.copyOfRange(this.bytes, this.position, this.position + length);
			this.position += length;
			return copy;
		}

		Map<String, AttributeValue> map() {
			int count = varint();
			Map<String, AttributeValue> map = new LinkedHashMap<>((int) (count / 0.75f) + 1);
			for (int i = 0; i < count; i++) {
				String name = string();
				map.put(name, value());
			}
			return map;
		}

		AttributeValue value() {
			int tag = this.bytes[this.position++];
			switch (tag) {
				case S:
					return AttributeValue.fromS(string());
				case N:
					return AttributeValue.fromN(ascii());
				case B:
					return AttributeValue.fromB(SdkBytes.fromByteArrayUnsafe(binary()));
				case SS: {
					int count = varint();
					List<String> members = new ArrayList<>(count);
					for (int i = 0; i < count; i++) {
						members.add(string());
					}
					return AttributeValue.fromSs(members);
				}
				case NS: {
					int count = varint();
					List<String> members = new ArrayList<>(count);
					for (int i = 0; i < count; i++) {
						members.add(ascii());
					}
					return AttributeValue.fromNs(members);
				}
				case BS: {
					int count = varint();
					List<SdkBytes> members = new ArrayList<>(count);
					for (int i = 0; i < count; i++) {
						members.add(SdkBytes.fromByteArrayUnsafe(binary()));
					}
					return AttributeValue.fromBs(members);
				}
				case M:
					return AttributeValue.fromM(map());
				case L: {
					int count = varint();
					List<AttributeValue> members = new ArrayList<>(count);
					for (int i = 0; i < count; i++) {
						members.add(value());
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
					throw new IllegalStateException("not an item's bytes: tag " + tag + " at " + (this.position - 1));
			}
		}

		void skipValue() {
			int tag = this.bytes[this.position++];
			switch (tag) {
				case S, N, B -> {
					int length = varint();
					this.position += length;
				}
				case SS, NS, BS -> {
					int count = varint();
					for (int i = 0; i < count; i++) {
						int length = varint();
						this.position += length;
					}
				}
				case M -> {
					int count = varint();
					for (int i = 0; i < count; i++) {
						int length = varint();
						this.position += length;
						skipValue();
					}
				}
				case L -> {
					int count = varint();
					for (int i = 0; i < count; i++) {
						skipValue();
					}
				}
				default -> {
					// TRUE, FALSE, NULL: nothing follows the tag
				}
			}
		}

	}

}
