package dev.dynamorelay.live;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * The changes waiting for one subscriber: bounded, in order, an item's consecutive updates merged into the
 * latest. Not thread-safe: its subscriber guards it.
 */
final class ChangeBuffer {

	private final int capacity;

	private final ArrayDeque<Slot> changes = new ArrayDeque<>();

	/** The last waiting change of each item, while it is an update: the next update of the item replaces it. */
	private final Map<String, Slot> updates = new HashMap<>();

	ChangeBuffer(int capacity) {
		this.capacity = capacity;
	}

	/** What an offer did. */
	enum Offer {

		/** Waits at the end. */
		QUEUED,

		/** Replaced the item's waiting update. */
		MERGED,

		/** No room: the subscriber is too far behind. */
		FULL

	}

	Offer offer(Change change) {
		Slot waiting = this.updates.get(change.itemKey());
		if (waiting != null && change.kind() == Change.Kind.UPDATED) {
			// The merged change keeps its place's position: a client that resumes after it misses nothing queued
			// behind it, and receives the item's latest state again at worst.
			waiting.change = new Change(change.kind(), change.edge(), change.deletedId(), change.itemKey(),
					waiting.change.position());
			return Offer.MERGED;
		}
		if (this.changes.size() >= this.capacity) {
			return Offer.FULL;
		}
		Slot slot = new Slot(change);
		this.changes.add(slot);
		if (change.kind() == Change.Kind.UPDATED) {
			this.updates.put(change.itemKey(), slot);
		}
		else {
			this.updates.remove(change.itemKey());
		}
		return Offer.QUEUED;
	}

	/** The oldest waiting change, or null. */
	Change poll() {
		Slot slot = this.changes.poll();
		if (slot == null) {
			return null;
		}
		if (this.updates.get(slot.change.itemKey()) == slot) {
			this.updates.remove(slot.change.itemKey());
		}
		return slot.change;
	}

	int size() {
		return this.changes.size();
	}

	int capacity() {
		return this.capacity;
	}

	private static final class Slot {

		private Change change;

		Slot(Change change) {
			this.change = change;
		}

	}

}
