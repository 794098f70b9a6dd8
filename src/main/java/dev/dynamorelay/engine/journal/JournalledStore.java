package dev.dynamorelay.engine.journal;

import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveDescription;

/**
 * What the journal needs of the store: to restore it at start (from a snapshot, then the log), telling no commit
 * listener of it, and to read it for a snapshot while it serves.
 *
 * <p>The log is replayed from a snapshot's position, and a snapshot is read while writes go on (each item as of
 * one moment, the whole not): so a restore may meet a change the snapshot already holds, or an item of a table the
 * snapshot lacks. Each call sets a state (it is not a delta), and the log's order settles the rest: the methods
 * must accept both cases as they say.
 */
public interface JournalledStore {

	/**
	 * Creates the table as described, with its Time to Live ({@code timeToLive} null: none), or describes an existing
	 * table so, keeping its items.
	 */
	void restoreTable(TableDescription description, TimeToLiveDescription timeToLive);

	/** Deletes the table and its items; nothing when there is no such table. */
	void restoreDeletion(String table);

	/** Puts the item, replacing the one of its key; nothing when there is no such table. */
	void restoreItem(String table, Map<String, AttributeValue> item);

	/** Deletes the item of this key; nothing when there is none, or no such table. */
	void restoreRemoval(String table, Map<String, AttributeValue> key);

	/**
	 * Every table as DescribeTable describes it now, but those being created or deleted (their change is in the log
	 * after the snapshot's position): what a snapshot keeps.
	 */
	List<TableDescription> tables();

	/**
	 * The table's Time to Live as DescribeTimeToLive describes it (null: none, or no such table). Called by the
	 * journal when it is told a table changed (the store's lock on it held) and for a snapshot: the commit listener
	 * hears of a table's description only.
	 */
	TimeToLiveDescription timeToLive(String table);

	/**
	 * Hands each item of the table to {@code consumer}, each as it is at one moment; nothing when there is no such
	 * table (any more).
	 */
	void forEachItem(String table, Consumer<Map<String, AttributeValue>> consumer);

}
