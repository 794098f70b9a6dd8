package dev.dynamorelay.live;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * The changes waiting for one subscriber, each with its approximate size in bytes: bounded in number, in
 * order, an item's consecutive updates merged into the latest. Not thread-safe: its subscriber guards it.
 */
final class ChangeBuffer {

	private final int capacity;

	private final ArrayDeque<Slot> changes = new ArrayDeque<>();

	/** The last waiting change of each item, while it is an update: the next update of the item replaces it. */
	private final Map<String, Slot> updates = new HashMap<>();

	private long bytes;

	/** The bytes of the change the last {@link Offer#MERGED} offer replaced. */
	private long replaced;

	ChangeBuffer(int capacity) {
		this.capacity = capacity;
	}

	/** What an offer did. */
	enum Offer {

		/** Waits at the end. */
		QUEUED,

		/** Replaced the item's waiting update ({@link #replaced()} its bytes). */
		MERGED,

		/** No room: the subscriber is too far behind. */
		FULL

	}

	/** A waiting change and its approximate size. */
	record Waiting(Change change, long bytes) {
	}

	Offer offer(Change change, long bytes) {
		Slot waiting = this.updates.get(change.itemKey());
		if (waiting != null && change.kind() == Change.Kind.UPDATED) {
			// The merged change keeps its place's position: a client that resumes after it misses nothing queued
			// behind it, and receives the item's latest state again at worst.
			waiting.change = new Change(change.kind(), change.edge(), change.deletedId(), change.itemKey(),
					waiting.change.position());
			this.replaced = waiting.bytes;
			this.bytes += bytes - waiting.bytes;
			waiting.bytes = bytes;
			return Offer.MERGED;
		}
		if (this.changes.size() >= this.capacity) {
			return Offer.FULL;
		}
		Slot slot = new Slot(change, bytes);
		this.changes.add(slot);
		this.bytes += bytes;
		if (change.kind() == Change.Kind.UPDATED) {
			this.updates.put(change.itemKey(), slot);
		}
		else {
			this.updates.remove(change.itemKey());
		}
		return Offer.QUEUED;
	}

	/** The bytes of the change the last merging offer replaced. */
	long replaced() {
		return this.replaced;
	}

	/** The oldest waiting change, without taking it; or null. */
	Change peek() {
		Slot slot = this.changes.peek();
		return (slot != null) ? slot.change : null;
	}

	/** The oldest waiting change, or null. */
	Waiting poll() {
		Slot slot = this.changes.poll();
		if (slot == null) {
			return null;
		}
		if (this.updates.get(slot.change.itemKey()) == slot) {
			this.updates.remove(slot.change.itemKey());
		}
		this.bytes -= slot.bytes;
		return new Waiting(slot.change, slot.bytes);
	}

	/** Drops every waiting change; answers how many there were. */
	int clear() {
		int size = this.changes.size();
		this.changes.clear();
		this.updates.clear();
		this.bytes = 0;
		return size;
	}

	int size() {
		return this.changes.size();
	}

	/** The bytes of the waiting changes. */
	long bytes() {
		return this.bytes;
	}

	int capacity() {
		return this.capacity;
	}

	private static final class Slot {

		private Change change;

		private long bytes;

		Slot(Change change, long bytes) {
			this.change = change;
			this.bytes = bytes;
		}

	}

}
