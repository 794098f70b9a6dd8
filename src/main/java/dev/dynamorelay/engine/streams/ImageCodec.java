package dev.dynamorelay.engine.streams;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The binary form of items (and single values) that stream records and the journal keep: a tag byte per value,
 * lengths and counts as unsigned varints, strings and numbers as their UTF-8 bytes. It is compact (an item of
 * 200 bytes of data takes a few bytes more), holds no objects per attribute at rest, and is decoded only when a
 * record is read. The format is part of the journal's files: a change to it needs a new journal version.
 */
public final class ImageCodec {

	private static final byte NULL = 0;

	private static final byte S = 1;

	private static final byte N = 2;

	private static final byte B = 3;

	private static final byte TRUE = 4;

	private static final byte FALSE = 5;

	private static final byte SS = 6;

	private static final byte NS = 7;

	private static final byte BS = 8;

	private static final byte L = 9;

	private static final byte M = 10;

	private ImageCodec() {
	}

	/** A growable byte array written from the front: what an encoding goes into. */
	public static final class Sink {

		private byte[] bytes;

		private int size;

		public Sink(int capacity) {
			this.bytes = new byte[Math.max(16, capacity)];
		}

		/** The bytes written so far, copied. */
		public byte[] toByteArray() {
			return Arrays.copyOf(this.bytes, this.size);
		}

		/** How many bytes were written. */
		public int size() {
			return this.size;
		}

		/** The bytes written so far, not copied: valid until the next write. */
		public byte[] array() {
			return this.bytes;
		}

		/** Forgets what was written, keeping the capacity. */
		public void reset() {
			this.size = 0;
		}

		private void ensure(int more) {
			if (this.size + more > this.bytes.length) {
				this.bytes = Arrays.copyOf(this.bytes, Math.max(this.bytes.length * 2, this.size + more));
			}
		}

		public void writeByte(int value) {
			ensure(1);
			this.bytes[this.size++] = (byte) value;
		}

		public void writeBytes(byte[] value, int offset, int length) {
			ensure(length);
			System.arraycopy(value, offset, this.bytes, this.size, length);
			this.size += length;
		}

		/** An unsigned varint (7 bits a byte, least significant first). */
		public void writeVarLong(long value) {
			ensure(10);
			while ((value & ~0x7FL) != 0) {
				this.bytes[this.size++] = (byte) ((value & 0x7F) | 0x80);
				value >>>= 7;
			}
			this.bytes[this.size++] = (byte) value;
		}

		public void writeLong(long value) {
			ensure(8);
			for (int shift = 56; shift >= 0; shift -= 8) {
				this.bytes[this.size++] = (byte) (value >>> shift);
			}
		}

		/** A string as its UTF-8 length and bytes. */
		public void writeString(String value) {
			byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
			writeVarLong(utf8.length);
			writeBytes(utf8, 0, utf8.length);
		}

		/** A byte array as its length and bytes. */
		public void writeByteArray(byte[] value) {
			writeVarLong(value.length);
			writeBytes(value, 0, value.length);
		}

	}

	/** Reads what a {@link Sink} wrote, from an array's range. */
	public static final class Source {

		private final byte[] bytes;

		private int position;

		private final int end;

		public Source(byte[] bytes) {
			this(bytes, 0, bytes.length);
		}

		public Source(byte[] bytes, int offset, int length) {
			this.bytes = bytes;
			this.position = offset;
			this.end = offset + length;
		}

		/** Whether every byte was read. */
		public boolean atEnd() {
			return this.position >= this.end;
		}

		/** Where reading is, in the array. */
		public int position() {
			return this.position;
		}

		private void need(int count) {
			if (count < 0 || this.end - this.position < count) {
				throw new IllegalArgumentException("truncated: " + count + " bytes wanted at " + this.position);
			}
		}

		public int readByte() {
			need(1);
			return this.bytes[this.position++] & 0xFF;
		}

		public long readVarLong() {
			long value = 0;
			for (int shift = 0; shift < 64; shift += 7) {
				int next = readByte();
				value |= (long) (next & 0x7F) << shift;
				if ((next & 0x80) == 0) {
					return value;
				}
			}
			throw new IllegalArgumentException("varint longer than 10 bytes at " + this.position);
		}

		/** A varint that must fit a non-negative int: a length or count. */
		public int readLength() {
			long value = readVarLong();
			if (value < 0 || value > Integer.MAX_VALUE) {
				throw new IllegalArgumentException("length out of range: " + value);
			}
			return (int) value;
		}

		public long readLong() {
			need(8);
			long value = 0;
			for (int i = 0; i < 8; i++) {
				value = (value << 8) | (this.bytes[this.position++] & 0xFF);
			}
			return value;
		}

