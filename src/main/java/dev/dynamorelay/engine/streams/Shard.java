package dev.dynamorelay.engine.streams;

import java.util.Arrays;

/**
 * One shard of a stream: its id, its parent's, the range of record numbers it may hold (from the number reserved
 * when it opened to its last record's once closed), and its records in order, oldest first. Guarded by its
 * stream's monitor.
 *
 * <p>Records are appended at the tail and trimmed at the head; a slot once written is never written again (a
 * full array is copied into a new one), so that a checkpoint may read the records it saw while writers go on.
 */
final class Shard {

	final String id;

	final String parentId;

	/** The number reserved when the shard opened: every record of it has a greater one. */
	final long start;

	final long openedMillis;

	/** The last record's number once closed (the start, for a shard closed empty); -1 while open. */
	long end = -1;

	long closedMillis = -1;

	/** How many records were ever appended. */
	long appended;

	/** The greatest number trimmed from this shard; -1 while nothing was. */
	long trimmedThrough = -1;

	StoredRecord[] records;

	int head;

	int tail;

	Shard(String id, String parentId, long start, long openedMillis) {
		this.id = id;
		this.parentId = parentId;
		this.start = start;
		this.openedMillis = openedMillis;
		this.records = new StoredRecord[16];
	}

	boolean isOpen() {
		return this.end < 0;
	}

	int count() {
		return this.tail - this.head;
	}

	StoredRecord oldest() {
		return this.records[this.head];
	}

	StoredRecord newest() {
		return this.records[this.tail - 1];
	}

	StoredRecord at(int index) {
		return this.records[index];
	}

	void append(StoredRecord record) {
		if (this.tail == this.records.length) {
			int live = count();
			this.records = Arrays.copyOfRange(this.records, this.head, this.head + Math.max(16, live * 2));
			this.head = 0;
			this.tail = live;
		}
		this.records[this.tail++] = record;
		this.appended++;
	}

	/** Removes the oldest record and returns it. */
	StoredRecord trimOldest() {
		StoredRecord record = this.records[this.head++];
		this.trimmedThrough = record.number;
		if (this.head == this.tail) {
			// Nothing left: let the old array go (a checkpoint holding it keeps it while it needs it).
			this.records = new StoredRecord[16];
			this.head = 0;
			this.tail = 0;
		}
		return record;
	}

	void close(long millis) {
		this.end = (this.tail > this.head) ? newest().number : Math.max(this.start, this.trimmedThrough);
		this.closedMillis = millis;
	}

	/** The index of the first record numbered {@code number} or more; {@link #tail} when there is none. */
	int indexOf(long number) {
		int low = this.head;
		int high = this.tail;
		while (low < high) {
			int middle = (low + high) >>> 1;
			if (this.records[middle].number < number) {
				low = middle + 1;
			}
			else {
				high = middle;
			}
		}
		return low;
	}

}
