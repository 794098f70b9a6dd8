package dev.dynamorelay.engine.value;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads what a {@link ByteSink} wrote, from a range of an array: the item codec's items, stream records, shard
 * iterators and the journal's entries. Every read is checked against the range's end, so that bytes that are
 * not what they should be (a garbled iterator, a journal written by another format) fail with an
 * {@link IllegalArgumentException} instead of reading past them. Not thread-safe; one per reading.
 */
public final class ByteSource {

	final byte[] bytes;

	/** Where the next read starts; the item codec moves it past what it skips. */
	int position;

	private final int end;

	/** Reads all of {@code bytes}. */
	public ByteSource(byte[] bytes) {
		this(bytes, 0, bytes.length);
	}

	/** Reads {@code length} bytes of {@code bytes} from {@code offset}. */
	public ByteSource(byte[] bytes, int offset, int length) {
		this.bytes = bytes;
		this.position = offset;
		this.end = offset + length;
	}

	/** Whether every byte of the range was read. */
	public boolean atEnd() {
		return this.position >= this.end;
	}

	/** Where reading is, in the array. */
	public int position() {
		return this.position;
	}

	/** How many bytes of the range are left to read. */
	public int remaining() {
		return this.end - this.position;
	}

	/** Fails unless {@code count} more bytes are there. */
	void need(int count) {
		if (count < 0 || this.end - this.position < count) {
			throw new IllegalArgumentException("truncated: " + count + " bytes wanted at " + this.position + ", "
					+ (this.end - this.position) + " left");
		}
	}

	/** One byte, unsigned. */
	public int readByte() {
		need(1);
		return this.bytes[this.position++] & 0xFF;
	}

	/** An unsigned LEB128 varint of up to 64 bits. */
	public long readVarLong() {
		long value = 0;
		for (int shift = 0; shift < 64; shift += 7) {
			int next = readByte();
			value |= (long) (next & 0x7F) << shift;
			if ((next & 0x80) == 0) {
				return value;
			}
		}
		throw new IllegalArgumentException("a varint longer than 10 bytes at " + this.position);
	}

	/** A varint that must be a non-negative int: a length, a count or a size. */
	public int readVarint() {
		long value = readVarLong();
		if (value < 0 || value > Integer.MAX_VALUE) {
			throw new IllegalArgumentException("a length out of range: " + value);
		}
		return (int) value;
	}

	/** Eight bytes, most significant first. */
	public long readLong() {
		need(8);
		long value = 0;
		for (int i = 0; i < 8; i++) {
			value = (value << 8) | (this.bytes[this.position++] & 0xFF);
		}
		return value;
	}

	/** A string {@link ByteSink#writeString} wrote. */
	public String readString() {
		int length = readVarint();
		need(length);
		String text = new String(this.bytes, this.position, length, StandardCharsets.UTF_8);
		this.position += length;
		return text;
	}

	/** A string of one byte a character (ISO-8859-1, of which ASCII is part), its varint length first. */
	public String readLatin1() {
		int length = readVarint();
		need(length);
		String text = new String(this.bytes, this.position, length, StandardCharsets.ISO_8859_1);
		this.position += length;
		return text;
	}

	/** A byte array {@link ByteSink#writeByteArray} wrote, copied. */
	public byte[] readByteArray() {
		int length = readVarint();
		need(length);
		byte[] copy = Arrays.copyOfRange(this.bytes, this.position, this.position + length);
		this.position += length;
		return copy;
	}

	/** Passes over {@code count} bytes. */
	public void skip(int count) {
		need(count);
		this.position += count;
	}

}