		public String readString() {
			int length = readLength();
			need(length);
			String value = new String(this.bytes, this.position, length, StandardCharsets.UTF_8);
			this.position += length;
			return value;
		}

		/** Passes over {@code count} bytes. */
		public void skip(int count) {
			need(count);
			this.position += count;
		}

		public byte[] readByteArray() {
			int length = readLength();
			need(length);
			byte[] value = Arrays.copyOfRange(this.bytes, this.position, this.position + length);
			this.position += length;
			return value;
		}

	}

	/** Writes an item (or any map of attributes): its size, then each name and value. */
	public static void writeItem(Sink sink, Map<String, AttributeValue> item) {
		sink.writeVarLong(item.size());
		for (Map.Entry<String, AttributeValue> attribute : item.entrySet()) {
			sink.writeString(attribute.getKey());
			writeValue(sink, attribute.getValue());
		}
	}

	/** Reads an item {@link #writeItem} wrote; its attributes in the order they were written. */
	public static Map<String, AttributeValue> readItem(Source source) {
		int size = source.readLength();
		Map<String, AttributeValue> item = new LinkedHashMap<>(Math.max(4, size * 4 / 3 + 1));
		for (int i = 0; i < size; i++) {
			String name = source.readString();
			item.put(name, readValue(source));
		}
		return item;
	}

	/** An item's binary form, alone. */
	public static byte[] encodeItem(Map<String, AttributeValue> item) {
		Sink sink = new Sink(64);
		writeItem(sink, item);
		return sink.toByteArray();
	}

	/** The item of {@link #encodeItem}. */
	public static Map<String, AttributeValue> decodeItem(byte[] bytes) {
		return readItem(new Source(bytes));
	}

	public static void writeValue(Sink sink, AttributeValue value) {
		switch (value.type()) {
			case NUL -> sink.writeByte(NULL);
			case S -> {
				sink.writeByte(S);
				sink.writeString(value.s());
			}
			case N -> {
				sink.writeByte(N);
				sink.writeString(value.n());
			}
			case B -> {
				sink.writeByte(B);
				sink.writeByteArray(value.b().asByteArrayUnsafe());
			}
			case BOOL -> sink.writeByte(Boolean.TRUE.equals(value.bool()) ? TRUE : FALSE);
			case SS -> {
				sink.writeByte(SS);
				sink.writeVarLong(value.ss().size());
				value.ss().forEach(sink::writeString);
			}
			case NS -> {
				sink.writeByte(NS);
				sink.writeVarLong(value.ns().size());
				value.ns().forEach(sink::writeString);
			}
			case BS -> {
				sink.writeByte(BS);
				sink.writeVarLong(value.bs().size());
				value.bs().forEach((element) -> sink.writeByteArray(element.asByteArrayUnsafe()));
			}
			case L -> {
				sink.writeByte(L);
				sink.writeVarLong(value.l().size());
				value.l().forEach((element) -> writeValue(sink, element));
			}
			case M -> {
				sink.writeByte(M);
				writeItem(sink, value.m());
			}
			default -> throw new IllegalArgumentException("an attribute value of no known type: " + value);
		}
	}

	public static AttributeValue readValue(Source source) {
		int tag = source.readByte();
		return switch (tag) {
			case NULL -> AttributeValue.fromNul(true);
			case S -> AttributeValue.fromS(source.readString());
			case N -> AttributeValue.fromN(source.readString());
			case B -> AttributeValue.fromB(SdkBytes.fromByteArrayUnsafe(source.readByteArray()));
			case TRUE -> AttributeValue.fromBool(true);
			case FALSE -> AttributeValue.fromBool(false);
			case SS -> AttributeValue.fromSs(readStrings(source));
			case NS -> AttributeValue.fromNs(readStrings(source));
			case BS -> {
				int size = source.readLength();
				List<SdkBytes> elements = new ArrayList<>(Math.min(size, 1024));
				for (int i = 0; i < size; i++) {
					elements.add(SdkBytes.fromByteArrayUnsafe(source.readByteArray()));
				}
				yield AttributeValue.fromBs(elements);
			}
			case L -> {
				int size = source.readLength();
				List<AttributeValue> elements = new ArrayList<>(Math.min(size, 1024));
				for (int i = 0; i < size; i++) {
					elements.add(readValue(source));
				}
				yield AttributeValue.fromL(elements);
			}
			case M -> AttributeValue.fromM(readItem(source));
			default -> throw new IllegalArgumentException("unknown value tag " + tag + " at " + (source.position() - 1));
		};
	}

	private static List<String> readStrings(Source source) {
		int size = source.readLength();
		List<String> elements = new ArrayList<>(Math.min(size, 1024));
		for (int i = 0; i < size; i++) {
			elements.add(source.readString());
		}
		return elements;
	}

}
