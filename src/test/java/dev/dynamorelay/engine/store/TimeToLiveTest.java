package dev.dynamorelay.engine.store;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.DescribeTimeToLiveRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveDescription;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveSpecification;
import software.amazon.awssdk.services.dynamodb.model.UpdateTimeToLiveRequest;

import static dev.dynamorelay.engine.store.Fixtures.assertError;
import static dev.dynamorelay.engine.store.Fixtures.assertValidation;
import static dev.dynamorelay.engine.store.Fixtures.item;
import static dev.dynamorelay.engine.store.Fixtures.n;
import static dev.dynamorelay.engine.store.Fixtures.s;
import static org.assertj.core.api.Assertions.assertThat;

/** DescribeTimeToLive, UpdateTimeToLive and the deletion of expired items. */
class TimeToLiveTest {

	private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

	private Database database;

	private final List<ItemChange> heard = new ArrayList<>();

	@BeforeEach
	void table() {
		this.database = new Database(DatabaseOptions.defaults().withClock(Clock.fixed(NOW, ZoneOffset.UTC)).withTimeToLiveSweep(Duration.ZERO));
		Fixtures.hashTable(this.database, "sessions", "S");
		this.database.addCommitListener(new CommitListener() {

			@Override
			public CompletableFuture<Void> committed(Instant time, List<ItemChange> changes) {
				TimeToLiveTest.this.heard.addAll(changes);
				return DONE;
			}

			@Override
			public CompletableFuture<Void> tableChanged(Instant time, TableDescription description, boolean deleted) {
				return DONE;
			}

		});
	}

	@AfterEach
	void close() {
		this.database.close();
	}

	private TimeToLiveDescription describe() {
		return this.database.describeTimeToLive(DescribeTimeToLiveRequest.builder().tableName("sessions").build()).timeToLiveDescription();
	}

	private void update(boolean enabled, String attribute) {
		this.database.updateTimeToLive(UpdateTimeToLiveRequest.builder().tableName("sessions")
			.timeToLiveSpecification(TimeToLiveSpecification.builder().enabled(enabled).attributeName(attribute).build()).build());
	}

	@Test
	void describesTimeToLiveAsDisabledUntilEnabled() {
		assertThat(describe()).isEqualTo(TimeToLiveDescription.builder().timeToLiveStatus("DISABLED").build());
		update(true, "expires");
		assertThat(describe()).isEqualTo(TimeToLiveDescription.builder().timeToLiveStatus("ENABLED").attributeName("expires").build());
		assertValidation(() -> update(true, "expires"), "TimeToLive is already enabled");
		update(false, "expires");
		assertThat(describe().timeToLiveStatusAsString()).isEqualTo("DISABLED");
		assertValidation(() -> update(false, "expires"), "TimeToLive is already disabled");
		assertError(() -> this.database.describeTimeToLive(DescribeTimeToLiveRequest.builder().tableName("nothere").build()),
				"ResourceNotFoundException", "Requested resource not found: Table: nothere not found");
		assertValidation(() -> this.database.updateTimeToLive(UpdateTimeToLiveRequest.builder().tableName("sessions")
			.timeToLiveSpecification(TimeToLiveSpecification.builder().enabled(true).attributeName("").build()).build()),
				"1 validation error detected: Value '' at 'timeToLiveSpecification.attributeName' failed to satisfy constraint: "
						+ "Member must have length greater than or equal to 1");
	}

	@Test
	void sweepsOnItsOwnAtItsInterval() {
		try (Database swept = new Database(DatabaseOptions.defaults().withTimeToLiveSweep(Duration.ofMillis(20)))) {
			Fixtures.hashTable(swept, "short", "S");
			swept.updateTimeToLive(UpdateTimeToLiveRequest.builder().tableName("short")
				.timeToLiveSpecification(TimeToLiveSpecification.builder().enabled(true).attributeName("expires").build()).build());
			swept.putItem(PutItemRequest.builder().tableName("short").item(item("pk", s("gone"), "expires", n(Instant.now().getEpochSecond() - 1))).build());
			long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
			while (swept.scan(ScanRequest.builder().tableName("short").build()).count() > 0) {
				assertThat(System.nanoTime()).as("the sweep deleted the expired item").isLessThan(deadline);
				Thread.onSpinWait();
			}
		}
	}

	@Test
	void deletesItemsWhoseTimeHasPassedAndTellsTheListenersTheyExpired() {
		long now = NOW.getEpochSecond();
		PutItemRequest.Builder put = PutItemRequest.builder().tableName("sessions");
		this.database.putItem(put.item(item("pk", s("past"), "expires", n(now - 1))).build());
		this.database.putItem(put.item(item("pk", s("future"), "expires", n(now + 60))).build());
		this.database.putItem(put.item(item("pk", s("text"), "expires", s("0"))).build());
		this.database.putItem(put.item(item("pk", s("none"))).build());
		// further back than five years: DynamoDB leaves it
		this.database.putItem(put.item(item("pk", s("ancient"), "expires", n(now - 6L * 365 * 24 * 3600))).build());
		this.database.expireItems();
		assertThat(this.database.scan(ScanRequest.builder().tableName("sessions").build()).count()).isEqualTo(5);

		update(true, "expires");
		this.heard.clear();
		this.database.expireItems();

		assertThat(this.database.scan(ScanRequest.builder().tableName("sessions").build()).items()).extracting((item) -> item.get("pk").s())
			.containsExactlyInAnyOrder("future", "text", "none", "ancient");
		assertThat(this.heard).containsExactly(new ItemChange("sessions", item("pk", s("past")), item("pk", s("past"), "expires", n(now - 1)), null, true));
	}

}
