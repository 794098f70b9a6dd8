package dev.dynamorelay.engine.streams;

import java.time.Duration;
import java.util.Base64;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import software.amazon.awssdk.services.dynamodb.model.GetRecordsRequest;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;

import dev.dynamorelay.engine.action.AwsError;

import static dev.dynamorelay.engine.streams.StreamsFixture.item;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The four iterator types, their refusals, and GetRecords' pages, limits and expiry. */
class ShardIteratorsTest {

	private final StreamsFixture fixture = new StreamsFixture();

	private String arn;

	private Shard shard;

	@BeforeEach
	void stream() {
		this.arn = this.fixture.create("Orders", StreamViewType.KEYS_ONLY);
		this.shard = this.fixture.shards(this.arn).get(0);
	}

	private List<Record> writeThree() {
		this.fixture.put("Orders", item("a"));
		this.fixture.put("Orders", item("b"));
		this.fixture.put("Orders", item("c"));
		return this.fixture.readAll(this.arn);
	}

	private String iterator(ShardIteratorType type, String sequenceNumber) {
		return this.fixture.iterator(this.arn, this.shard.shardId(), type, sequenceNumber);
	}

	@Test
	void trimHorizonReadsFromTheOldestRecord() {
		writeThree();

		assertThat(this.fixture.drain(iterator(ShardIteratorType.TRIM_HORIZON, null))).extracting(StreamsFixture::pk)
			.containsExactly("a", "b", "c");
	}

	@Test
	void latestReadsOnlyWhatIsWrittenAfterIt() {
		writeThree();
		String latest = iterator(ShardIteratorType.LATEST, null);

		GetRecordsResponse nothing = this.fixture.records(latest);
		this.fixture.put("Orders", item("d"));

		// GetRecords answers an empty list, not none, at the tip of an open shard, with an iterator to go on.
		assertThat(nothing.hasRecords()).isTrue();
		assertThat(nothing.records()).isEmpty();
		assertThat(nothing.nextShardIterator()).isNotNull();
		assertThat(this.fixture.drain(nothing.nextShardIterator())).extracting(StreamsFixture::pk).containsExactly("d");
		assertThat(this.fixture.drain(latest)).extracting(StreamsFixture::pk).containsExactly("d");
	}

	@Test
	void atSequenceNumberReadsFromThatRecordAndAfterSequenceNumberFromTheNext() {
		List<Record> records = writeThree();
		String second = records.get(1).dynamodb().sequenceNumber();

		assertThat(this.fixture.drain(iterator(ShardIteratorType.AT_SEQUENCE_NUMBER, second)))
			.extracting(StreamsFixture::pk)
			.containsExactly("b", "c");
		assertThat(this.fixture.drain(iterator(ShardIteratorType.AFTER_SEQUENCE_NUMBER, second)))
			.extracting(StreamsFixture::pk)
			.containsExactly("c");
		assertThat(this.fixture.drain(
				iterator(ShardIteratorType.AFTER_SEQUENCE_NUMBER, records.get(2).dynamodb().sequenceNumber())))
			.isEmpty();
	}

	@Test
	void theShardsStartingSequenceNumberReadsAllItHolds() {
		writeThree();
		String start = this.shard.sequenceNumberRange().startingSequenceNumber();

		assertThat(this.fixture.drain(iterator(ShardIteratorType.AT_SEQUENCE_NUMBER, start))).hasSize(3);
		assertThat(this.fixture.drain(iterator(ShardIteratorType.AFTER_SEQUENCE_NUMBER, start))).hasSize(3);
	}

	@Test
	void aNextShardIteratorGoesOnWhereThePageEnded() {
		for (int i = 0; i < 25; i++) {
			this.fixture.put("Orders", item("k" + i));
		}
		String next = iterator(ShardIteratorType.TRIM_HORIZON, null);
		List<String> read = new java.util.ArrayList<>();
		for (int page = 0; page < 3; page++) {
			GetRecordsResponse response = this.fixture.streams
				.getRecords(GetRecordsRequest.builder().shardIterator(next).limit(10).build());
			response.records().forEach((record) -> read.add(StreamsFixture.pk(record)));
			next = response.nextShardIterator();
		}

		assertThat(read).hasSize(25).doesNotHaveDuplicates();
		assertThat(read.get(24)).isEqualTo("k24");
	}

	@Test
	void aPageHoldsAtMostOneMegabyteButAlwaysOneRecord() {
		this.fixture.changeStream("Orders", null);
		this.arn = this.fixture.changeStream("Orders", StreamViewType.NEW_IMAGE);
		this.shard = this.fixture.shards(this.arn).get(0);
		String big = "x".repeat(300_000);
		for (int i = 0; i < 5; i++) {
			this.fixture.put("Orders", item("k" + i, "big", big));
		}

		GetRecordsResponse first = this.fixture.records(iterator(ShardIteratorType.TRIM_HORIZON, null));

		// Each record is about 300 KB: three fit in 1 MB, the fourth would not.
		assertThat(first.records()).hasSize(3);
		assertThat(this.fixture.drain(first.nextShardIterator())).hasSize(2);
	}

