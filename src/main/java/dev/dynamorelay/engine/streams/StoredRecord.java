package dev.dynamorelay.engine.streams;

/**
 * One stream record as a stream keeps it: its number (its sequence number is {@link StreamNames#sequenceNumber}
 * of it), the time of its commit, what happened, its {@code SizeBytes}, and its keys and images in
 * {@link dev.dynamorelay.engine.value.ItemCodec#writeAttributes}' binary form (decoded only when it is read).
 * Immutable.
 */
final class StoredRecord {

	static final byte INSERT = 0;

	static final byte MODIFY = 1;

	static final byte REMOVE = 2;

	/** Set on a REMOVE that Time to Live made: its record names the service as its user. */
	static final byte EXPIRED = 0x10;

	/** In the payload's first byte: a new image follows the keys. */
	static final byte HAS_NEW = 1;

	/** In the payload's first byte: an old image follows the keys (and the new image, if any). */
	static final byte HAS_OLD = 2;

	final long number;

	final long timeMillis;

	final byte kind;

	final int size;

	final byte[] payload;

	StoredRecord(long number, long timeMillis, byte kind, int size, byte[] payload) {
		this.number = number;
		this.timeMillis = timeMillis;
		this.kind = kind;
		this.size = size;
		this.payload = payload;
	}

	/** The bytes this record holds in memory, roughly: the object, its payload array and their headers. */
	long footprint() {
		return 48 + 16 + this.payload.length;
	}

}
