package dev.dynamorelay.live;

import java.util.Map;
import java.util.Optional;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.model.ConnectionDefinition;
import dev.dynamorelay.model.Item;
import dev.dynamorelay.model.KeyAttribute;
import dev.dynamorelay.model.NodeIds;
import dev.dynamorelay.pagination.ConnectionQuery;
import dev.dynamorelay.pagination.Edge;
import dev.dynamorelay.pagination.Paginator;

/**
 * What one subscription keeps live: a connection's reads for one query (its partition, key condition and
 * filters, the caller's owner filters among them), and how a stream record becomes a change of it.
 *
 * <p>Equal queries make every record the same change: the connection's definition (one per declared connection),
 * its arguments and the caller's owner filters are all in the query, so {@link TableSubscribers} judges a record
 * once for all the subscribers of equal queries. Anything else a change came to depend on must be a component.
 *
 * @param field the subscription field, for meters (e.g. {@code Subscription.purchaseChanges})
 * @param definition the connection's definition
 * @param query the query its pages would read
 */
public record LiveQuery(String field, ConnectionDefinition<Item> definition, ConnectionQuery query) {

	/** The attribute that holds an item's partition in the connection's reads, for a Query. */
	Optional<String> partitionAttribute() {
		return this.definition.partitionKey().map(KeyAttribute::name);
	}

	/** The partition its reads are in, for a Query; empty for a Scan, which reads the whole table. */
	Optional<PartitionKey> partitionKey() {
		return partitionAttribute().map((attribute) -> {
			AttributeValue value = this.query.partition().orElseThrow();
			return PartitionKey.of(attribute, value)
				.orElseThrow(() -> new IllegalArgumentException("a partition is a string, a number or binary, got " + value));
		});
	}

	/**
	 * The change a record is for this subscription, judged on its old and new images: the item entered the
	 * connection, changed inside it, or left it; empty when it was in it neither before nor after.
	 */
	Optional<Change> change(ChangeRecord record, Paginator paginator) {
		Map<String, AttributeValue> before = record.oldImage().orElse(Map.of());
		Map<String, AttributeValue> after = record.newImage().orElse(Map.of());
		Item was = in(before);
		Optional<Edge<Item>> now = after.isEmpty() ? Optional.empty() : paginator.edge(this.definition, this.query, after);
		if (now.isPresent()) {
			Change.Kind kind = (was != null) ? Change.Kind.UPDATED : Change.Kind.ADDED;
			return Optional.of(new Change(kind, now, Optional.empty(), key(now.get().node()), record.position()));
		}
		if (was != null) {
			return Optional.of(new Change(Change.Kind.REMOVED, Optional.empty(),
					Optional.of(NodeIds.encode(was.entity(), was.attributes())), key(was), record.position()));
		}
		return Optional.empty();
	}

	/** The node an image is in this connection, or null. */
	private Item in(Map<String, AttributeValue> image) {
		if (image.isEmpty() || !Paginator.contains(this.definition, this.query, image)) {
			return null;
		}
		return this.definition.mapper().apply(image);
	}

	/** An item's identity across its changes: its type and table key. */
	private static String key(Item item) {
		return NodeIds.encode(item.entity(), item.attributes());
	}

}
