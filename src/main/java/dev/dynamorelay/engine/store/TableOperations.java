package dev.dynamorelay.engine.store;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.CreateTableResponse;
import software.amazon.awssdk.services.dynamodb.model.DeleteTableRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteTableResponse;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableResponse;
import software.amazon.awssdk.services.dynamodb.model.ListTablesRequest;
import software.amazon.awssdk.services.dynamodb.model.ListTablesResponse;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveDescription;
import software.amazon.awssdk.services.dynamodb.model.UpdateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateTableResponse;

import dev.dynamorelay.engine.action.AwsError;

/**
 * The table operations of the store: CreateTable, DescribeTable, ListTables, UpdateTable and DeleteTable, with
 * DynamoDB's checks and messages (as dynalite's validations and tests, written against DynamoDB, give them).
 * DescribeTable and ListTables are answered here; a table's creation, deletion and restore are
 * {@link TableLifecycle}'s, its changes {@link TableUpdates}', the requests' checks {@link TableChecks}'.
 *
 * <p>See the API Reference of each operation and the Developer Guide's "Constraints in Amazon DynamoDB"
 * (Secondary indexes: 20 global and 5 local indexes a table; Naming rules: 3 to 255 characters of
 * {@code [a-zA-Z0-9_.-]}).
 */
final class TableOperations {

	private final Database database;

	private final TableLifecycle lifecycle;

	private final TableUpdates updates;

	TableOperations(Database database) {
		this.database = database;
		this.lifecycle = new TableLifecycle(database);
		this.updates = new TableUpdates(database);
	}

	CreateTableResponse createTable(CreateTableRequest request) {
		return this.lifecycle.createTable(request);
	}

	DeleteTableResponse deleteTable(DeleteTableRequest request) {
		return this.lifecycle.deleteTable(request);
	}

	UpdateTableResponse updateTable(UpdateTableRequest request) {
		return this.updates.updateTable(request);
	}

	/** As {@link TableLifecycle#restore}. */
	void restore(TableDescription description, TimeToLiveDescription timeToLive, List<software.amazon.awssdk.services.dynamodb.model.Tag> tags) {
		this.lifecycle.restore(description, timeToLive, tags);
	}

	// ---- DescribeTable, ListTables

	DescribeTableResponse describeTable(DescribeTableRequest request) {
		Constraints.requiredTableName(request.tableName());
		new Constraints().pattern("tableName", request.tableName()).check();
		StoredTable table = this.database.anyTable(request.tableName());
		table.lock.readLock().lock();
		try {
			Database.stillThere(table);
			return DescribeTableResponse.builder().table(table.describe()).build();
		}
		catch (AwsError ex) {
			throw AwsError.resourceNotFound("Requested resource not found: Table: " + request.tableName() + " not found");
		}
		finally {
			table.lock.readLock().unlock();
		}
	}

	ListTablesResponse listTables(ListTablesRequest request) {
		Constraints constraints = new Constraints();
		constraints.range("limit", request.limit(), 1L, 100L);
		constraints.name("exclusiveStartTableName", request.exclusiveStartTableName());
		constraints.check();
		int limit = (request.limit() != null) ? request.limit() : 100;
		Map<String, StoredTable> after = (request.exclusiveStartTableName() != null)
				? this.database.tables.tailMap(request.exclusiveStartTableName(), false) : this.database.tables;
		List<String> names = new ArrayList<>();
		boolean more = false;
		for (StoredTable table : after.values()) {
			if (table.gone) {
				continue;
			}
			if (names.size() == limit) {
				more = true;
				break;
			}
			names.add(table.name);
		}
		ListTablesResponse.Builder response = ListTablesResponse.builder().tableNames(names);
		if (more) {
			response.lastEvaluatedTableName(names.get(names.size() - 1));
		}
		return response.build();
	}

}
