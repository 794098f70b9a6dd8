package dev.dynamorelay.engine.streams;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.OperationType;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

import dev.dynamorelay.engine.store.ItemChange;

import static dev.dynamorelay.engine.streams.StreamsFixture.item;
import static dev.dynamorelay.engine.streams.StreamsFixture.key;
import static org.assertj.core.api.Assertions.assertThat;

/** What a stream record says: the Developer Guide's and the API Reference's record format, by view type. */
class StreamRecordsTest {

	private final StreamsFixture fixture = new StreamsFixture();

	@ParameterizedTest
	@EnumSource(value = StreamViewType.class, names = "UNKNOWN_TO_SDK_VERSION", mode = EnumSource.Mode.EXCLUDE)
	void recordsInsertModifyAndRemoveWithTheImagesTheViewTypeKeeps(StreamViewType viewType) {
		String arn = this.fixture.create("Orders", viewType);
		Map<String, AttributeValue> first = item("a", "n", 1);
		Map<String, AttributeValue> second = item("a", "n", 2, "s", "x");
		this.fixture.put("Orders", first);
		this.fixture.put("Orders", second);
		this.fixture.remove("Orders", "a");

		List<Record> records = this.fixture.readAll(arn);

		assertThat(records).extracting(Record::eventName)
			.containsExactly(OperationType.INSERT, OperationType.MODIFY, OperationType.REMOVE);
		boolean keepsNew = viewType == StreamViewType.NEW_IMAGE || viewType == StreamViewType.NEW_AND_OLD_IMAGES;
		boolean keepsOld = viewType == StreamViewType.OLD_IMAGE || viewType == StreamViewType.NEW_AND_OLD_IMAGES;
		List<Map<String, AttributeValue>> newImages = List.of(first, second, Map.of());
		List<Map<String, AttributeValue>> oldImages = List.of(Map.of(), first, second);
		for (int i = 0; i < 3; i++) {
			Record record = records.get(i);
			assertThat(record.dynamodb().keys()).isEqualTo(key("a"));
			assertThat(record.dynamodb().streamViewType()).isEqualTo(viewType);
			// Absent, not empty, where the view type keeps no image or the item did not exist.
			assertThat(record.dynamodb().hasNewImage()).isEqualTo(keepsNew && !newImages.get(i).isEmpty());
			assertThat(record.dynamodb().hasOldImage()).isEqualTo(keepsOld && !oldImages.get(i).isEmpty());
			if (record.dynamodb().hasNewImage()) {
				assertThat(record.dynamodb().newImage()).isEqualTo(newImages.get(i));
			}
			if (record.dynamodb().hasOldImage()) {
				assertThat(record.dynamodb().oldImage()).isEqualTo(oldImages.get(i));
			}
		}
	}

	@Test
	void carriesTheFormatFieldsOfARecord() {
		String arn = this.fixture.create("Orders", StreamViewType.KEYS_ONLY);
		this.fixture.clock.advance(Duration.ofMillis(900));
		Instant committed = this.fixture.clock.instant();
		this.fixture.put("Orders", item("a"));
		this.fixture.put("Orders", item("b"));

		List<Record> records = this.fixture.readAll(arn);

		Record record = records.get(0);
		assertThat(record.eventVersion()).isEqualTo("1.1");
		assertThat(record.eventSource()).isEqualTo("aws:dynamodb");
		assertThat(record.awsRegion()).isEqualTo("eu-west-1");
		assertThat(record.eventID()).matches("[0-9a-f]{32}");
		assertThat(records.get(1).eventID()).isNotEqualTo(record.eventID());
		assertThat(record.userIdentity()).isNull();
		// "The approximate date and time when the stream record was created ... rounded down to the closest second"
		assertThat(record.dynamodb().approximateCreationDateTime())
			.isEqualTo(Instant.ofEpochSecond(committed.getEpochSecond()));
		assertThat(record.dynamodb().sequenceNumber()).matches("[0-9]{21}");
		assertThat(new java.math.BigInteger(records.get(1).dynamodb().sequenceNumber()))
			.isGreaterThan(new java.math.BigInteger(record.dynamodb().sequenceNumber()));
	}

	@Test
	void sizeBytesIsTheSizeOfTheKeysAndImagesAsTheApiReferenceExampleCountsIt() {
		TableDescription forum = StreamsFixture.table("Thread", StreamViewType.KEYS_ONLY);
		this.fixture.streams.tableChanged(this.fixture.clock.instant(), forum, false);
		Map<String, AttributeValue> keys = Map.of("ForumName", AttributeValue.fromS("DynamoDB"), "Subject",
				AttributeValue.fromS("DynamoDB Thread 3"));
		this.fixture.streams.committed(this.fixture.clock.instant(),
				List.of(new ItemChange("Thread", keys, null, keys, false)));

		Record record = this.fixture.readAll(this.fixture.latestArn("Thread")).get(0);

		// The GetRecords example of the API Reference: these keys, KEYS_ONLY, "SizeBytes": 41.
		assertThat(record.dynamodb().sizeBytes()).isEqualTo(41L);
	}

