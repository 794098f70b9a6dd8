package dev.dynamorelay.live;

import java.lang.management.ManagementFactory;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

import dev.dynamorelay.budget.FairShare;
import dev.dynamorelay.declaration.DeclaredSubscription;
import dev.dynamorelay.dynamodb.FleetClients;
import dev.dynamorelay.dynamodb.tables.DeclaredTables;
import dev.dynamorelay.model.KeyAttribute;
import dev.dynamorelay.pagination.Paginator;

/**
 * Makes a process's live connections a member of a fleet ({@code dynamo-relay.live.broker=redis}): connects to
 * Redis and checks it, checks the lease tables, and joins the Kinesis Client Library application that shares the
 * tables' stream shards; each problem stops the start with what to fix.
 */
final class FleetSetup {

	private static final Logger logger = LoggerFactory.getLogger(FleetSetup.class);

	private FleetSetup() {
	}

	static LiveConnections connections(DeclaredTables tables, List<String> read, FleetClients clients,
			Paginator paginator, LiveProperties properties, FleetProperties fleet,
			boolean create, String endpointOption, FairShare fairShare, LiveMeters meters, LiveMemory memory,
			MeterRegistry registry) throws Exception {
		long timeout = fleet.connectTimeout().toMillis() * 4;
		DynamoDbAsyncClient dynamoDb = clients.dynamoDb();
		DynamoDbStreamsClient streams = clients.streams();
		LeaseTables.check(dynamoDb, LeaseTables.of(fleet.leaseTable(), endpointOption), create, timeout);
		Map<String, BrokeredFeed> receivers = new ConcurrentHashMap<>();
		RedisBroker broker = new RedisBroker(fleet, (table, record) -> {
			BrokeredFeed feed = receivers.get(table);
			if (feed != null) {
				feed.receive(record);
			}
		});
		ShardLeases leases;
		try {
			Map<String, String> arns = new LinkedHashMap<>();
			for (String table : read) {
				String arn = dynamoDb.describeTable((describe) -> describe.tableName(table))
					.get(timeout, TimeUnit.MILLISECONDS)
					.table()
					.latestStreamArn();
				if (arn == null) {
					throw new IllegalStateException("table " + table + " has no stream");
				}
				arns.put(table, arn);
			}
			String workerId = (fleet.workerId() != null && !fleet.workerId().isBlank()) ? fleet.workerId()
					: ManagementFactory.getRuntimeMXBean().getName() + ":" + UUID.randomUUID().toString().substring(0, 8);
			Region region = streams.serviceClientConfiguration().region();
			leases = new ShardLeases(fleet, workerId, arns, routing(tables.declarations().subscriptions()), broker,
					dynamoDb, streams, region, properties.pollInterval(),
					new KclMeters((registry != null) ? registry : new SimpleMeterRegistry()));
			logger.info("Live connections across instances: worker {} shares the shards of {} through lease table {}, "
					+ "changes through Redis", workerId, read, fleet.leaseTable());
		}
		catch (Exception | LinkageError ex) {
			broker.close();
			throw ex;
		}
		LiveConnections live = new LiveConnections(read, paginator, properties.settings(), meters, memory, fairShare,
				new LiveConnections.Fleet(broker, leases), (table, subscribers, shared) -> {
					BrokeredFeed feed = new BrokeredFeed(table, broker, subscribers, shared.timer(), shared.pace(), meters);
					receivers.put(table, feed);
					return feed;
				});
		if (registry != null) {
			gauges(registry, live);
		}
		return live;
	}

	/** How each table's records are routed: the attributes its live connections read by, or the whole table. */
	static Map<String, ShardLeases.Routing> routing(List<DeclaredSubscription> subscriptions) {
		Map<String, Set<String>> attributes = new LinkedHashMap<>();
		Set<String> whole = new HashSet<>();
		for (DeclaredSubscription subscription : subscriptions) {
			var definition = subscription.connection().definition();
			attributes.computeIfAbsent(definition.table(), (table) -> new HashSet<>());
			definition.partitionKey()
				.map(KeyAttribute::name)
				.ifPresentOrElse((name) -> attributes.get(definition.table()).add(name),
						() -> whole.add(definition.table()));
		}
		Map<String, ShardLeases.Routing> routing = new LinkedHashMap<>();
		attributes.forEach((table, names) -> routing.put(table, new ShardLeases.Routing(Set.copyOf(names),
				whole.contains(table))));
		return routing;
	}

	private static void gauges(MeterRegistry registry, LiveConnections live) {
		Gauge.builder("dynamorelay.live.fleet.leases", live,
				(connections) -> connections.leases().map(LiveConnections.Leases::held).orElse(0))
			.description("The stream shards this instance reads for the fleet (its Kinesis Client Library leases)")
			.register(registry);
		Gauge.builder("dynamorelay.live.fleet.shard.lag", live,
				(connections) -> connections.leases().map((leases) -> leases.lag().toMillis() / 1000.0).orElse(0.0))
			.description("How far the shards this instance reads are behind their streams' newest records (KCL's "
					+ "MillisBehindLatest, the most of any)")
			.baseUnit("seconds")
			.register(registry);
		Gauge.builder("dynamorelay.live.fleet.channels", live,
				(connections) -> connections.leases().map(LiveConnections.Leases::channels).orElse(0))
			.description("The broker's channels this instance is subscribed to: the partitions its subscribers read")
			.register(registry);
		Gauge.builder("dynamorelay.live.fleet.broker.up", live, (connections) -> connections.brokerReachable() ? 1 : 0)
			.description("Whether Redis, the fleet's broker of changes, is reachable (1) or not (0)")
			.register(registry);
	}

}
