package dev.dynamorelay.engine.store;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DescribeTimeToLiveRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeTimeToLiveResponse;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveDescription;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveSpecification;
import software.amazon.awssdk.services.dynamodb.model.UpdateTimeToLiveRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateTimeToLiveResponse;

import dev.dynamorelay.engine.action.AwsError;
import dev.dynamorelay.engine.value.ItemCodec;

/**
 * DescribeTimeToLive, UpdateTimeToLive, and the sweep that deletes expired items: an item whose Time to Live
 * attribute is a number of epoch seconds in the past (and not more than five years in the past) is deleted, as a
 * write of its own whose change is marked {@code expired} (its stream record names the service as its user).
 * DynamoDB deletes such items "typically within two days"; here within one sweep interval.
 *
 * <p>See the Developer Guide, "Using time to live (TTL) in DynamoDB", and the API Reference, UpdateTimeToLive.
 */
final class TimeToLiveOperations {

	/** Expiry times further in the past than this are not acted on (the Developer Guide's five years). */
	static final Duration TOO_OLD = Duration.ofDays(5 * 365);

	private final Database database;

	TimeToLiveOperations(Database database) {
		this.database = database;
	}

	DescribeTimeToLiveResponse describeTimeToLive(DescribeTimeToLiveRequest request) {
		Constraints.requiredTableName(request.tableName());
		new Constraints().pattern("tableName", request.tableName()).check();
		StoredTable table = this.database.anyTable(request.tableName());
		table.lock.readLock().lock();
		try {
			return DescribeTimeToLiveResponse.builder().timeToLiveDescription(describe(table)).build();
		}
		finally {
			table.lock.readLock().unlock();
		}
	}

	static TimeToLiveDescription describe(StoredTable table) {
		TimeToLiveDescription.Builder description = TimeToLiveDescription.builder().timeToLiveStatus(table.timeToLiveStatus);
		if (!"DISABLED".equals(table.timeToLiveStatus)) {
			description.attributeName(table.timeToLiveAttribute);
		}
		return description.build();
	}

	UpdateTimeToLiveResponse updateTimeToLive(UpdateTimeToLiveRequest request) {
		Constraints.requiredTableName(request.tableName());
		Constraints constraints = new Constraints();
		constraints.pattern("tableName", request.tableName());
		TimeToLiveSpecification specification = request.timeToLiveSpecification();
		constraints.notNull("timeToLiveSpecification", specification);
		if (specification != null) {
			constraints.notNull("timeToLiveSpecification.enabled", specification.enabled());
			constraints.notNull("timeToLiveSpecification.attributeName", specification.attributeName());
			constraints.size("timeToLiveSpecification.attributeName", specification.attributeName(), 1, 255);
		}
		constraints.check();
		StoredTable table = this.database.anyTable(request.tableName());
		CompletableFuture<Void> told;
		boolean enable = specification.enabled();
		table.lock.writeLock().lock();
		try {
			Database.stillThere(table);
			if ("CREATING".equals(table.status) || "DELETING".equals(table.status)) {
				throw AwsError.resourceInUse("Attempt to change a resource which is still in use: Table is being "
						+ ("CREATING".equals(table.status) ? "created" : "deleted") + ": " + table.name);
			}
			if (enable && Set.of("ENABLED", "ENABLING").contains(table.timeToLiveStatus)) {
				throw AwsError.validation("TimeToLive is already enabled");
			}
			if (!enable && Set.of("DISABLED", "DISABLING").contains(table.timeToLiveStatus)) {
				throw AwsError.validation("TimeToLive is already disabled");
			}
			if (!enable && !specification.attributeName().equals(table.timeToLiveAttribute)) {
				throw AwsError.validation("Attribute name does not match the attribute name for the table: " + table.timeToLiveAttribute);
			}
			table.timeToLiveAttribute = specification.attributeName();
			table.timeToLiveStatus = enable ? "ENABLING" : "DISABLING";
			told = this.database.tableChanged(table.describe(), false);
		}
		finally {
			table.lock.writeLock().unlock();
		}
		Database.await(told);
		this.database.later(() -> {
			table.lock.writeLock().lock();
			try {
				if (enable && "ENABLING".equals(table.timeToLiveStatus)) {
					table.timeToLiveStatus = "ENABLED";
				}
				if (!enable && "DISABLING".equals(table.timeToLiveStatus)) {
					table.timeToLiveStatus = "DISABLED";
				}
			}
			finally {
				table.lock.writeLock().unlock();
			}
		});
		return UpdateTimeToLiveResponse.builder().timeToLiveSpecification(specification).build();
	}

	/** Deletes every expired item of every table whose Time to Live is enabled. */
	void sweep() {
		for (StoredTable table : this.database.tables.values()) {
			String attribute = table.timeToLiveAttribute;
			if (table.gone || !"ENABLED".equals(table.timeToLiveStatus) || attribute == null) {
				continue;
			}
			// a weakly consistent walk finds the candidates; each deletion checks again under the write lock
			List<Map<String, AttributeValue>> expired = new ArrayList<>();
			for (byte[] bytes : table.items.values()) {
				if (isExpired(ItemCodec.attribute(bytes, attribute))) {
					expired.add(table.schema.key(ItemCodec.decode(bytes)));
				}
			}
			for (Map<String, AttributeValue> key : expired) {
				ItemCondition stillExpired = new ItemCondition() {

					@Override
					public boolean test(Map<String, AttributeValue> item) {
						String current = table.timeToLiveAttribute;
						return "ENABLED".equals(table.timeToLiveStatus) && current != null && isExpired(item.get(current));
					}

					@Override
					public Set<String> topLevelNames() {
						return Set.of(attribute);
					}

				};
				try {
					this.database.itemOperations.write(Mutation.expire(table, key, stillExpired));
				}
				catch (AwsError ex) {
					// changed meanwhile (no longer expired), or the table went: nothing to delete
				}
			}
		}
	}

	private boolean isExpired(AttributeValue value) {
		if (value == null || value.n() == null) {
			return false;
		}
		BigDecimal expiry = new BigDecimal(value.n());
		long now = this.database.now().getEpochSecond();
		return expiry.compareTo(BigDecimal.valueOf(now)) < 0 && expiry.compareTo(BigDecimal.valueOf(now - TOO_OLD.getSeconds())) >= 0;
	}

}
