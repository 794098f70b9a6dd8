package dev.dynamorelay.metrics;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.stereotype.Component;

import dev.dynamorelay.error.ErrorCode;
import dev.dynamorelay.live.LiveMeters;
import dev.dynamorelay.pagination.ConnectionMeters;
import dev.dynamorelay.write.WriteMeters;

/**
 * The server's own meters (see the package documentation), made once per connection, operation name,
 * code or limit and kept, so that recording is an increment and never a registry lookup.
 */
@Component
@EnableConfigurationProperties(MetricsProperties.class)
public class ServerMeters implements ConnectionMeters.Source, WriteMeters.Source, LiveMeters {

	/** The operation name of a request whose document names none. */
	public static final String ANONYMOUS = "anonymous";

	/**
	 * The operation name of requests past {@link MetricsProperties#maxOperationNames()} distinct names, and of
	 * requests whose name is longer than {@link MetricsProperties#maxOperationNameLength()}.
	 */
	public static final String OTHER = "other";

	/** The operation name of a request refused before an operation was chosen (syntax, validation). */
	public static final String NONE = "none";

	/**
	 * The latency histograms' buckets: fixed (13 and +Inf), so that each operation name costs a known,
	 * small number of series; they bracket a page on DynamoDB (a few ms) up to the request timeout.
	 */
	private static final Duration[] BUCKETS = LongStream
		.of(1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000)
		.mapToObj(Duration::ofMillis)
		.toArray(Duration[]::new);

	private final MeterRegistry registry;

	private final boolean enabled;

	private final int maxOperationNames;

	private final int maxOperationNameLength;

	private final Map<String, ConnectionMeters> connections = new ConcurrentHashMap<>();

	/** Timers by operation name, then outcome ({@code ok} or {@code error}). */
	private final Map<String, Timer[]> requests = new ConcurrentHashMap<>();

	/** Operation names of the client's choosing that have timers. */
	private final AtomicInteger operationNames = new AtomicInteger();

	private static final java.util.Set<String> KNOWN_CODES = java.util.stream.Stream.concat(
			java.util.Arrays.stream(ErrorCode.values()).map(Enum::name),
			java.util.stream.Stream.of("PERSISTED_QUERY_NOT_FOUND", "PERSISTED_QUERY_NOT_SUPPORTED"))
		.collect(java.util.stream.Collectors.toUnmodifiableSet());

	private final Map<String, Counter> errors = new ConcurrentHashMap<>();

	private final Map<String, WriteMeters> mutations = new ConcurrentHashMap<>();

	private final Map<String, Counter> live = new ConcurrentHashMap<>();

	private final Map<String, AtomicInteger> subscribers = new ConcurrentHashMap<>();

	private final Map<String, Counter> refusals = new ConcurrentHashMap<>();

	private final Map<String, Timer> dynamoDbCalls = new ConcurrentHashMap<>();

	ServerMeters(ObjectProvider<MeterRegistry> registry, MetricsProperties properties) {
		this.registry = registry.getIfAvailable();
		this.enabled = properties.enabled() && this.registry != null;
		this.maxOperationNames = properties.maxOperationNames();
		this.maxOperationNameLength = properties.maxOperationNameLength();
	}

	/** Whether meters record at all. */
	public boolean enabled() {
		return this.enabled;
	}

	@Override
	public ConnectionMeters of(String field) {
		if (!this.enabled) {
			return ConnectionMeters.NONE;
		}
		return this.connections.computeIfAbsent(field, this::connection);
	}

	@Override
	public WriteMeters mutation(String name) {
		if (!this.enabled) {
			return WriteMeters.NONE;
		}
		return this.mutations.computeIfAbsent(name, this::mutationMeters);
	}

