package dev.dynamorelay.live;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/**
 * The Kinesis Client Library's tables of a fleet, checked at start: the lease table (key {@code leaseKey}, a
 * string) and KCL 3's coordinator state ({@code key}) and worker metrics ({@code wid}) tables named after it. A
 * table of that name with another key stops the start (it is some other table: KCL would write leases into it); a
 * missing one is left to KCL to create where the server creates tables, and otherwise stops the start with the
 * command that creates it.
 */
final class LeaseTables {

	private LeaseTables() {
	}

	/**
	 * A table KCL needs: its name, its key attribute, the command that makes it, and the global index KCL 3 reads it
	 * by (which it adds itself only where it may update the table).
	 */
	record Needed(String name, String key, String create, java.util.Optional<String> index, String addIndex) {
	}

	/** The lease table's index of lease owners, as KCL 3 names it. */
	static final String OWNERS = "LeaseOwnerToLeaseKeyIndex";

	static List<Needed> of(String leaseTable, String endpointOption) {
		Needed leases = needed(leaseTable, "leaseKey", endpointOption,
				" --global-secondary-indexes '[{\"IndexName\":\"LeaseOwnerToLeaseKeyIndex\",\"KeySchema\":"
						+ "[{\"AttributeName\":\"leaseOwner\",\"KeyType\":\"HASH\"},{\"AttributeName\":\"leaseKey\","
						+ "\"KeyType\":\"RANGE\"}],\"Projection\":{\"ProjectionType\":\"KEYS_ONLY\"}}]'",
				"AttributeName=leaseOwner,AttributeType=S ");
		String addIndex = "aws dynamodb update-table" + endpointOption + " --table-name " + leaseTable
				+ " --attribute-definitions AttributeName=leaseOwner,AttributeType=S AttributeName=leaseKey,AttributeType=S "
				+ "--global-secondary-index-updates '[{\"Create\":{\"IndexName\":\"" + OWNERS + "\",\"KeySchema\":"
				+ "[{\"AttributeName\":\"leaseOwner\",\"KeyType\":\"HASH\"},{\"AttributeName\":\"leaseKey\","
				+ "\"KeyType\":\"RANGE\"}],\"Projection\":{\"ProjectionType\":\"KEYS_ONLY\"}}}]'";
		return List.of(new Needed(leases.name(), leases.key(), leases.create(), java.util.Optional.of(OWNERS), addIndex),
				needed(leaseTable + "-CoordinatorState", "key", endpointOption, "", ""),
				needed(leaseTable + "-WorkerMetricStats", "wid", endpointOption, "", ""));
	}

	private static Needed needed(String name, String key, String endpointOption, String index, String indexAttribute) {
		return new Needed(name, key, "aws dynamodb create-table" + endpointOption + " --table-name " + name
				+ " --attribute-definitions AttributeName=" + key + ",AttributeType=S " + indexAttribute
				+ "--key-schema AttributeName=" + key + ",KeyType=HASH --billing-mode PAY_PER_REQUEST" + index,
				java.util.Optional.empty(), "");
	}

	/**
	 * Checks each table.
	 * @param create whether a missing table may be left to KCL to create
	 * @throws FleetStartException what to fix
	 */
	static void check(DynamoDbAsyncClient dynamoDb, List<Needed> tables, boolean create, long timeoutMillis) {
		List<String> problems = new ArrayList<>();
		for (Needed table : tables) {
			TableDescription described;
			try {
				described = dynamoDb.describeTable((describe) -> describe.tableName(table.name()))
					.get(timeoutMillis, TimeUnit.MILLISECONDS)
					.table();
			}
			catch (java.util.concurrent.ExecutionException ex) {
				Throwable cause = (ex.getCause() instanceof CompletionException c && c.getCause() != null) ? c.getCause()
						: ex.getCause();
				if (cause instanceof ResourceNotFoundException) {
					if (!create) {
						problems.add("Table " + table.name() + " does not exist: create it (" + table.create()
								+ "), or start with dynamo-relay.tables.create=true to have it created");
					}
					continue;
				}
				throw new FleetStartException("Describing the lease table " + table.name() + " failed: " + cause);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("interrupted while checking the lease tables", ex);
			}
			catch (java.util.concurrent.TimeoutException ex) {
				throw new FleetStartException("DynamoDB did not describe the lease table " + table.name() + " within "
						+ timeoutMillis + " ms");
			}
			boolean keyed = described.keySchema().size() == 1
					&& described.keySchema().get(0).keyType() == KeyType.HASH
					&& described.keySchema().get(0).attributeName().equals(table.key())
					&& described.attributeDefinitions().stream()
						.anyMatch((attribute) -> attribute.attributeName().equals(table.key())
								&& "S".equals(attribute.attributeTypeAsString()));
			if (keyed && !create && table.index().isPresent() && described.globalSecondaryIndexes().stream()
				.noneMatch((index) -> index.indexName().equals(table.index().get()))) {
				problems.add("Table " + table.name() + " has no global index " + table.index().get() + ", which KCL 3 "
						+ "reads its leases by (and adds itself only where the server creates tables): add it ("
						+ table.addIndex() + "), or start with dynamo-relay.tables.create=true");
			}
			if (!keyed) {
				problems.add("Table " + table.name() + " is not the Kinesis Client Library's: its key is "
						+ described.keySchema().stream().map((key) -> key.attributeName() + " " + key.keyTypeAsString())
							.toList()
						+ ", where KCL's has " + table.key() + " (a string) alone. Name another lease table "
						+ "(dynamo-relay.live.fleet.lease-table) or remove this one");
			}
		}
		if (!problems.isEmpty()) {
			throw new FleetStartException(String.join("; ", problems));
		}
	}

}
