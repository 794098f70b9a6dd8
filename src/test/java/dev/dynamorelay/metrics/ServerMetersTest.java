package dev.dynamorelay.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.support.StaticListableBeanFactory;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;

import dev.dynamorelay.pagination.ConnectionMeters;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class ServerMetersTest {

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private ServerMeters meters(boolean enabled, int maxOperationNames) {
		StaticListableBeanFactory beans = new StaticListableBeanFactory();
		beans.addBean("registry", this.registry);
		return new ServerMeters(beans.getBeanProvider(MeterRegistry.class),
				new MetricsProperties(enabled, maxOperationNames, 100));
	}

	@Test
	void operationNamesPastTheLimitShareOneSeries() {
		ServerMeters meters = meters(true, 2);
		for (String name : new String[] { "A", "B", "C", "D", "A", ServerMeters.ANONYMOUS }) {
			meters.request(name, 1_000_000, false);
		}
		meters.request(null, 1_000_000, true);
		assertThat(this.registry.find("dynamorelay.graphql.requests").tag("outcome", "ok").timers())
			.extracting((timer) -> timer.getId().getTag("operation"))
			.containsExactlyInAnyOrder("A", "B", ServerMeters.OTHER, ServerMeters.ANONYMOUS, ServerMeters.NONE);
		assertThat(this.registry.get("dynamorelay.graphql.requests").tags("operation", "A", "outcome", "ok").timer().count())
			.isEqualTo(2);
		assertThat(this.registry.get("dynamorelay.graphql.requests").tags("operation", "other", "outcome", "ok").timer()
			.count()).isEqualTo(2);
		assertThat(this.registry.get("dynamorelay.graphql.requests").tags("operation", "none", "outcome", "error")
			.timer().count()).isEqualTo(1);
	}

	@Test
	void longOperationNamesShareTheOtherSeriesAndTakeNoPlace() {
		ServerMeters meters = meters(true, 2);
		String megabyte = "Q".repeat(1 << 20);
		for (int i = 0; i < 20; i++) {
			meters.request(megabyte + i, 1_000_000, false);
		}
		meters.request("Q".repeat(100), 1_000_000, false);
		meters.request("B", 1_000_000, false);
		assertThat(this.registry.find("dynamorelay.graphql.requests").tag("outcome", "ok").timers())
			.extracting((timer) -> timer.getId().getTag("operation"))
			.containsExactlyInAnyOrder(ServerMeters.OTHER, "Q".repeat(100), "B");
		assertThat(this.registry.get("dynamorelay.graphql.requests").tags("operation", "other", "outcome", "ok").timer()
			.count()).isEqualTo(20);
	}

	@Test
	void aNameLengthBoundBelowOneIsRefusedAtStart() {
		assertThatIllegalArgumentException().isThrownBy(() -> new MetricsProperties(true, 10, 0))
			.withMessageContaining("dynamo-relay.metrics.max-operation-name-length");
	}

	@Test
	void connectionMetersAreMadeOncePerField() {
		ServerMeters meters = meters(true, 10);
		ConnectionMeters users = meters.of("Query.users");
		assertThat(meters.of("Query.users")).isSameAs(users);
		users.call(10, 4, 1.5);
		users.call(3, 3, null);
		users.page(false);
		users.page(true);
		assertThat(this.registry.get("dynamorelay.connection.items.scanned").tag("connection", "Query.users").counter()
			.count()).isEqualTo(13);
		assertThat(this.registry.get("dynamorelay.connection.items.returned").counter().count()).isEqualTo(7);
		assertThat(this.registry.get("dynamorelay.connection.consumed.capacity").counter().count()).isEqualTo(1.5);
		assertThat(this.registry.get("dynamorelay.connection.dynamodb.requests").counter().count()).isEqualTo(2);
		assertThat(this.registry.get("dynamorelay.connection.pages").tag("cut", "true").counter().count()).isEqualTo(1);
	}

	@Test
	void unknownErrorCodesAreCountedAsOther() {
		ServerMeters meters = meters(true, 10);
		meters.error("INVALID_CURSOR");
		meters.error("PERSISTED_QUERY_NOT_FOUND");
		meters.error("SOMETHING_ELSE");
		meters.error("YET_ANOTHER");
		assertThat(this.registry.find("dynamorelay.errors").counters())
			.extracting((counter) -> counter.getId().getTag("code"))
			.containsExactlyInAnyOrder("INVALID_CURSOR", "PERSISTED_QUERY_NOT_FOUND", "OTHER");
		assertThat(this.registry.get("dynamorelay.errors").tag("code", "OTHER").counter().count()).isEqualTo(2);
	}

	@Test
	void disabledMetersRecordNothing() {
		ServerMeters meters = meters(false, 10);
		assertThat(meters.of("Query.users")).isSameAs(ConnectionMeters.NONE);
		meters.request("A", 1, false);
		meters.error("INTERNAL");
		meters.refusal("depth");
		meters.dynamoDbCall("Query", "ok", 1);
		assertThat(this.registry.getMeters()).isEmpty();
	}

	@Test
	void aNegativeNameBoundIsRefusedAtStart() {
		assertThatIllegalArgumentException().isThrownBy(() -> new MetricsProperties(true, -1, 100))
			.withMessageContaining("dynamo-relay.metrics.max-operation-names");
		assertThat(new MetricsProperties(true, 0, 100).maxOperationNames()).isZero();
	}

	@Test
	void callOutcomesAreDynamoDbsCodeATimeoutOrTheClient() {
		assertThat(DynamoDbCallMeters.outcome(new java.util.concurrent.CompletionException(
				ProvisionedThroughputExceededException.builder()
					.awsErrorDetails(AwsErrorDetails.builder().errorCode("ProvisionedThroughputExceededException").build())
					.build()))).isEqualTo("ProvisionedThroughputExceededException");
		assertThat(DynamoDbCallMeters.outcome(ApiCallTimeoutException.create(100))).isEqualTo("timeout");
		assertThat(DynamoDbCallMeters.outcome(SdkClientException.create("refused"))).isEqualTo("client");
	}

}