	private WriteMeters mutationMeters(String mutation) {
		Counter written = counter("dynamorelay.mutation.calls", "Declared mutations run, by outcome", "mutation", mutation,
				"outcome", "written");
		Counter items = counter("dynamorelay.mutation.items.written",
				"Items the mutation wrote (children and list items included)", "mutation", mutation);
		Counter capacity = counter("dynamorelay.mutation.consumed.capacity",
				"Capacity units the mutation's calls consumed (writes and the reads they needed)", "mutation", mutation);
		Map<ErrorCode, Counter> refused = new ConcurrentHashMap<>();
		return new WriteMeters() {

			@Override
			public void written(int count, double capacityUnits) {
				written.increment();
				items.increment(count);
				capacity.increment(capacityUnits);
			}

			@Override
			public void unchanged(double capacityUnits) {
				// Registered on first use: only a delete can write nothing.
				counter("dynamorelay.mutation.calls", "Declared mutations run, by outcome", "mutation", mutation, "outcome",
						"unchanged").increment();
				capacity.increment(capacityUnits);
			}

			@Override
			public void refused(ErrorCode code) {
				refused.computeIfAbsent(code, (key) -> counter("dynamorelay.mutation.calls",
						"Declared mutations run, by outcome", "mutation", mutation, "outcome", key.name())).increment();
			}

		};
	}

	@Override
	public void read(int records) {
		if (this.enabled) {
			liveCounter("dynamorelay.live.records.read", "Records read from the tables' streams").increment(records);
		}
	}

	@Override
	public void failed() {
		if (this.enabled) {
			liveCounter("dynamorelay.live.read.failures", "Reads of a stream that failed and were made again").increment();
		}
	}

	@Override
	public void delivered(String field) {
		if (this.enabled) {
			liveCounter("dynamorelay.live.changes.delivered", "Changes handed to subscribers", "subscription", field)
				.increment();
		}
	}

	@Override
	public void serialized(String field) {
		if (this.enabled) {
			liveCounter("dynamorelay.live.changes.serialized",
					"Changes executed and serialized once for the subscriptions of one shape", "subscription", field)
				.increment();
		}
	}

	@Override
	public void shared(String field) {
		if (this.enabled) {
			liveCounter("dynamorelay.live.changes.shared",
					"Changes answered with the answer made for another subscription of the same shape", "subscription",
					field)
				.increment();
		}
	}

	@Override
	public void dropped(String field, int changes) {
		if (this.enabled && changes > 0) {
			liveCounter("dynamorelay.live.changes.dropped",
					"Changes merged into a later one of the same item, or lost with a subscriber dropped as too slow",
					"subscription", field)
				.increment(changes);
		}
	}

	@Override
	public void subscribers(String field, int delta) {
		if (this.enabled) {
			this.subscribers.computeIfAbsent(field, (key) -> {
				AtomicInteger count = new AtomicInteger();
				io.micrometer.core.instrument.Gauge.builder("dynamorelay.live.subscribers", count, AtomicInteger::get)
					.description("Subscriptions open now")
					.tag("subscription", key)
					.register(this.registry);
				return count;
			}).addAndGet(delta);
		}
	}

	@Override
	public void resumed(String field) {
		if (this.enabled) {
			liveCounter("dynamorelay.live.resumes", "Subscriptions that resumed after an event they had received",
					"subscription", field)
				.increment();
		}
	}

	@Override
	public void replayed(int records) {
		if (this.enabled) {
			liveCounter("dynamorelay.live.replay.reads",
					"Reads of the tables' streams again for resuming subscribers (GetRecords; one serves all that need it)")
				.increment();
			liveCounter("dynamorelay.live.replay.records", "Records read again for resuming subscribers").increment(records);
		}
	}

	private Counter liveCounter(String name, String description, String... tags) {
		return this.live.computeIfAbsent(name + String.join(",", tags), (key) -> counter(name, description, tags));
	}

	private ConnectionMeters connection(String field) {
		Counter pages = counter("dynamorelay.connection.pages", "Pages served", "connection", field, "cut", "false");
		Counter cutPages = counter("dynamorelay.connection.pages", "Pages served", "connection", field, "cut", "true");
		Counter calls = counter("dynamorelay.connection.dynamodb.requests",
				"DynamoDB calls of the connection's pages, counts and exports", "connection", field);
		Counter scanned = counter("dynamorelay.connection.items.scanned",
				"Items DynamoDB read for the connection (ScannedCount)", "connection", field);
		Counter returned = counter("dynamorelay.connection.items.returned",
				"Items that matched the connection's filters (Count)", "connection", field);
		Counter capacity = counter("dynamorelay.connection.consumed.capacity",
				"Read capacity units the connection's calls consumed", "connection", field);
		return new ConnectionMeters() {

			@Override
			public void call(long scannedItems, long returnedItems, Double capacityUnits) {
				calls.increment();
				scanned.increment(scannedItems);
				returned.increment(returnedItems);
				if (capacityUnits != null) {
					capacity.increment(capacityUnits);
				}
			}

			@Override
			public void page(boolean cut) {
				(cut ? cutPages : pages).increment();
			}

		};
	}

