package dev.dynamorelay.command.schemagen;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ListTablesResponse;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/**
 * Reads what the generator needs from DynamoDB: the names of the tables under a prefix (ListTables),
 * each one's description (DescribeTable) and a sample of its items (a Scan of bounded size and pages).
 */
final class TableReader {

	/** Items sampled per table at most. */
	static final int SAMPLE_SIZE = 500;

	/** Scan pages read per table at most (a page stops at 1 MB, so large items take more than one). */
	static final int SAMPLE_PAGES = 10;

	private final DynamoDbAsyncClient dynamoDb;

	private final String prefix;

	TableReader(DynamoDbAsyncClient dynamoDb, String prefix) {
		this.dynamoDb = dynamoDb;
		this.prefix = prefix;
	}

	/** The tables whose names start with the prefix (and are longer than it), sorted by name. */
	List<SampledTable> read() {
		List<SampledTable> tables = new ArrayList<>();
		for (String name : tableNames()) {
			TableDescription description = this.dynamoDb.describeTable((describe) -> describe.tableName(name))
				.join()
				.table();
			tables.add(new SampledTable(name.substring(this.prefix.length()), description, sample(name)));
		}
		return tables;
	}

	private List<String> tableNames() {
		List<String> names = new ArrayList<>();
		String start = null;
		do {
			String exclusiveStart = start;
			ListTablesResponse page = this.dynamoDb
				.listTables((list) -> list.exclusiveStartTableName(exclusiveStart))
				.join();
			for (String name : page.tableNames()) {
				if (name.startsWith(this.prefix) && name.length() > this.prefix.length()) {
					names.add(name);
				}
			}
			start = page.lastEvaluatedTableName();
		}
		while (start != null);
		names.sort(null);
		return names;
	}

	private List<Map<String, AttributeValue>> sample(String table) {
		List<Map<String, AttributeValue>> items = new ArrayList<>();
		Map<String, AttributeValue> start = null;
		for (int page = 0; page < SAMPLE_PAGES && items.size() < SAMPLE_SIZE; page++) {
			Map<String, AttributeValue> exclusiveStart = start;
			int limit = SAMPLE_SIZE - items.size();
			ScanResponse response = this.dynamoDb
				.scan((scan) -> scan.tableName(table).limit(limit).exclusiveStartKey(exclusiveStart))
				.join();
			items.addAll(response.items());
			if (!response.hasLastEvaluatedKey() || response.lastEvaluatedKey().isEmpty()) {
				break;
			}
			start = response.lastEvaluatedKey();
		}
		return items;
	}

}
