package dev.dynamorelay.transport.graphql.live;

import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.graphql.autoconfigure.GraphQlProperties;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.graphql.server.WebGraphQlHandler;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.converter.json.JacksonJsonHttpMessageConverter;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.web.socket.server.standard.ServletServerContainerFactoryBean;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsAsyncClient;
import tools.jackson.databind.json.JsonMapper;

import dev.dynamorelay.access.Access;
import dev.dynamorelay.budget.FairShare;
import dev.dynamorelay.budget.RequestBudgets;
import dev.dynamorelay.dynamodb.tables.DeclaredTables;
import dev.dynamorelay.live.LiveConnections;
import dev.dynamorelay.live.LiveMemory;
import dev.dynamorelay.live.LiveMeters;
import dev.dynamorelay.pagination.Paginator;
import dev.dynamorelay.transport.web.HttpLimitsProperties;

/**
 * Live connections: a stream reader for each table a {@code @live} field reads, started once the tables are
 * checked; the subscriptions' data fetchers; and the WebSocket transport's handler, callers and buffers.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(LiveProperties.class)
class LiveConfiguration {

	/**
	 * Room for a graphql-ws message's own fields ({@code type}, {@code id}) around the request it carries: a
	 * subscribe message carrying the largest request body a POST may send is taken.
	 */
	static final long MESSAGE_ENVELOPE = 1024;

	private static final Logger logger = LoggerFactory.getLogger(LiveConfiguration.class);

	@Bean(destroyMethod = "close")
	LiveConnections liveConnections(DeclaredTables tables, DynamoDbStreamsAsyncClient streams,
			DynamoDbAsyncClient dynamoDb, Paginator paginator, LiveProperties properties, FairShare fairShare,
			ObjectProvider<LiveMeters> meters, ObjectProvider<io.micrometer.core.instrument.MeterRegistry> registry)
			throws Exception {
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
		LiveConnections live = new LiveConnections(streams, dynamoDb, read, paginator, properties.settings(),
				meters.getIfAvailable(() -> LiveMeters.NONE), memory, fairShare);
		registry.ifAvailable((meterRegistry) -> io.micrometer.core.instrument.Gauge
			.builder("dynamorelay.live.pending", memory, LiveMemory::held)
			.description("Bytes of changes waiting to be sent to subscribers: in their buffers, and handed to the "
					+ "transport but not yet written (dynamo-relay.live.max-pending-bytes)")
			.baseUnit("bytes")
			.register(meterRegistry));
		registry.ifAvailable((meterRegistry) -> io.micrometer.core.instrument.Gauge
			.builder("dynamorelay.live.stream.lag", live, (connections) -> connections.lag().toMillis() / 1000.0)
			.description("How far the stream readers are behind the streams' newest records: the age of the last "
					+ "record a read found, 0 once a read finds nothing more (DynamoDB tells a record's time to the "
					+ "second)")
			.baseUnit("seconds")
			.register(meterRegistry));
		return live;
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

	@Bean
	SubscriptionWiring subscriptionWiring(DeclaredTables tables, LiveConnections live, Access access,
			RequestBudgets budgets) {
		return new SubscriptionWiring(tables.declarations(), live, access, budgets);
	}

	/**
	 * Replaces Boot's handler of the same name: it knows its sessions, to drop, refuse and close them, and takes
	 * a message as large as a request body (dynamo-relay.http.max-body-size) with its envelope.
	 */
	@Bean
	LiveWebSocketHandler graphQlWebSocketHandler(WebGraphQlHandler handler, GraphQlProperties properties,
			JsonMapper json, HttpLimitsProperties limits, LiveConnections live, LiveProperties liveProperties) {
		WebSocketSessionGone.install();
		@SuppressWarnings("unchecked")
		HttpMessageConverter<Object> converter = (HttpMessageConverter<Object>) (HttpMessageConverter<?>) new JacksonJsonHttpMessageConverter(json);
		return new LiveWebSocketHandler(handler, converter, properties.getWebsocket().getConnectionInitTimeout(),
				properties.getWebsocket().getKeepAlive(), limits.maxBodySize().toBytes() + MESSAGE_ENVELOPE, live.memory(),
				json, liveProperties.sendTimeout());
	}

	/** Ties each subscription to its transport connection's account of bytes. */
	@Bean
	LiveOutlets liveOutlets() {
		return new LiveOutlets();
	}

	/**
	 * Tomcat's message buffers of each WebSocket session, small: the handler takes messages in parts of this size,
	 * so they bound no message (with whole messages, each would be the largest message a session could take).
	 */
	@Bean
	ServletServerContainerFactoryBean webSocketContainer() {
		ServletServerContainerFactoryBean container = new ServletServerContainerFactoryBean();
		container.setMaxTextMessageBufferSize(WebSocketBuffers.SIZE);
		container.setMaxBinaryMessageBufferSize(WebSocketBuffers.SIZE);
		return container;
	}

	@Bean
	WebSocketCallers webSocketCallers(ObjectProvider<JwtDecoder> decoder, ObjectProvider<LiveWebSocketHandler> handler) {
		return new WebSocketCallers(decoder, handler);
	}

}
