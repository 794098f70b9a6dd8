package dev.dynamorelay.engine.store;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.engine.action.AwsError;
import dev.dynamorelay.engine.value.ItemCodec;
import dev.dynamorelay.engine.value.ItemSize;
import dev.dynamorelay.engine.value.Values;

/**
 * One item's write in a commit: a put, an update, a delete or (in a transaction) a condition check. Made with
 * what the request says; {@link #prepare} then reads the stored item, checks the condition and works out the
 * new item, its index entries and its capacity, all under the table's write lock; {@link #apply} makes the
 * change. A failed prepare changes nothing, so a transaction prepares all its writes before applying any.
 */
final class Mutation {

	enum Kind {

		PUT, UPDATE, DELETE, CHECK

	}

	final StoredTable table;

	final Kind kind;

	/** The item's table key attributes. */
	final Map<String, AttributeValue> key;

	final byte[] tableKey;

	/** The item a put writes (checked and normalized). */
	final Map<String, AttributeValue> item;

	final ItemUpdate update;

	final ItemCondition condition;

	/** Whether a failed condition answers the stored item (ReturnValuesOnConditionCheckFailure ALL_OLD). */
	final boolean returnOldOnFailure;

	/** Whether Time to Live deletes the item. */
	final boolean expired;

	// What prepare works out.

	TableSchema schema;

	byte[] oldBytes;

	Map<String, AttributeValue> old;

	Map<String, AttributeValue> next;

	byte[] nextBytes;

	long oldSize;

	long nextSize;

	boolean changed;

	List<StoredIndex> indexList;

	byte[][] oldIndexKeys;

	byte[][] newIndexKeys;

	long[] oldProjected;

	long[] newProjected;

	/** The write capacity units of the table's write, and of each index's (by index name, in index order). */
	double tableUnits;

	final Map<String, Double> indexUnits = new LinkedHashMap<>();

	/** The size of the item collection after the write, for a table with a local index; else -1. */
	long collectionSize = -1;

	/** How much the write grows (or shrinks) its item collection. */
	long collectionDelta;

	Mutation(StoredTable table, Kind kind, Map<String, AttributeValue> key, Map<String, AttributeValue> item,
			ItemUpdate update, ItemCondition condition, boolean returnOldOnFailure, boolean expired) {
		this.table = table;
		this.kind = kind;
		this.key = key;
		this.tableKey = Keys.tableKey(table.schema, key);
		this.item = item;
		this.update = update;
		this.condition = condition;
		this.returnOldOnFailure = returnOldOnFailure;
		this.expired = expired;
	}

	static Mutation put(StoredTable table, Map<String, AttributeValue> item, ItemCondition condition, boolean returnOld) {
		return new Mutation(table, Kind.PUT, table.schema.key(item), item, null, condition, returnOld, false);
	}

	static Mutation update(StoredTable table, Map<String, AttributeValue> key, ItemUpdate update, ItemCondition condition,
			boolean returnOld) {
		return new Mutation(table, Kind.UPDATE, key, null, update, condition, returnOld, false);
	}

	static Mutation delete(StoredTable table, Map<String, AttributeValue> key, ItemCondition condition, boolean returnOld) {
		return new Mutation(table, Kind.DELETE, key, null, null, condition, returnOld, false);
	}

	/** Time to Live's deletion of an item that is still expired ({@code stillExpired}). */
	static Mutation expire(StoredTable table, Map<String, AttributeValue> key, ItemCondition stillExpired) {
		return new Mutation(table, Kind.DELETE, key, null, null, stillExpired, false, true);
	}

	static Mutation check(StoredTable table, Map<String, AttributeValue> key, ItemCondition condition, boolean returnOld) {
		return new Mutation(table, Kind.CHECK, key, null, null, condition, returnOld, false);
	}

	/**
	 * Reads the stored item, checks the condition, works out the new item; the caller holds the table's write
	 * lock.
	 * @throws AwsError {@code ConditionalCheckFailedException} (with the stored item when asked), or DynamoDB's
	 * {@code ValidationException} of an update that cannot apply or an item too large, or
	 * {@code ItemCollectionSizeLimitExceededException}
	 */
	void prepare(long collectionLimit) {
		this.schema = this.table.schema;
		this.oldBytes = this.table.items.get(this.tableKey);
		this.old = (this.oldBytes != null) ? ItemCodec.decode(this.oldBytes) : null;
		this.oldSize = (this.oldBytes != null) ? ItemCodec.size(this.oldBytes) : 0;
		if (this.kind == Kind.PUT) {
			// the table's indexes may have changed since the request was checked
			Keys.checkIndexKeys(this.schema, this.item);
		}
		if (this.condition != null && !this.condition.test((this.old != null) ? this.old : Map.of())) {
			throw AwsError.conditionalCheckFailed((this.returnOldOnFailure && this.old != null) ? this.old : null);
		}
		switch (this.kind) {
			case PUT -> this.next = this.item;
			case UPDATE -> {
				Map<String, AttributeValue> base = (this.old != null) ? this.old : new LinkedHashMap<>(this.key);
				this.next = this.update.apply(base);
				try {
					Keys.checkIndexKeys(this.schema, this.next);
				}
				catch (AwsError ex) {
					// an index key given a value of another type only once the update ran (SET c = e)
					if (ex.getMessage().startsWith("One or more parameter values were invalid: Type mismatch for Index Key")) {
						throw AwsError.validation("The update expression attempted to update the secondary index key to unsupported type");
					}
					throw ex;
				}
			}
			case DELETE -> this.next = null;
			case CHECK -> this.next = this.old;
		}
		if (this.next != null) {
			this.nextSize = (this.kind == Kind.CHECK) ? this.oldSize : ItemSize.of(this.next);
			if (this.nextSize > ItemSize.MAX_ITEM_BYTES) {
				throw AwsError.validation((this.kind == Kind.UPDATE) ? "Item size to update has exceeded the maximum allowed size"
						: "Item size has exceeded the maximum allowed size");
			}
			this.nextBytes = (this.kind == Kind.CHECK) ? this.oldBytes
					: ItemCodec.encode(this.next, this.nextSize, ItemSize.pageSize(this.next, (this.schema.range() != null) ? this.schema.range().name() : null));
		}
		this.changed = changed();
		this.tableUnits = Math.max(1, Math.max(writeUnits(this.oldSize), writeUnits(this.nextSize)));
		prepareIndexes();
		if (this.schema.hasLocalIndexes()) {
			byte[] partition = Keys.partition(this.key.get(this.schema.hash().name()));
			long delta = this.nextSize - this.oldSize;
			for (int i = 0; i < this.indexList.size(); i++) {
				if (!this.indexList.get(i).schema.global()) {
					delta += this.newProjected[i] - this.oldProjected[i];
				}
			}
			long current = this.table.collectionSize(partition);
			this.collectionDelta = delta;
			this.collectionSize = current + delta;
			if (this.changed && delta > 0 && this.collectionSize > collectionLimit) {
				throw AwsError.of("ItemCollectionSizeLimitExceededException", "Collection size exceeded.");
			}
		}
	}

