package dev.dynamorelay.engine.store;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;

import dev.dynamorelay.engine.value.ItemCodec;
import dev.dynamorelay.engine.value.ItemSize;

/**
 * One page of a Query or Scan: reads items in the order of the slice it is given, counts each item read against
 * Limit before the filter, and stops at Limit or once the items read reach 1 MB by DynamoDB's item size rules;
 * keeps what passes the filter (projected), the last key read when it stopped early, and what it cost.
 */
final class ReadPage {

	/** The most a page reads: 1 MB of items. */
	static final long PAGE_BYTES = 1024 * 1024;

	final StoredTable table;

	final IndexSchema index;

	final Integer limit;

	final ItemCondition filter;

	final ItemProjection projection;

	final boolean countOnly;

	final boolean fetch;

	final List<Map<String, AttributeValue>> results = new ArrayList<>();

	int scanned;

	/** The sizes of the items read, for capacity. */
	long readBytes;

	/** Their page sizes, against the 1 MB a page reads. */
	long pageBytes;

	long fetchedBytes;

	Map<String, AttributeValue> lastKey;

	ReadPage(StoredTable table, IndexSchema index, Integer limit, ItemCondition filter, ItemProjection projection, boolean countOnly,
			boolean fetch) {
		this.table = table;
		this.index = index;
		this.limit = limit;
		this.filter = filter;
		this.projection = projection;
		this.countOnly = countOnly;
		this.fetch = fetch;
	}

	void read(NavigableMap<byte[], byte[]> slice) {
		TableSchema schema = this.table.schema;
		boolean projected = this.index != null && !this.index.projectsAll();
		String rangeKey = (schema.range() != null) ? schema.range().name() : null;
		byte[] last = null;
		for (Map.Entry<byte[], byte[]> entry : slice.entrySet()) {
			if ((this.limit != null && this.scanned >= this.limit) || this.pageBytes >= PAGE_BYTES) {
				break;
			}
			byte[] bytes = entry.getValue();
			Map<String, AttributeValue> item = null;
			if (projected) {
				item = this.index.project(ItemCodec.decode(bytes), schema);
				this.readBytes += ItemSize.of(item);
				this.pageBytes += ItemSize.pageSize(item, rangeKey);
			}
			else {
				this.readBytes += ItemCodec.size(bytes);
				this.pageBytes += ItemCodec.pageSize(bytes);
			}
			this.scanned++;
			last = bytes;
			if (this.filter == null && this.countOnly) {
				this.results.add(null);
				continue;
			}
			if (this.fetch) {
				item = ItemCodec.decode(bytes);
				this.fetchedBytes += ItemCodec.size(bytes);
			}
			else if (item == null) {
				item = ItemCodec.decode(bytes);
			}
			if (this.filter != null && !this.filter.test(item)) {
				continue;
			}
			this.results.add((this.projection != null) ? this.projection.apply(item) : item);
		}
		if (last != null && ((this.limit != null && this.scanned >= this.limit) || this.pageBytes >= PAGE_BYTES)) {
			this.lastKey = lastKey(last);
		}
		if (this.countOnly) {
			this.results.replaceAll((ignored) -> Map.of());
		}
	}

	private Map<String, AttributeValue> lastKey(byte[] bytes) {
		TableSchema schema = this.table.schema;
		Map<String, AttributeValue> key = new LinkedHashMap<>();
		for (String name : StartKeys.names(schema, this.index)) {
			key.put(name, ItemCodec.attribute(bytes, name));
		}
		return key;
	}

	ConsumedCapacity consumed(String mode, boolean consistent) {
		double divisor = consistent ? 1 : 2;
		if (this.index == null) {
			return Capacity.of(mode, this.table, Capacity.readUnits(this.readBytes) / divisor, Map.of());
		}
		return Capacity.of(mode, this.table, Capacity.readUnits(this.fetchedBytes) / divisor,
				Map.of(this.index.name(), Capacity.readUnits(this.readBytes) / divisor));
	}

}
