package dev.dynamorelay.engine.journal;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeTimeToLiveRequest;
import software.amazon.awssdk.services.dynamodb.model.ListTablesRequest;
import software.amazon.awssdk.services.dynamodb.model.ListTablesResponse;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveDescription;

import dev.dynamorelay.engine.action.AwsError;
import dev.dynamorelay.engine.store.Database;
import dev.dynamorelay.engine.streams.Streams;

/**
 * The journal of the engine's {@link Database}: the database restored through its restore API (which tells no
 * listener), read for snapshots through its own operations (ListTables, DescribeTable, DescribeTimeToLive, and a
 * consistent Scan, page by page, each page under the table's read lock: a page read after a snapshot's position
 * holds every write committed before it, since a write is applied before its lock is released).
 *
 * <pre>{@code
 * Journal journal = DatabaseJournal.open(path, JournalOptions.defaults(), database, streams);
 * }</pre>
 */
public final class DatabaseJournal implements JournalledStore {

	private final Database database;

	/** The tables restored so far: only the journal changes the database while it recovers. */
	private final Set<String> restored = new HashSet<>();

	private DatabaseJournal(Database database) {
		this.database = database;
	}

	/**
	 * Recovers {@code database} and {@code streams} from {@code directory}, then journals every commit of the
	 * database (the journal becomes its commit listener and tells the streams; the streams must not be a listener
	 * of the database themselves).
	 */
	public static Journal open(Path directory, JournalOptions options, Database database, Streams streams) throws IOException {
		Journal journal = Journal.open(directory, options, new DatabaseJournal(database), streams);
		database.addCommitListener(journal);
		return journal;
	}

	@Override
	public void restoreTable(TableDescription description, TimeToLiveDescription timeToLive) {
		String name = description.tableName();
		// The database's restore makes the table anew: a table described again (an UpdateTable replayed) keeps its items.
		List<Map<String, AttributeValue>> items = new ArrayList<>();
		if (this.restored.contains(name)) {
			forEachItem(name, items::add);
		}
		this.database.restoreTable(description, timeToLive);
		this.restored.add(name);
		for (Map<String, AttributeValue> item : items) {
			this.database.restoreItem(name, item);
		}
	}

	@Override
	public void restoreDeletion(String table) {
		this.database.restoreTableDeleted(table);
		this.restored.remove(table);
	}

	@Override
	public void restoreItem(String table, Map<String, AttributeValue> item) {
		if (this.restored.contains(table)) {
			this.database.restoreItem(table, item);
		}
	}

	@Override
	public void restoreRemoval(String table, Map<String, AttributeValue> key) {
		if (this.restored.contains(table)) {
			this.database.restoreDelete(table, key);
		}
	}

	@Override
	public List<TableDescription> tables() {
		List<TableDescription> tables = new ArrayList<>();
		String after = null;
		do {
			ListTablesResponse page = this.database.listTables(ListTablesRequest.builder().exclusiveStartTableName(after).build());
			for (String name : page.tableNames()) {
				try {
					TableDescription table = this.database.describeTable(DescribeTableRequest.builder().tableName(name).build()).table();
					if (table.tableStatus() != TableStatus.CREATING && table.tableStatus() != TableStatus.DELETING) {
						tables.add(table);
					}
				}
				catch (AwsError ex) {
					if (!"ResourceNotFoundException".equals(ex.type())) {
						throw ex;
					}
				}
			}
			after = page.lastEvaluatedTableName();
		}
		while (after != null);
		return tables;
	}

	@Override
	public TimeToLiveDescription timeToLive(String table) {
		try {
			return this.database.describeTimeToLive(DescribeTimeToLiveRequest.builder().tableName(table).build())
				.timeToLiveDescription();
		}
		catch (AwsError ex) {
			if ("ResourceNotFoundException".equals(ex.type())) {
				return null;
			}
			throw ex;
		}
	}

	@Override
	public void forEachItem(String table, Consumer<Map<String, AttributeValue>> consumer) {
		Map<String, AttributeValue> after = null;
		do {
			ScanResponse page;
			try {
				page = this.database.scan(ScanRequest.builder().tableName(table).consistentRead(true).exclusiveStartKey(after).build());
			}
			catch (AwsError ex) {
				if ("ResourceNotFoundException".equals(ex.type())) {
					return;
				}
				throw ex;
			}
			page.items().forEach(consumer);
			after = page.hasLastEvaluatedKey() ? page.lastEvaluatedKey() : null;
		}
		while (after != null);
	}

}