	@Test
	void refusesSequenceNumbersWhereTheTypeTakesNoneAndTheirAbsenceWhereItNeedsOne() {
		String sequence = this.shard.sequenceNumberRange().startingSequenceNumber();

		assertThatThrownBy(() -> iterator(ShardIteratorType.AT_SEQUENCE_NUMBER, null)).isInstanceOf(AwsError.class)
			.hasMessage("Must specify a SequenceNumber for ShardIteratorType AT_SEQUENCE_NUMBER")
			.extracting((error) -> ((AwsError) error).type())
			.isEqualTo("ValidationException");
		assertThatThrownBy(() -> iterator(ShardIteratorType.AFTER_SEQUENCE_NUMBER, null))
			.hasMessage("Must specify a SequenceNumber for ShardIteratorType AFTER_SEQUENCE_NUMBER");
		assertThatThrownBy(() -> iterator(ShardIteratorType.TRIM_HORIZON, sequence))
			.hasMessage("SequenceNumber may be given only for ShardIteratorType AT_SEQUENCE_NUMBER or AFTER_SEQUENCE_NUMBER");
		assertThatThrownBy(() -> iterator(ShardIteratorType.LATEST, sequence))
			.hasMessage("SequenceNumber may be given only for ShardIteratorType AT_SEQUENCE_NUMBER or AFTER_SEQUENCE_NUMBER");
	}

	@Test
	void refusesSequenceNumbersOutsideTheShard() {
		List<Record> records = writeThree();
		String past = StreamNames.sequenceNumber(Long.parseLong(records.get(2).dynamodb().sequenceNumber().substring(1)) + 1);

		assertThatThrownBy(() -> iterator(ShardIteratorType.AT_SEQUENCE_NUMBER, past)).isInstanceOf(AwsError.class)
			.hasMessageStartingWith("Sequence number " + past + " is not in shard " + this.shard.shardId());
		assertThatThrownBy(() -> iterator(ShardIteratorType.AT_SEQUENCE_NUMBER, "000000000000000000001"))
			.hasMessageStartingWith("Sequence number 000000000000000000001 is not in shard");
		assertThatThrownBy(() -> iterator(ShardIteratorType.AT_SEQUENCE_NUMBER, "10000000000000000000x"))
			.isInstanceOf(AwsError.class)
			.hasMessage("Invalid SequenceNumber: 10000000000000000000x");
	}

	@Test
	void refusesAGarbledOrTamperedIterator() {
		writeThree();
		String good = iterator(ShardIteratorType.TRIM_HORIZON, null);
		String payload = good.substring(good.indexOf("|1|") + 3);
		byte[] bytes = Base64.getUrlDecoder().decode(payload);
		bytes[bytes.length - 6] ^= 1;
		String tampered = good.substring(0, good.indexOf("|1|") + 3) + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
		String otherStream = "arn:aws:dynamodb:eu-west-1:000000000000:table/Other/stream/2025-03-01T10:15:30.123"
				+ good.substring(good.indexOf("|1|"));

		for (String iterator : List.of("sdfsdfsgagaddafgagasgasgasdfasdfasdfasdfasdgasdasdgasdg", tampered, otherStream,
				good.substring(0, good.length() - 2), good + "AA", this.arn + "|1|***")) {
			assertThatThrownBy(() -> this.fixture.records(iterator)).as(iterator)
				.isInstanceOf(AwsError.class)
				.hasMessage("Invalid ShardIterator")
				.extracting((error) -> ((AwsError) error).type())
				.isEqualTo("ValidationException");
		}
	}

	@Test
	void anIteratorExpiresFifteenMinutesAfterItWasHandedOut() {
		writeThree();
		String iterator = iterator(ShardIteratorType.TRIM_HORIZON, null);
		this.fixture.clock.advance(Duration.ofMinutes(15).minusMillis(1));
		GetRecordsResponse stillValid = this.fixture.records(iterator);
		this.fixture.clock.advance(Duration.ofMillis(1));

		assertThat(stillValid.records()).hasSize(3);
		assertThatThrownBy(() -> this.fixture.records(iterator)).isInstanceOf(AwsError.class)
			.hasMessage("The provided iterator exceeds the maximum age allowed.")
			.extracting((error) -> ((AwsError) error).type())
			.isEqualTo("ExpiredIteratorException");
		// The iterator GetRecords handed out is as young as that answer.
		assertThat(this.fixture.records(stillValid.nextShardIterator()).records()).isEmpty();
	}

	@Test
	void aClosedShardReadToItsEndHasNoNextIterator() {
		writeThree();
		this.fixture.changeStream("Orders", null);

		GetRecordsResponse all = this.fixture.records(iterator(ShardIteratorType.TRIM_HORIZON, null));
		GetRecordsResponse latest = this.fixture.records(iterator(ShardIteratorType.LATEST, null));
		GetRecordsResponse paged = this.fixture.streams.getRecords(
				GetRecordsRequest.builder().shardIterator(iterator(ShardIteratorType.TRIM_HORIZON, null)).limit(2).build());

		assertThat(all.records()).hasSize(3);
		assertThat(all.nextShardIterator()).isNull();
		assertThat(latest.records()).isEmpty();
		assertThat(latest.nextShardIterator()).isNull();
		assertThat(paged.nextShardIterator()).as("one record is left").isNotNull();
		assertThat(this.fixture.records(paged.nextShardIterator()).nextShardIterator()).isNull();
	}

	@Test
	void refusesAShardThatDoesNotExist() {
		assertThatThrownBy(() -> this.fixture.iterator(this.arn, "shardId-00000000000000000000-00000000",
				ShardIteratorType.LATEST, null))
			.isInstanceOf(AwsError.class)
			.hasMessage("Requested resource not found: Shard does not exist")
			.extracting((error) -> ((AwsError) error).type())
			.isEqualTo("ResourceNotFoundException");
	}

}
