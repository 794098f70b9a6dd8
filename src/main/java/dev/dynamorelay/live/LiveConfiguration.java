package dev.dynamorelay.live;

import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsAsyncClient;

import dev.dynamorelay.budget.FairShare;
import dev.dynamorelay.declaration.TablesProperties;
import dev.dynamorelay.dynamodb.DynamoDbProperties;
import dev.dynamorelay.dynamodb.FleetClients;
import dev.dynamorelay.dynamodb.tables.DeclaredTables;
import dev.dynamorelay.pagination.Paginator;

/**
 * The live engine: a stream reader for each table a {@code @live} field reads, started once the tables are
 * checked, and the subscriptions ended when the server stops; and its settings ({@link LiveProperties}). The
 * transports (GraphQL over WebSocket and Server-Sent Events) subscribe through {@link LiveConnections}.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({ LiveProperties.class, FleetProperties.class })
class LiveConfiguration {

	private static final Logger logger = LoggerFactory.getLogger(LiveConfiguration.class);

	@Bean(destroyMethod = "close")
	LiveConnections liveConnections(DeclaredTables tables, DynamoDbStreamsAsyncClient streams,
			DynamoDbAsyncClient dynamoDb, Paginator paginator, LiveProperties properties, FairShare fairShare,
			ObjectProvider<LiveMeters> meters, ObjectProvider<MeterRegistry> registry, FleetProperties fleet,
			TablesProperties tablesProperties, DynamoDbProperties dynamoDbProperties,
			ObjectProvider<FleetClients> fleetClients) throws Exception {
		List<String> read = tables.declarations()
			.subscriptions()
			.stream()
			.map((subscription) -> subscription.connection().definition().table())
			.distinct()
			.toList();
		if (!properties.enabled() && !read.isEmpty()) {
			logger.info("Live connections switched off (dynamo-relay.live.enabled=false): the streams of {} are not "
					+ "read, and subscriptions are refused UNAVAILABLE", read);
		}
		LiveMemory memory = properties.memory();
		LiveMeters liveMeters = meters.getIfAvailable(() -> LiveMeters.NONE);
		LiveConnections live = (properties.broker() == LiveProperties.Broker.REDIS && properties.enabled()
				&& !read.isEmpty())
						? FleetSetup.connections(tables, read, fleetClients.getObject(), paginator, properties,
								fleet, tablesProperties.create(dynamoDbProperties.embedded()),
								dynamoDbProperties.aws() ? "" : " --endpoint-url " + endpoint(dynamoDbProperties),
								fairShare, liveMeters, memory, registry.getIfAvailable())
						: new LiveConnections(streams, dynamoDb, read, paginator, properties.settings(), liveMeters,
								memory, fairShare);
		registry.ifAvailable((meterRegistry) -> Gauge
			.builder("dynamorelay.live.pending", memory, LiveMemory::held)
			.description("Bytes of changes waiting to be sent to subscribers: in their buffers, and handed to the "
					+ "transport but not yet written (dynamo-relay.live.max-pending-bytes)")
			.baseUnit("bytes")
			.register(meterRegistry));
		registry.ifAvailable((meterRegistry) -> Gauge
			.builder("dynamorelay.live.stream.lag", live, (connections) -> connections.lag().toMillis() / 1000.0)
			.description("How far the stream readers are behind the streams' newest records: the age of the last "
					+ "record a read found, 0 once a read finds nothing more (DynamoDB tells a record's time to the "
					+ "second)")
			.baseUnit("seconds")
			.register(meterRegistry));
		return live;
	}

	/** The endpoint an {@code aws} command names for these tables (the embedded engine's is known once it runs). */
	private static String endpoint(DynamoDbProperties properties) {
		return properties.url().map(Object::toString).orElse("http://localhost:8000");
	}

	/** Live connections in readiness ({@code live}): in a fleet, DOWN while Redis is unreachable. */
	@Bean
	LiveHealthIndicator liveHealthIndicator(LiveConnections live) {
		return new LiveHealthIndicator(live);
	}

	/**
	 * Starts the stream readers at their streams' newest records once every table holds what the start puts
	 * in it (the sample data loads while the server is built, and its writes are no changes to send), and
	 * before the web server listens: the second lifecycle to start, after the sample data's load.
	 */
	@Bean
	SmartLifecycle liveReaders(LiveConnections live) {
		return new SmartLifecycle() {

			private volatile boolean running;

			private volatile boolean started;

			/** Starts the readers once: a context stopped and started again (a paused test context) keeps them. */
			@Override
			public synchronized void start() {
				this.running = true;
				if (this.started) {
					return;
				}
				this.started = true;
				try {
					live.start().get(60, TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					throw new IllegalStateException("interrupted while starting the stream readers", ex);
				}
				catch (ExecutionException | TimeoutException ex) {
					throw new IllegalStateException("the stream readers did not start: " + ex.getMessage(), ex);
				}
			}

			@Override
			public void stop() {
				this.running = false;
			}

			@Override
			public boolean isRunning() {
				return this.running;
			}

			@Override
			public int getPhase() {
				return Integer.MIN_VALUE + 1;
			}

		};
	}

	/**
	 * Ends the live subscriptions when the server stops, before the web server's graceful shutdown: each is told
	 * {@code UNAVAILABLE} and where to resume ({@code extensions.after}), and its stream of Server-Sent Events
	 * closes. A stream that nothing ends would hold the graceful shutdown for its whole timeout, whether its client
	 * still reads or has long gone. WebSocket sessions close with 1012 in the same phase
	 * ({@link LiveWebSocketHandler}).
	 */
	@Bean
	SmartLifecycle liveSubscriptionsEnd(LiveConnections live) {
		return new SmartLifecycle() {

			private volatile boolean running;

			@Override
			public void start() {
				this.running = true;
				live.takeSubscriptions();
			}

			@Override
			public void stop() {
				this.running = false;
				int ended = live.endSubscriptions();
				if (ended > 0) {
					logger.info("Ended {} live subscriptions UNAVAILABLE, each told where to resume", ended);
				}
			}

			@Override
			public boolean isRunning() {
				return this.running;
			}

			@Override
			public int getPhase() {
				return SmartLifecycle.DEFAULT_PHASE - 512;
			}

		};
	}

}