	private boolean changed() {
		if (this.kind == Kind.CHECK) {
			return false;
		}
		if (this.oldBytes == null || this.nextBytes == null) {
			return this.oldBytes != this.nextBytes;
		}
		return !Arrays.equals(this.oldBytes, this.nextBytes) && !Values.equalMaps(this.old, this.next);
	}

	private void prepareIndexes() {
		this.indexList = new ArrayList<>(this.table.indexes.values());
		int count = this.indexList.size();
		this.oldIndexKeys = new byte[count][];
		this.newIndexKeys = new byte[count][];
		this.oldProjected = new long[count];
		this.newProjected = new long[count];
		for (int i = 0; i < count; i++) {
			IndexSchema index = this.indexList.get(i).schema;
			Map<String, AttributeValue> oldEntry = null;
			Map<String, AttributeValue> newEntry = null;
			this.oldIndexKeys[i] = Keys.indexKeyOrNull(index, this.schema, this.old);
			this.newIndexKeys[i] = Keys.indexKeyOrNull(index, this.schema, this.next);
			if (this.oldIndexKeys[i] != null) {
				oldEntry = index.project(this.old, this.schema);
				this.oldProjected[i] = index.projectsAll() ? this.oldSize : ItemSize.of(oldEntry);
			}
			if (this.newIndexKeys[i] != null) {
				newEntry = index.project(this.next, this.schema);
				this.newProjected[i] = index.projectsAll() ? this.nextSize : ItemSize.of(newEntry);
			}
			double units;
			if (oldEntry == null && newEntry == null) {
				units = 0;
			}
			else if (oldEntry == null) {
				units = writeUnits(this.newProjected[i]);
			}
			else if (newEntry == null) {
				units = writeUnits(this.oldProjected[i]);
			}
			else if (!Arrays.equals(this.oldIndexKeys[i], this.newIndexKeys[i])) {
				// the entry moves: a delete and a put
				units = writeUnits(this.oldProjected[i]) + writeUnits(this.newProjected[i]);
			}
			else {
				boolean projectedChanged = index.projectsAll() ? this.changed : !Values.equalMaps(oldEntry, newEntry);
				units = projectedChanged ? Math.max(writeUnits(this.oldProjected[i]), writeUnits(this.newProjected[i])) : 0;
			}
			if (this.kind == Kind.CHECK) {
				units = 0;
			}
			if (units > 0) {
				this.indexUnits.put(index.name(), units);
			}
		}
	}

	/** Makes the change prepared; the caller holds the table's write lock. */
	void apply() {
		if (!this.changed) {
			return;
		}
		StoredTable target = this.table;
		if (this.nextBytes != null) {
			target.items.put(this.tableKey, this.nextBytes);
		}
		else {
			target.items.remove(this.tableKey);
		}
		target.itemCount += ((this.nextBytes != null) ? 1 : 0) - ((this.oldBytes != null) ? 1 : 0);
		target.sizeBytes += this.nextSize - this.oldSize;
		for (int i = 0; i < this.indexList.size(); i++) {
			StoredIndex index = this.indexList.get(i);
			byte[] oldKey = this.oldIndexKeys[i];
			byte[] newKey = this.newIndexKeys[i];
			if (oldKey != null && (newKey == null || !Arrays.equals(oldKey, newKey))) {
				index.entries.remove(oldKey);
			}
			if (newKey != null) {
				index.entries.put(newKey, this.nextBytes);
			}
			index.itemCount += ((newKey != null) ? 1 : 0) - ((oldKey != null) ? 1 : 0);
			index.sizeBytes += this.newProjected[i] - this.oldProjected[i];
		}
		if (this.collectionSize >= 0) {
			byte[] partition = Keys.partition(this.key.get(this.schema.hash().name()));
			target.addToCollection(partition, this.collectionDelta);
			this.collectionSize = target.collectionSize(partition);
		}
	}

	/** The change as the commit listeners hear of it, or null when the write changed nothing. */
	ItemChange change() {
		return this.changed ? new ItemChange(this.table.name, this.key, this.old, this.next, this.expired) : null;
	}

	/** The write capacity of the table's and every index's write. */
	double totalUnits() {
		double total = this.tableUnits;
		for (double units : this.indexUnits.values()) {
			total += units;
		}
		return total;
	}

	static double writeUnits(long size) {
		return Math.ceil(size / 1024.0);
	}

}
