package dev.dynamorelay.live;

import java.math.BigInteger;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.cloudwatch.model.StandardUnit;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.OperationType;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.StreamRecord;
import software.amazon.kinesis.metrics.MetricsScope;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What travels between a fleet's instances: a stream record as the broker's message (every attribute type read back
 * as written), the partitions a record is published for, and the Kinesis Client Library's metrics in Micrometer.
 */
class FleetMessagesTest {

	private static final Map<String, AttributeValue> ITEM = Map.ofEntries(
			Map.entry("userId", AttributeValue.fromS("user-é-1")),
			Map.entry("purchasedAt", AttributeValue.fromN("1790000000000")),
			Map.entry("amount", AttributeValue.fromN("12.50")),
			Map.entry("blob", AttributeValue.fromB(SdkBytes.fromByteArray(new byte[] { 0, 1, (byte) 255 }))),
			Map.entry("tags", AttributeValue.fromSs(List.of("a", "b"))),
			Map.entry("sizes", AttributeValue.fromNs(List.of("1", "2.5"))),
			Map.entry("blobs", AttributeValue.fromBs(List.of(SdkBytes.fromByteArray(new byte[] { 7 })))),
			Map.entry("list", AttributeValue.fromL(List.of(AttributeValue.fromS("x"), AttributeValue.fromN("3")))),
			Map.entry("map", AttributeValue.fromM(Map.of("nested", AttributeValue.fromBool(true),
					"none", AttributeValue.fromNul(true)))),
			Map.entry("empty", AttributeValue.fromS("")));

	@Test
	void aRecordTravelsWithEveryAttributeTypeAndComesBackAsItWas() throws Exception {
		Record record = Record.builder()
			.eventName(OperationType.MODIFY)
			.dynamodb(StreamRecord.builder()
				.sequenceNumber("000000000000000000042")
				.approximateCreationDateTime(Instant.ofEpochSecond(1_790_000_000L))
				.keys(Map.of("userId", ITEM.get("userId"), "purchasedAt", ITEM.get("purchasedAt")))
				.oldImage(Map.of("userId", ITEM.get("userId"), "purchasedAt", ITEM.get("purchasedAt")))
				.newImage(ITEM)
				.build())
			.build();
		byte[] message = BrokerMessages.encode("UserPurchases", "shardId-00000001790000000000-0000abcd", record);
		BrokerMessages.Message read = BrokerMessages.decode(message);
		assertThat(read.table()).isEqualTo("UserPurchases");
		ChangeRecord change = read.record();
		assertThat(change.shardId()).isEqualTo("shardId-00000001790000000000-0000abcd");
		assertThat(change.sequenceNumber()).isEqualTo(BigInteger.valueOf(42));
		assertThat(change.newImage()).contains(ITEM);
		assertThat(change.oldImage()).contains(Map.of("userId", ITEM.get("userId"), "purchasedAt", ITEM.get("purchasedAt")));
		assertThat(change.written()).isEqualTo(Instant.ofEpochSecond(1_790_000_000L));
		assertThat(change.position()).isEqualTo(ChangeRecord.of("shardId-00000001790000000000-0000abcd", record).position());
	}

	@Test
	void aRemovalTravelsWithoutANewImage() throws Exception {
		Record record = Record.builder()
			.eventName(OperationType.REMOVE)
			.dynamodb(StreamRecord.builder().sequenceNumber("7").oldImage(ITEM).build())
			.build();
		ChangeRecord change = BrokerMessages.decode(BrokerMessages.encode("T", "shardId-1-2", record)).record();
		assertThat(change.newImage()).isEmpty();
		assertThat(change.oldImage()).contains(ITEM);
	}

	@Test
	void anItemThatMovesBetweenPartitionsIsPublishedForBoth() {
		ShardLeases.Routing routing = new ShardLeases.Routing(Set.of("category"), false);
		ChangeRecord moved = record(Map.of("category", AttributeValue.fromS("books")),
				Map.of("category", AttributeValue.fromS("games")));
		assertThat(routing.partitions(moved)).containsExactly(
				PartitionKey.of("category", AttributeValue.fromS("books")),
				PartitionKey.of("category", AttributeValue.fromS("games")));
		ChangeRecord stayed = record(Map.of("category", AttributeValue.fromN("10")),
				Map.of("category", AttributeValue.fromN("10.0")));
		assertThat(routing.partitions(stayed)).as("one partition: numbers equal by value")
			.containsExactly(PartitionKey.of("category", AttributeValue.fromN("10")));
	}

	@Test
	void aRecordOfNoPartitionIsPublishedNowhereUnlessTheWholeTableIsRead() {
		ChangeRecord other = record(Map.of(), Map.of("sk", AttributeValue.fromS("x")));
		assertThat(new ShardLeases.Routing(Set.of("category"), false).partitions(other)).isEmpty();
		assertThat(new ShardLeases.Routing(Set.of("category"), true).partitions(other)).containsExactly(Optional.empty());
		ChangeRecord both = record(Map.of(), Map.of("category", AttributeValue.fromS("books")));
		assertThat(new ShardLeases.Routing(Set.of("category", "userId"), true).partitions(both)).containsExactly(
				PartitionKey.of("category", AttributeValue.fromS("books")), Optional.empty());
	}

	@Test
	void channelsTellPartitionsOfTheSameTextAndOfTwoDeploymentsApart() {
		String prefix = RedisBroker.prefix("leases");
		assertThat(RedisBroker.channel(prefix, "T", PartitionKey.of("id", AttributeValue.fromS("10"))))
			.isEqualTo("dynamo-relay:{leases}:changes:T:id:S:10")
			.isNotEqualTo(RedisBroker.channel(prefix, "T", PartitionKey.of("id", AttributeValue.fromN("10"))))
			.isNotEqualTo(RedisBroker.channel(RedisBroker.prefix("other"), "T",
					PartitionKey.of("id", AttributeValue.fromS("10"))));
		assertThat(RedisBroker.channel(prefix, "T", Optional.empty())).isEqualTo("dynamo-relay:{leases}:changes:T");
	}

	@Test
	void kclMetricsGoToMicrometerTaggedByOperationOnly() {
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		KclMeters meters = new KclMeters(registry);
		for (String shard : List.of("shardId-1", "shardId-2")) {
			MetricsScope scope = meters.createMetrics();
			scope.addDimension("Operation", "ProcessTask");
			scope.addDimension("ShardId", shard);
			scope.addData("RecordsProcessed", 3, StandardUnit.COUNT);
			scope.end();
		}
		var summary = registry.get("kcl.RecordsProcessed").tag("operation", "ProcessTask").summary();
		assertThat(summary.count()).isEqualTo(2);
		assertThat(summary.totalAmount()).isEqualTo(6);
		assertThat(registry.getMeters()).as("no meter per shard").hasSize(1);
	}

	private static ChangeRecord record(Map<String, AttributeValue> before, Map<String, AttributeValue> after) {
		return new ChangeRecord("shardId-1", BigInteger.ONE, before.isEmpty() ? Optional.empty() : Optional.of(before),
				after.isEmpty() ? Optional.empty() : Optional.of(after), Instant.now());
	}

}
