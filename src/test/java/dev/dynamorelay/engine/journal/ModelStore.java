package dev.dynamorelay.engine.journal;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveDescription;

import dev.dynamorelay.engine.store.CommitListener;
import dev.dynamorelay.engine.store.ItemChange;

/**
 * A small store for the journal's tests, that behaves as the engine's store does towards its listener: a write
 * takes its item's lock, makes the change visible, tells the listener under the lock, releases it, then waits for
 * the listener's future before it answers. It is also what the journal restores into.
 */
final class ModelStore implements JournalledStore {

	private record Table(TableDescription description, Map<String, Map<String, AttributeValue>> items) {
	}

	private final Map<String, Table> tables = new ConcurrentHashMap<>();

	private final ReentrantLock[] locks = new ReentrantLock[64];

	private final ReentrantLock tableLock = new ReentrantLock();

	private volatile CommitListener listener = new CommitListener() {

		@Override
		public CompletableFuture<Void> committed(Instant time, List<ItemChange> changes) {
			return DONE;
		}

		@Override
		public CompletableFuture<Void> tableChanged(Instant time, TableDescription description, boolean deleted) {
			return DONE;
		}

	};

	ModelStore() {
		for (int i = 0; i < this.locks.length; i++) {
			this.locks[i] = new ReentrantLock();
		}
	}

	void listener(CommitListener value) {
		this.listener = value;
	}

	static TableDescription table(String name, StreamViewType stream) {
		TableDescription.Builder table = TableDescription.builder()
			.tableName(name)
			.tableArn("arn:aws:dynamodb:us-east-1:000000000000:table/" + name)
			.tableStatus(TableStatus.ACTIVE)
			.creationDateTime(Instant.parse("2025-01-02T03:04:05.678Z"))
			.keySchema(KeySchemaElement.builder().attributeName("pk").keyType(KeyType.HASH).build());
		if (stream != null) {
			table.streamSpecification(StreamSpecification.builder().streamEnabled(true).streamViewType(stream).build());
		}
		return table.build();
	}

	static Map<String, AttributeValue> item(String pk, String value) {
		Map<String, AttributeValue> item = new LinkedHashMap<>();
		item.put("pk", AttributeValue.fromS(pk));
		item.put("v", AttributeValue.fromS(value));
		return item;
	}

	// What clients do

	/** Creates or changes a table, and waits until the listener made it durable. */
	void describe(TableDescription description) {
		CompletableFuture<Void> done;
		this.tableLock.lock();
		try {
			Table old = this.tables.get(description.tableName());
			this.tables.put(description.tableName(),
					new Table(description, (old != null) ? old.items() : new ConcurrentHashMap<>()));
			done = this.listener.tableChanged(Instant.now(), description, false);
		}
		finally {
			this.tableLock.unlock();
		}
		done.join();
	}

	void drop(String name) {
		CompletableFuture<Void> done;
		this.tableLock.lock();
		try {
			Table old = this.tables.remove(name);
			done = this.listener.tableChanged(Instant.now(), old.description(), true);
		}
		finally {
			this.tableLock.unlock();
		}
		done.join();
	}

	/** Puts (or, with null, deletes) an item, and waits until the listener made it durable. */
	void write(String table, String pk, Map<String, AttributeValue> item) {
		writeAsync(table, pk, item).join();
	}

	/** The write, answered when the listener's future completes. */
	CompletableFuture<Void> writeAsync(String table, String pk, Map<String, AttributeValue> item) {
		ReentrantLock lock = this.locks[Math.floorMod(pk.hashCode(), this.locks.length)];
		lock.lock();
		try {
			Map<String, Map<String, AttributeValue>> items = this.tables.get(table).items();
			Map<String, AttributeValue> old = (item != null) ? items.put(pk, item) : items.remove(pk);
			if (old == null && item == null) {
				return CommitListener.DONE;
			}
			return this.listener.committed(Instant.now(),
					List.of(new ItemChange(table, Map.of("pk", AttributeValue.fromS(pk)), old, item, false)));
		}
		finally {
			lock.unlock();
		}
	}

	/** Everything, ordered: what two stores are compared by. */
	Map<String, Object> contents() {
		Map<String, Object> contents = new TreeMap<>();
		this.tables.forEach((name, table) -> {
			contents.put(name + "/description", table.description());
			contents.put(name + "/items", new TreeMap<>(table.items()));
		});
		return contents;
	}

	Map<String, AttributeValue> get(String table, String pk) {
		Table found = this.tables.get(table);
		return (found != null) ? found.items().get(pk) : null;
	}

	// What the journal does

	@Override
	public TimeToLiveDescription timeToLive(String table) {
		return null;
	}

	@Override
	public void restoreTable(TableDescription description, TimeToLiveDescription timeToLive) {
		this.tables.compute(description.tableName(), (name, old) -> new Table(description,
				(old != null) ? old.items() : new ConcurrentHashMap<>()));
	}

	@Override
	public void restoreDeletion(String table) {
		this.tables.remove(table);
	}

	@Override
	public void restoreItem(String table, Map<String, AttributeValue> item) {
		Table found = this.tables.get(table);
		if (found != null) {
			found.items().put(item.get("pk").s(), item);
		}
	}

	@Override
	public void restoreRemoval(String table, Map<String, AttributeValue> key) {
		Table found = this.tables.get(table);
		if (found != null) {
			found.items().remove(key.get("pk").s());
		}
	}

	@Override
	public List<TableDescription> tables() {
		List<TableDescription> descriptions = new ArrayList<>();
		this.tables.values().forEach((table) -> descriptions.add(table.description()));
		return descriptions;
	}

	@Override
	public void forEachItem(String table, Consumer<Map<String, AttributeValue>> consumer) {
		Table found = this.tables.get(table);
		if (found != null) {
			found.items().values().forEach(consumer);
		}
	}

}
