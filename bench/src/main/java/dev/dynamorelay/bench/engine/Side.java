package dev.dynamorelay.bench.engine;

import java.util.List;
import java.util.Map;

import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;

import static dev.dynamorelay.bench.engine.EngineData.ITEMS;
import static dev.dynamorelay.bench.engine.EngineData.PAGE;
import static dev.dynamorelay.bench.engine.EngineData.item;

/** A server with its client and, once loaded, its Scan's starting keys (the table's keys in its Scan order). */
final class Side {

	private final String name;

	private final EngineServer server;

	private final DynamoDbClient client;

	private List<String> scanFrom;

	private ScanRequest[] scans;

	Side(String name, EngineServer server, DynamoDbClient client) {
		this.name = name;
		this.server = server;
		this.client = client;
	}

	String name() {
		return this.name;
	}

	EngineServer server() {
		return this.server;
	}

	DynamoDbClient client() {
		return this.client;
	}

	List<String> scanFrom() {
		return this.scanFrom;
	}

	void scanFrom(List<String> order) {
		this.scanFrom = order;
		this.scans = new ScanRequest[order.size()];
		for (int i = 0; i < order.size(); i++) {
			this.scans[i] = ScanRequest.builder()
				.tableName(ITEMS)
				.limit(PAGE)
				.exclusiveStartKey(Map.of("pk", AttributeValue.fromS(order.get(i))))
				.build();
		}
	}

	/** The Scan page of 50 items after the item at {@code position} of the Scan order. */
	ScanRequest scan(int position) {
		return this.scans[position];
	}

}