	/**
	 * One GraphQL request (also each execution of a REST page), from its arrival at the interceptor to its
	 * answer; {@code failed} when it answers with any error.
	 */
	public void request(String operation, long nanos, boolean failed) {
		if (!this.enabled) {
			return;
		}
		// A client names its operations: a name of a megabyte, kept as a label, would be in every scrape.
		String name = (operation == null) ? NONE
				: (operation.length() > this.maxOperationNameLength) ? OTHER : operation;
		Timer[] timers = this.requests.get(name);
		if (timers == null) {
			boolean chosen = !name.equals(NONE) && !name.equals(ANONYMOUS) && !name.equals(OTHER);
			if (chosen && this.operationNames.get() >= this.maxOperationNames) {
				name = OTHER;
				chosen = false;
			}
			boolean counted = chosen;
			timers = this.requests.computeIfAbsent(name, (key) -> {
				if (counted) {
					this.operationNames.incrementAndGet();
				}
				return new Timer[] { requestTimer(key, "ok"), requestTimer(key, "error") };
			});
		}
		timers[failed ? 1 : 0].record(nanos, TimeUnit.NANOSECONDS);
	}

	private Timer requestTimer(String operation, String outcome) {
		return Timer.builder("dynamorelay.graphql.requests")
			.description("GraphQL requests (and REST pages) by operation name, from arrival to answer")
			.tags("operation", operation, "outcome", outcome)
			.serviceLevelObjectives(BUCKETS)
			.register(this.registry);
	}

	/** One error answered with {@code code}, in a GraphQL response, a REST problem or an HTTP refusal. */
	public void error(ErrorCode code) {
		error(code.name());
	}

	/**
	 * One error answered with {@code code}: one of {@link ErrorCode}'s or Apollo's persisted-query codes
	 * ({@code PERSISTED_QUERY_NOT_FOUND}, {@code PERSISTED_QUERY_NOT_SUPPORTED}); any other is counted as
	 * {@code OTHER}.
	 */
	public void error(String code) {
		if (this.enabled) {
			Counter counter = this.errors.get(code);
			if (counter == null) {
				String known = (KNOWN_CODES.contains(code)) ? code : "OTHER";
				counter = this.errors.computeIfAbsent(known, (key) -> counter("dynamorelay.errors",
						"Errors answered, by the contract's code", "code", key));
			}
			counter.increment();
		}
	}

	/** One request refused by the cost limit {@code limit} (depth, root-fields, items or selections). */
	public void refusal(String limit) {
		if (this.enabled) {
			this.refusals.computeIfAbsent(limit, (key) -> counter("dynamorelay.cost.limit.refusals",
					"Requests refused by a cost limit before any read", "limit", key)).increment();
		}
	}

	/**
	 * One DynamoDB API call (its retries included) by operation ({@code Query}, {@code BatchGetItem}, ...) and
	 * outcome: {@code ok}, DynamoDB's error code, {@code timeout} or {@code client}.
	 */
	void dynamoDbCall(String operation, String outcome, long nanos) {
		if (!this.enabled) {
			return;
		}
		String key = operation + ' ' + outcome;
		Timer timer = this.dynamoDbCalls.get(key);
		if (timer == null) {
			timer = this.dynamoDbCalls.computeIfAbsent(key, (ignored) -> Timer.builder("dynamorelay.dynamodb.calls")
				.description("DynamoDB API calls, retries included, by operation and outcome")
				.tags("operation", operation, "outcome", outcome)
				.serviceLevelObjectives(BUCKETS)
				.register(this.registry));
		}
		timer.record(nanos, TimeUnit.NANOSECONDS);
	}

	private Counter counter(String name, String description, String... tags) {
		return Counter.builder(name).description(description).tags(tags).register(this.registry);
	}

}
