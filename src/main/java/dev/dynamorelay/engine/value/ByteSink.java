package dev.dynamorelay.engine.value;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A growable array of bytes that the engine's encoders write into: the item codec's compact items, the
 * order-preserving keys, stream records, shard iterators and the journal's entries. {@link ByteSource} reads what
 * it wrote. Not thread-safe; one per encoding.
 */
public final class ByteSink {

	private byte[] bytes;

	private int length;

	/** A sink with room for {@code capacity} bytes before it grows. */
	public ByteSink(int capacity) {
		this.bytes = new byte[Math.max(capacity, 16)];
	}

	/** Appends one byte (the low eight bits of {@code b}). */
	public void write(int b) {
		ensure(1);
		this.bytes[this.length++] = (byte) b;
	}

	/** Appends {@code count} bytes of {@code source} from {@code offset}. */
	public void write(byte[] source, int offset, int count) {
		ensure(count);
		System.arraycopy(source, offset, this.bytes, this.length, count);
		this.length += count;
	}

	/** Appends all of {@code source}. */
	public void write(byte[] source) {
		write(source, 0, source.length);
	}

	/** Appends {@code value} as an unsigned LEB128 varint (seven bits a byte, low bits first). */
	public void writeVarint(int value) {
		ensure(5);
		int v = value;
		while ((v & ~0x7F) != 0) {
			this.bytes[this.length++] = (byte) ((v & 0x7F) | 0x80);
			v >>>= 7;
		}
		this.bytes[this.length++] = (byte) v;
	}

	/** Appends {@code value} as an unsigned LEB128 varint, as {@link #writeVarint(int)} does for an int. */
	public void writeVarLong(long value) {
		ensure(10);
		long v = value;
		while ((v & ~0x7FL) != 0) {
			this.bytes[this.length++] = (byte) ((v & 0x7F) | 0x80);
			v >>>= 7;
		}
		this.bytes[this.length++] = (byte) v;
	}

	/** Appends {@code value} as eight bytes, most significant first. */
	public void writeLong(long value) {
		ensure(8);
		for (int shift = 56; shift >= 0; shift -= 8) {
			this.bytes[this.length++] = (byte) (value >>> shift);
		}
	}

	/** Appends a string as the varint length of its UTF-8 bytes, then those bytes. */
	public void writeString(String text) {
		writeByteArray(text.getBytes(StandardCharsets.UTF_8));
	}

	/** Appends {@code source} as its varint length, then its bytes. */
	public void writeByteArray(byte[] source) {
		writeVarint(source.length);
		write(source);
	}

	/** Overwrites the byte at {@code index}, which must already be written. */
	public void set(int index, int b) {
		this.bytes[index] = (byte) b;
	}

	/** How many bytes were written. */
	public int length() {
		return this.length;
	}

	/** Forgets what was written, keeping the room. */
	public void reset() {
		this.length = 0;
	}

	/** The array written into, not copied: its first {@link #length()} bytes are valid until the next write. */
	public byte[] array() {
		return this.bytes;
	}

	/** A copy of what was written. */
	public byte[] toByteArray() {
		return Arrays.copyOf(this.bytes, this.length);
	}

	private void ensure(int more) {
		if (this.length + more > this.bytes.length) {
			this.bytes = Arrays.copyOf(this.bytes, Math.max(this.bytes.length * 2, this.length + more));
		}
	}

}
