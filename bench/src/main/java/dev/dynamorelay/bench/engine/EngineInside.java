package dev.dynamorelay.bench.engine;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import tools.jackson.databind.json.JsonMapper;

import dev.dynamorelay.engine.store.Database;
import dev.dynamorelay.engine.store.DatabaseOptions;

/**
 * The engine section's figures inside the engine, without HTTP, in a JVM of its own that {@link EngineSpeed} starts:
 * the heap of 1,000,000 items of 200 bytes first, in the fresh JVM ({@link InsideFigures#millionItems}), then the
 * section's own 50-item Query, the one sent over HTTP, on the store's {@link Database} on one thread, timed as
 * {@link InsideFigures#time} times a call. Prints its figures as one line of JSON, last.
 */
public final class EngineInside {

	private EngineInside() {
	}

	public static void main(String[] args) {
		Map<String, Object> figures = new LinkedHashMap<>();
		InsideFigures.Heap heap = InsideFigures.millionItems();
		figures.put("items", heap.items());
		figures.put("itemBytes", heap.itemBytes());
		figures.put("heapBytes", heap.heapBytes());
		System.out.printf("    1,000,000 items of %d bytes: %.0f MB of heap%n", heap.itemBytes(), heap.heapBytes() / 1048576.0);
		try (Database database = new Database(DatabaseOptions.defaults().withTimeToLiveSweep(Duration.ZERO))) {
			database.createTable(EngineData.pagesTable());
			for (int partition = 0; partition < EngineData.PARTITIONS; partition++) {
				for (int position = 0; position < EngineData.PAGE_ITEMS; position++) {
					database.putItem(PutItemRequest.builder()
						.tableName(EngineData.PAGES)
						.item(EngineData.pageItem(partition, position))
						.build());
				}
			}
			QueryRequest[] queries = new QueryRequest[EngineData.PARTITIONS];
			for (int i = 0; i < queries.length; i++) {
				queries[i] = EngineData.query(i);
			}
			InsideFigures.Timing query = InsideFigures.time((i) -> database.query(queries[i % queries.length]).count(),
					EngineData.PAGE, 200_000, 20, 20_000);
			figures.put("queryMedianNanos", query.median());
			figures.put("queryBestNanos", query.best());
			figures.put("queryWorstNanos", query.worst());
			figures.put("queryRuns", query.runs());
			figures.put("queryCallsPerRun", query.callsPerRun());
			System.out.printf("    a 50-item Query: %.1f µs%n", query.median() / 1000);
		}
		System.out.println(JsonMapper.builder().build().writeValueAsString(figures));
	}

}
