package dev.dynamorelay.engine.journal;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.zip.CRC32C;

/**
 * The unit the journal's files are made of: a frame is a magic number, its payload's length, a CRC-32C of the
 * length and the payload, and the payload. A frame is whole or it is not there: a reader checks each before it
 * uses a byte of it. The log writes one frame per group commit and forces it to disk before it writes the next,
 * so that only the last frame of the newest log file can be torn by a crash.
 */
final class Frames {

	/** "DRJF": the start of every frame. */
	static final int MAGIC = 0x44524A46;

	static final int HEADER = 12;

	/** No frame is larger: a longer length is damage, not a frame. */
	static final int MAX_PAYLOAD = 1 << 30;

	private Frames() {
	}

	/** The 12 header bytes of a frame of {@code length} bytes of {@code payload} from {@code offset}. */
	static byte[] header(byte[] payload, int offset, int length) {
		byte[] header = new byte[HEADER];
		putInt(header, 0, MAGIC);
		putInt(header, 4, length);
		putInt(header, 8, crc(header, payload, offset, length));
		return header;
	}

	private static int crc(byte[] header, byte[] payload, int offset, int length) {
		CRC32C crc = new CRC32C();
		crc.update(header, 4, 4);
		crc.update(payload, offset, length);
		return (int) crc.getValue();
	}

	static void putInt(byte[] into, int at, int value) {
		into[at] = (byte) (value >>> 24);
		into[at + 1] = (byte) (value >>> 16);
		into[at + 2] = (byte) (value >>> 8);
		into[at + 3] = (byte) value;
	}

	static int getInt(byte[] from, int at) {
		return ((from[at] & 0xFF) << 24) | ((from[at + 1] & 0xFF) << 16) | ((from[at + 2] & 0xFF) << 8) | (from[at + 3] & 0xFF);
	}

	/** The payload length of a whole, intact frame at {@code at} in {@code bytes[0, end)}; -1 when there is none. */
	static int intactAt(byte[] bytes, int at, int end) {
		if (end - at < HEADER || getInt(bytes, at) != MAGIC) {
			return -1;
		}
		int length = getInt(bytes, at + 4);
		if (length < 0 || length > MAX_PAYLOAD || length > end - at - HEADER) {
			return -1;
		}
		CRC32C crc = new CRC32C();
		crc.update(bytes, at + 4, 4);
		crc.update(bytes, at + HEADER, length);
		return (getInt(bytes, at + 8) == (int) crc.getValue()) ? length : -1;
	}

	/** Whether an intact frame starts anywhere in {@code bytes[from, end)}: what tells damage from a torn tail. */
	static boolean anyIntactFrom(byte[] bytes, int from, int end) {
		for (int at = from; at <= end - HEADER; at++) {
			if (bytes[at] == 'D' && intactAt(bytes, at, end) >= 0) {
				return true;
			}
		}
		return false;
	}

	/**
	 * A stream cut into frames of at most {@code chunk} bytes: a snapshot is written through one, so that each
	 * piece of it is checked as it is read back.
	 */
	static final class Output extends OutputStream {

		private final OutputStream out;

		private final byte[] buffer;

		private int size;

		Output(OutputStream out, int chunk) {
			this.out = out;
			this.buffer = new byte[chunk];
		}

		@Override
		public void write(int b) throws IOException {
			if (this.size == this.buffer.length) {
				emit();
			}
			this.buffer[this.size++] = (byte) b;
		}

		@Override
		public void write(byte[] bytes, int offset, int length) throws IOException {
			while (length > 0) {
				if (this.size == this.buffer.length) {
					emit();
				}
				int part = Math.min(length, this.buffer.length - this.size);
				System.arraycopy(bytes, offset, this.buffer, this.size, part);
				this.size += part;
				offset += part;
				length -= part;
			}
		}

		/** Writes what is buffered as a frame (the underlying stream is flushed, not forced). */
		@Override
		public void flush() throws IOException {
			if (this.size > 0) {
				emit();
			}
			this.out.flush();
		}

		private void emit() throws IOException {
			this.out.write(header(this.buffer, 0, this.size));
			this.out.write(this.buffer, 0, this.size);
			this.size = 0;
		}

		@Override
		public void close() throws IOException {
			flush();
			this.out.close();
		}

	}

	/** Reads what an {@link Output} wrote, each frame checked before any of its bytes is handed out. */
	static final class Input extends InputStream {

		private final InputStream in;

		private final String name;

		private byte[] frame = new byte[0];

		private int position;

		private long offset;

		Input(InputStream in, String name, long offset) {
			this.in = in;
			this.name = name;
			this.offset = offset;
		}

		private boolean next() throws IOException {
			byte[] header = this.in.readNBytes(HEADER);
			if (header.length == 0) {
				return false;
			}
			if (header.length < HEADER || getInt(header, 0) != MAGIC) {
				throw damaged("no frame starts there");
			}
			int length = getInt(header, 4);
			if (length < 0 || length > MAX_PAYLOAD) {
				throw damaged("its length, " + length + ", is impossible");
			}
			byte[] payload = this.in.readNBytes(length);
			if (payload.length < length) {
				throw damaged("it ends " + (length - payload.length) + " bytes short");
			}
			if (getInt(header, 8) != crc(header, payload, 0, length)) {
				throw damaged("its checksum does not match");
			}
			this.offset += HEADER + length;
			this.frame = payload;
			this.position = 0;
			return true;
		}

		private IOException damaged(String why) {
			return new JournalDamagedException(this.name + " is damaged at byte " + this.offset + ": " + why);
		}

		@Override
		public int read() throws IOException {
			while (this.position == this.frame.length) {
				if (!next()) {
					return -1;
				}
			}
			return this.frame[this.position++] & 0xFF;
		}

		@Override
		public int read(byte[] bytes, int offset, int length) throws IOException {
			if (length == 0) {
				return 0;
			}
			while (this.position == this.frame.length) {
				if (!next()) {
					return -1;
				}
			}
			int part = Math.min(length, this.frame.length - this.position);
			System.arraycopy(this.frame, this.position, bytes, offset, part);
			this.position += part;
			return part;
		}

		@Override
		public void close() throws IOException {
			this.in.close();
		}

	}

}
