package dev.dynamorelay.live;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.model.Record;

import dev.dynamorelay.dynamodb.DynamoDbFailures;

/**
 * The fleet's broker of changes: Redis 7 (or Valkey) through Lettuce. The instance that reads a stream record
 * publishes it once ({@link #publish}): one Lua script, run atomically, notes the event (so that a record read
 * twice, by a lease's next holder from its checkpoint, is published once), appends it to its table's window (a
 * Redis stream, trimmed by count and age) and publishes it on the channels of the partitions its item was in before
 * and after the write. Each instance subscribes only to the channels of the partitions its own subscribers read
 * ({@link #watch}); a subscriber that resumes reads the window from its event on ({@link #window}).
 *
 * <p>Keys and channels share the prefix {@code dynamo-relay:{<lease table>}:}, so that two deployments can share one
 * Redis, and a deployment's keys one slot of a cluster.
 */
final class RedisBroker implements AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(RedisBroker.class);

	/**
	 * KEYS[1] the event's key, KEYS[2] the table's window; ARGV[1] the message, ARGV[2] the window's seconds,
	 * ARGV[3] its most entries, ARGV[4...] the channels. Answers 1 when published, 0 when published before. (A script
	 * is not undone when a command of it fails: the event is noted only once it is in the window and published, so
	 * that a failure repeats a change rather than loses it.)
	 */
	static final String PUBLISH = """
			if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
			local id = redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[3], '*', 'm', ARGV[1])
			for i = 4, #ARGV do redis.call('PUBLISH', ARGV[i], ARGV[1]) end
			redis.call('SET', KEYS[1], id, 'EX', ARGV[2])
			local now = redis.call('TIME')
			local oldest = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000) - tonumber(ARGV[2]) * 1000
			redis.call('XTRIM', KEYS[2], 'MINID', '~', oldest)
			return 1
			""";

	private static final RedisCodec<String, byte[]> CODEC = RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE);

	/** The window's entries one read of it takes. */
	static final int WINDOW_PAGE = 500;

	private final String prefix;

	private final FleetProperties properties;

	private final ClientResources resources;

	private final RedisClient client;

	private final StatefulRedisConnection<String, byte[]> commands;

	private final StatefulRedisPubSubConnection<String, byte[]> pubSub;

	private final String script;

	/** The channels subscribed to, and how many watch each. Guarded by this. */
	private final Map<String, Watch> watches = new HashMap<>();

	/** Channels no longer watched that were released while Redis was away (no UNSUBSCRIBE went). Guarded by this. */
	private final java.util.Set<String> released = new java.util.HashSet<>();

	private volatile boolean connected = true;

	private volatile boolean closed;

	private volatile Runnable onLost = () -> {
	};

	/**
	 * Connects to Redis and checks it: a Redis (or Valkey) of version 7 or later that answers within the connect
	 * timeout.
	 * @throws FleetStartException what to fix, when it cannot
	 */
	RedisBroker(FleetProperties properties, BiConsumer<String, ChangeRecord> changes) {
		if (properties.redisUrl() == null) {
			throw new FleetStartException("dynamo-relay.live.broker=redis needs the Redis server: set "
					+ "dynamo-relay.live.fleet.redis-url (redis://host:6379)");
		}
		this.properties = properties;
		this.prefix = prefix(properties.leaseTable());
		RedisURI uri;
		try {
			uri = RedisURI.create(properties.redisUrl());
		}
		catch (IllegalArgumentException ex) {
			throw new FleetStartException("dynamo-relay.live.fleet.redis-url is no Redis URL (" + ex.getMessage()
					+ "): give redis://host:port or rediss://host:port");
		}
		uri.setTimeout(properties.connectTimeout());
		// Reconnects soon after Redis is back (Lettuce's default waits up to 30 s between attempts).
		this.resources = DefaultClientResources.builder()
			.ioThreadPoolSize(2)
			.computationThreadPoolSize(2)
			.reconnectDelay(Delay.exponential(Duration.ofMillis(100), Duration.ofSeconds(2), 2, TimeUnit.MILLISECONDS))
			.build();
		this.client = RedisClient.create(this.resources, uri);
		this.client.setOptions(ClientOptions.builder()
			.autoReconnect(true)
			// While Redis is away a command fails at once: a publisher retries it, a subscriber is refused.
			.disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
			.timeoutOptions(TimeoutOptions.enabled(properties.connectTimeout()))
			// A connection whose peer vanished (a half-open one) is found by TCP's keepalive, then reconnected.
			.socketOptions(SocketOptions.builder().connectTimeout(properties.connectTimeout()).keepAlive(true).build())
			.build());
		try {
			this.commands = this.client.connect(CODEC);
			this.pubSub = this.client.connectPubSub(CODEC);
		}
		catch (RuntimeException ex) {
			this.client.shutdown(Duration.ZERO, Duration.ofSeconds(1));
			this.resources.shutdown(0, 1, TimeUnit.SECONDS);
			Throwable cause = ex;
			while (cause.getCause() != null && cause.getCause() != cause) {
				cause = cause.getCause();
			}
			throw new FleetStartException("Redis at " + safe(properties) + " did not answer within "
					+ properties.connectTimeout().toMillis() + " ms (" + ex.getMessage()
					+ ((cause != ex) ? ": " + cause.getMessage() : "") + "): start it, or fix "
					+ "dynamo-relay.live.fleet.redis-url (its host, port, password and TLS)");
		}
		try {
			checkVersion(this.commands.sync().info("server"), safe(properties));
			this.script = this.commands.sync().scriptLoad(PUBLISH);
		}
		catch (RuntimeException ex) {
			close();
			throw ex;
		}
		listen(changes);
		watchConnection();
	}

	/** Hands each change that arrives on a watched channel to {@code changes}. */
	private void listen(BiConsumer<String, ChangeRecord> changes) {
		this.pubSub.addListener(new RedisPubSubAdapter<>() {

			@Override
			public void message(String channel, byte[] message) {
				BrokerMessages.Message decoded;
				try {
					decoded = BrokerMessages.decode(message);
				}
				catch (IOException | RuntimeException ex) {
					logger.warn("A message on {} is no change of ours, left: {}", channel, ex.toString());
					return;
				}
				changes.accept(decoded.table(), decoded.record());
			}

		});
	}

	/** Notes when the subscriptions' connection to Redis is lost (ending them) and when it is back. */
	private void watchConnection() {
		FleetProperties properties = this.properties;
		this.client.addListener(new RedisConnectionStateListener() {

			@Override
			public void onRedisConnected(RedisChannelHandler<?, ?> connection, java.net.SocketAddress address) {
				if (connection == RedisBroker.this.pubSub && !RedisBroker.this.connected) {
					logger.info("Redis at {} is back: subscriptions are taken again", safe(properties));
					RedisBroker.this.connected = true;
					leaveReleased();
				}
			}

			@Override
			public void onRedisDisconnected(RedisChannelHandler<?, ?> connection) {
				// Closing the connections at the server's stop is no outage: the subscriptions were ended already.
				if (connection == RedisBroker.this.pubSub && RedisBroker.this.connected && !RedisBroker.this.closed) {
					RedisBroker.this.connected = false;
					logger.warn("Redis at {} is unreachable: live subscriptions end UNAVAILABLE with where to resume, "
							+ "and none are taken until it is back", safe(properties));
					RedisBroker.this.onLost.run();
				}
			}

		});
	}

	/** The server's version must be 7 or later (Valkey answers as Redis 7.2). */
	static void checkVersion(String info, String where) {
		String version = info.lines()
			.filter((line) -> line.startsWith("redis_version:"))
			.map((line) -> line.substring("redis_version:".length()).trim())
			.findFirst()
			.orElse("");
		int major;
		try {
			major = Integer.parseInt(version.split("\\.")[0]);
		}
		catch (NumberFormatException ex) {
			major = 0;
		}
		if (major < 7) {
			throw new FleetStartException("Redis at " + where + " is version '" + version
					+ "': live connections across instances need Redis 7 or later (or Valkey)");
		}
	}

	/** The Redis URL without its password, for messages. */
	private static String safe(FleetProperties properties) {
		URIish uri = new URIish(properties.redisUrl());
		return uri.withoutSecret();
	}

	/** Runs {@code action} when the connection to Redis is lost. */
	void onLost(Runnable action) {
		this.onLost = action;
	}

	/** Whether Redis is reachable now. */
	boolean connected() {
		return this.connected && this.pubSub.isOpen();
	}

	/** The channel of the changes of {@code table} in {@code partition}; of all its changes, for none. */
	String channel(String table, Optional<PartitionKey> partition) {
		return channel(this.prefix, table, partition);
	}

	/**
	 * A channel's name: the prefix, the table, and the partition's attribute, type and value; the table's own for the
	 * whole table. (Names that two partitions could share would only cost a receiver a record it judges and leaves.)
	 */
	static String channel(String prefix, String table, Optional<PartitionKey> partition) {
		return partition.map((key) -> prefix + "changes:" + table + ":" + key.attribute() + ":" + key.type() + ":"
				+ key.value()).orElse(prefix + "changes:" + table);
	}

	/** The keys' and channels' prefix of the deployment whose lease table is {@code leaseTable}. */
	static String prefix(String leaseTable) {
		return "dynamo-relay:{" + leaseTable + "}:";
	}

	/**
	 * Publishes {@code record} of {@code table} on {@code channels}, once: completes with false when it was published
	 * before (by this instance or another holder of its shard's lease).
	 */
	CompletableFuture<Boolean> publish(String table, ChangeRecord record, Record original, List<String> channels) {
		byte[] message = BrokerMessages.encode(table, record.shardId(), original);
		String[] keys = { this.prefix + "event:" + record.position().eventId(), window(table) };
		byte[][] arguments = new byte[3 + channels.size()][];
		arguments[0] = message;
		arguments[1] = ascii(Long.toString(this.properties.windowAge().toSeconds()));
		arguments[2] = ascii(Integer.toString(this.properties.windowChanges()));
		for (int i = 0; i < channels.size(); i++) {
			arguments[3 + i] = channels.get(i).getBytes(StandardCharsets.UTF_8);
		}
		return this.commands.async()
			.<Long>evalsha(this.script, ScriptOutputType.INTEGER, keys, arguments)
			.toCompletableFuture()
			.exceptionallyCompose((failure) -> (DynamoDbFailures.unwrap(failure) instanceof RedisNoScriptException)
					// Redis restarted without its scripts: the script itself once, which loads it again.
					? this.commands.async().<Long>eval(PUBLISH, ScriptOutputType.INTEGER, keys, arguments).toCompletableFuture()
					: CompletableFuture.failedFuture(failure))
			.thenApply((published) -> published != null && published == 1L);
	}

	/**
	 * Subscribes to {@code channel}, if no subscriber of this instance does yet; completes once Redis confirmed it,
	 * from when every change published on it reaches this instance.
	 */
	synchronized CompletableFuture<Void> watch(String channel) {
		Watch watch = this.watches.computeIfAbsent(channel, (key) -> new Watch());
		if (watch.count++ == 0 || watch.subscribed.isCompletedExceptionally()) {
			// The first watcher subscribes; a later one again when that subscription failed (Redis was away).
			watch.subscribed = this.pubSub.async().subscribe(channel).toCompletableFuture().whenComplete((done, failure) -> {
				if (failure != null) {
					logger.warn("Subscribing to {} in Redis failed: {}", channel, failure.toString());
				}
			});
		}
		this.released.remove(channel);
		return watch.subscribed;
	}

	/** One subscriber of {@code channel} less; the last unsubscribes. */
	synchronized void unwatch(String channel) {
		Watch watch = this.watches.get(channel);
		if (watch != null && --watch.count == 0) {
			this.watches.remove(channel);
			if (this.pubSub.isOpen()) {
				this.pubSub.async().unsubscribe(channel);
			}
			else {
				// Lettuce subscribes again, once reconnected, to every channel it was subscribed to.
				this.released.add(channel);
			}
		}
	}

	/** Back from an outage: the channels released meanwhile, which Lettuce subscribed to again, are left. */
	private synchronized void leaveReleased() {
		for (String channel : this.released) {
			if (!this.watches.containsKey(channel)) {
				this.pubSub.async().unsubscribe(channel);
			}
		}
		this.released.clear();
	}

	/** Whether Redis answers a PING now, within the connect timeout. */
	boolean answers() {
		try {
			return "PONG".equals(this.commands.async().ping().get(this.properties.connectTimeout().toMillis(),
					TimeUnit.MILLISECONDS));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
		catch (Exception ex) {
			return false;
		}
	}

	/** The channels this instance is subscribed to now. */
	synchronized int watching() {
		return this.watches.size();
	}

	/**
	 * When the fleet began to read {@code table}'s stream, as the first instance to start noted it (kept while Redis
	 * keeps its data): a shard's lease that was never checkpointed is read from the shard's oldest record, and the
	 * records written before this are history, not changes to send.
	 */
	java.time.Instant since(String table) {
		String key = this.prefix + "since:" + table;
		this.commands.sync().setnx(key, ascii(Long.toString(System.currentTimeMillis())));
		return java.time.Instant.ofEpochMilli(Long.parseLong(new String(this.commands.sync().get(key),
				StandardCharsets.US_ASCII)));
	}

	/** The id of {@code table}'s newest change in the window; {@code 0-0} when it holds none. */
	CompletableFuture<String> newest(String table) {
		return this.commands.async()
			.xrevrange(window(table), Range.create("-", "+"), Limit.from(1))
			.toCompletableFuture()
			.thenApply((newest) -> newest.isEmpty() ? "0-0" : newest.get(0).getId());
	}

	/** The window's entry of the change {@code position} names; empty when the window no longer holds it. */
	CompletableFuture<Optional<String>> entry(StreamPosition position) {
		return this.commands.async()
			.get(this.prefix + "event:" + position.eventId())
			.toCompletableFuture()
			.thenApply((entry) -> Optional.ofNullable(entry).map((bytes) -> new String(bytes, StandardCharsets.US_ASCII)));
	}

	/** A change read back from the window, and its entry's id. */
	record Entry(String id, ChangeRecord record) {
	}

	/** The changes of {@code table}'s window after entry {@code after} up to {@code upTo}, at most a page of them. */
	CompletableFuture<List<Entry>> window(String table, String after, String upTo) {
		return this.commands.async()
			.xrange(window(table), Range.from(Range.Boundary.excluding(after), Range.Boundary.including(upTo)),
					Limit.from(WINDOW_PAGE))
			.toCompletableFuture()
			.thenApply((messages) -> {
				List<Entry> entries = new ArrayList<>(messages.size());
				for (StreamMessage<String, byte[]> message : messages) {
					try {
						entries.add(new Entry(message.getId(), BrokerMessages.decode(message.getBody().get("m")).record()));
					}
					catch (IOException | RuntimeException ex) {
						logger.warn("Entry {} of the window of {} is no change of ours, left: {}", message.getId(), table,
								ex.toString());
					}
				}
				return entries;
			});
	}

	/** Whether the window of {@code table} still holds entry {@code id} (trimming takes the oldest first). */
	CompletableFuture<Boolean> holds(String table, String id) {
		return this.commands.async()
			.xrange(window(table), Range.create(id, id), Limit.from(1))
			.toCompletableFuture()
			.thenApply((found) -> !found.isEmpty());
	}

	private String window(String table) {
		return this.prefix + "window:" + table;
	}

	private static byte[] ascii(String text) {
		return text.getBytes(StandardCharsets.US_ASCII);
	}

	/** A channel's subscription on this instance. */
	private static final class Watch {

		private int count;

		private CompletableFuture<Void> subscribed;

	}

	@Override
	public void close() {
		this.closed = true;
		try {
			if (this.pubSub != null) {
				this.pubSub.closeAsync().get(1, TimeUnit.SECONDS);
			}
			if (this.commands != null) {
				this.commands.closeAsync().get(1, TimeUnit.SECONDS);
			}
		}
		catch (Exception ex) {
			logger.debug("Closing the Redis connections: {}", ex.toString());
		}
		this.client.shutdown(Duration.ZERO, Duration.ofSeconds(1));
		this.resources.shutdown(0, 1, TimeUnit.SECONDS);
	}

	/** A URL as a message may show it: without a password. */
	private record URIish(java.net.URI uri) {

		String withoutSecret() {
			return (this.uri.getUserInfo() == null) ? this.uri.toString()
					: this.uri.getScheme() + "://***@" + this.uri.getHost() + ":" + this.uri.getPort();
		}

	}

}