	@Test
	void sizeBytesAddsTheImagesTheViewTypeKeeps() {
		String arn = this.fixture.create("Orders", StreamViewType.NEW_AND_OLD_IMAGES);
		this.fixture.put("Orders", item("a", "name", "xyz"));
		this.fixture.put("Orders", item("a", "name", "xy"));

		List<Record> records = this.fixture.readAll(arn);

		// keys: "pk" + "a" = 3; new image 3 + "name" + "xyz" = 10; then new 3 + 6 = 9 and old 10.
		assertThat(records).extracting((record) -> record.dynamodb().sizeBytes()).containsExactly(13L, 22L);
	}

	@Test
	void writesNoRecordForAWriteThatChangesNothing() {
		String arn = this.fixture.create("Orders", StreamViewType.NEW_AND_OLD_IMAGES);
		this.fixture.put("Orders", item("a", "n", 1, "s", "x"));
		// The same item again, its number spelled otherwise: DynamoDB compares numbers by value.
		this.fixture.streams.committed(this.fixture.clock.instant(), List.of(new ItemChange("Orders", key("a"),
				item("a", "n", 1, "s", "x"), Map.of("pk", AttributeValue.fromS("a"), "n", AttributeValue.fromN("1.0"), "s",
						AttributeValue.fromS("x")), false)));
		this.fixture.put("Orders", item("a", "n", 1, "s", "y"));

		List<Record> records = this.fixture.readAll(arn);

		assertThat(records).extracting(Record::eventName).containsExactly(OperationType.INSERT, OperationType.MODIFY);
		assertThat(records.get(1).dynamodb().newImage().get("s").s()).isEqualTo("y");
	}

	@Test
	void namesTheServiceAsTheUserOfATimeToLiveDeletion() {
		String arn = this.fixture.create("Orders", StreamViewType.OLD_IMAGE);
		this.fixture.put("Orders", item("a"));
		this.fixture.put("Orders", item("b"));
		this.fixture.remove("Orders", "a", true);
		this.fixture.remove("Orders", "b", false);

		List<Record> records = this.fixture.readAll(arn);

		Record expired = records.get(2);
		assertThat(expired.eventName()).isEqualTo(OperationType.REMOVE);
		assertThat(expired.userIdentity().principalId()).isEqualTo("dynamodb.amazonaws.com");
		assertThat(expired.userIdentity().type()).isEqualTo("Service");
		assertThat(records.get(3).userIdentity()).isNull();
	}

	@Test
	void recordsOnlyTheTablesWhoseStreamIsEnabled() {
		String arn = this.fixture.create("Orders", StreamViewType.KEYS_ONLY);
		this.fixture.create("Plain", null);
		this.fixture.put("Plain", item("p"));
		this.fixture.put("Orders", item("o"));

		assertThat(this.fixture.readAll(arn)).extracting(StreamsFixture::pk).containsExactly("o");
		assertThat(this.fixture.list((request) -> request.tableName("Plain")).streams()).isEmpty();
	}

	@Test
	void keepsEveryKindOfValueThroughItsBinaryForm() {
		String arn = this.fixture.create("Orders", StreamViewType.NEW_IMAGE);
		Map<String, AttributeValue> item = new java.util.LinkedHashMap<>();
		item.put("pk", AttributeValue.fromS("é😀"));
		item.put("n", AttributeValue.fromN("-12.5E+3"));
		item.put("b", AttributeValue.fromB(software.amazon.awssdk.core.SdkBytes.fromByteArray(new byte[] { 0, -1, 7 })));
		item.put("t", AttributeValue.fromBool(true));
		item.put("f", AttributeValue.fromBool(false));
		item.put("z", AttributeValue.fromNul(true));
		item.put("ss", AttributeValue.fromSs(List.of("x", "y")));
		item.put("ns", AttributeValue.fromNs(List.of("1", "2.5")));
		item.put("bs", AttributeValue.fromBs(List.of(software.amazon.awssdk.core.SdkBytes.fromUtf8String("q"))));
		item.put("l", AttributeValue.fromL(List.of(AttributeValue.fromS("in"), AttributeValue.fromL(List.of()))));
		item.put("m", AttributeValue.fromM(Map.of("k", AttributeValue.fromM(Map.of("deep", AttributeValue.fromN("0"))))));
		this.fixture.streams.committed(this.fixture.clock.instant(),
				List.of(new ItemChange("Orders", Map.of("pk", item.get("pk")), null, item, false)));

		Record record = this.fixture.readAll(arn).get(0);

		assertThat(record.dynamodb().newImage()).isEqualTo(item);
	}

	@Test
	void aTransactionRecordsEachItemInTheStreamOfItsTable() {
		String orders = this.fixture.create("Orders", StreamViewType.KEYS_ONLY);
		String lines = this.fixture.create("Lines", StreamViewType.KEYS_ONLY);
		this.fixture.streams.committed(this.fixture.clock.instant(),
				List.of(new ItemChange("Orders", key("o1"), null, item("o1"), false),
						new ItemChange("Lines", key("l1"), null, item("l1"), false),
						new ItemChange("Lines", key("l2"), null, item("l2"), false)));

		assertThat(this.fixture.readAll(orders)).extracting(StreamsFixture::pk).containsExactly("o1");
		assertThat(this.fixture.readAll(lines)).extracting(StreamsFixture::pk).containsExactly("l1", "l2");
		String shard = this.fixture.shards(orders).get(0).shardId();
		assertThat(this.fixture.iterator(orders, shard, ShardIteratorType.TRIM_HORIZON, null)).startsWith(orders + "|");
	}

}
