package dev.dynamorelay.engine.wire;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

import dev.dynamorelay.engine.action.AwsError;

/**
 * The faults a running engine injects, per {@code X-Amz-Target} or for every target ({@link #ALL}); changed at
 * any time, from Java ({@code DynamoDbEngine.faults()}) or over HTTP (the {@code DynamoRelayEngine.SetFaults}
 * target). A target's own fault replaces the one for every target. Calls held by a stall are answered (served as
 * if no fault applied) as soon as their target's fault no longer stalls, or on {@link #release()}.
 */
public final class Faults {

	/** The key of the fault that applies to every target without one of its own. */
	public static final String ALL = "*";

	private volatile Map<String, Fault> faults = Map.of();

	private final Set<Held> held = ConcurrentHashMap.newKeySet();

	private final AtomicLong injected = new AtomicLong();

	/** Sets the fault of {@code target} ({@link #ALL} for every target); {@link Fault#NONE} removes it. */
	public synchronized void set(String target, Fault fault) {
		Map<String, Fault> next = new LinkedHashMap<>(this.faults);
		if (fault == null || fault.isNone()) {
			next.remove(target);
		}
		else {
			next.put(target, fault);
		}
		this.faults = Collections.unmodifiableMap(next);
		releaseLifted();
	}

	/** Replaces every fault by {@code faults} (target to fault; {@link #ALL} for every target). */
	public synchronized void setAll(Map<String, Fault> faults) {
		Map<String, Fault> next = new LinkedHashMap<>();
		faults.forEach((target, fault) -> {
			if (fault != null && !fault.isNone()) {
				next.put(target, fault);
			}
		});
		this.faults = Collections.unmodifiableMap(next);
		releaseLifted();
	}

	/** Removes every fault, and answers every held call. */
	public void clear() {
		setAll(Map.of());
	}

	/** The faults in force, by target. */
	public Map<String, Fault> current() {
		return this.faults;
	}

	/** How many calls a stall holds unanswered now (calls whose client closed its connection are not counted). */
	public int stalled() {
		return this.held.size();
	}

	/** How many calls were answered with an injected error so far. */
	public long injected() {
		return this.injected.get();
	}

	/** Answers every call held now (a stall still in force holds the calls that come after). */
	public void release() {
		for (Held call : List.copyOf(this.held)) {
			if (this.held.remove(call)) {
				call.resume.run();
			}
		}
	}

	/** The fault that applies to {@code target}. */
	Fault forTarget(String target) {
		Map<String, Fault> faults = this.faults;
		if (faults.isEmpty()) {
			return Fault.NONE;
		}
		Fault fault = faults.get(target);
		return (fault != null) ? fault : faults.getOrDefault(ALL, Fault.NONE);
	}

	/**
	 * Holds a call of {@code target} until its stall is lifted; then {@code resume} serves it.
	 * @return the held call, to {@link #forget(Object)} when its client goes away
	 */
	Object hold(String target, Runnable resume) {
		Held call = new Held(target, resume);
		this.held.add(call);
		// The stall may have been lifted while the call was on its way here.
		if (!forTarget(target).stall() && this.held.remove(call)) {
			resume.run();
		}
		return call;
	}

	/** Forgets a held call whose connection closed: nobody waits for its answer any more. */
	void forget(Object call) {
		this.held.remove(call);
	}

	/** Forgets the held calls without answering them (the engine closes their connections). */
	void dropHeld() {
		this.held.clear();
	}

	private void releaseLifted() {
		List<Held> lifted = new ArrayList<>();
		for (Held call : this.held) {
			if (!forTarget(call.target).stall()) {
				lifted.add(call);
			}
		}
		for (Held call : lifted) {
			if (this.held.remove(call)) {
				call.resume.run();
			}
		}
	}

	/**
	 * The error a call draws under {@code fault}, or null when it is served: one draw for both shares.
	 */
	AwsError draw(Fault fault) {
		if (fault.throttleShare() == 0 && fault.errorShare() == 0) {
			return null;
		}
		double draw = ThreadLocalRandom.current().nextDouble();
		if (draw < fault.throttleShare()) {
			this.injected.incrementAndGet();
			return throttling(fault.throttleType());
		}
		if (draw < fault.throttleShare() + fault.errorShare()) {
			this.injected.incrementAndGet();
			return (fault.errorStatus() == 503)
					? AwsError.withStatus("ServiceUnavailable", 503, "The service is currently unavailable or busy.")
					: AwsError.internal("Internal server error");
		}
		return null;
	}

	/** DynamoDB's throttling errors, with its messages (ErrorHandling.html, "Error messages and codes"). */
	static AwsError throttling(String type) {
		return switch (type) {
			case "ThrottlingException" -> AwsError.of(type,
					"Throughput exceeds the current capacity of your table or index. DynamoDB is automatically scaling "
							+ "your table or index so please try again shortly. If exceptions persist, check if you have a "
							+ "hot key: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html");
			case "RequestLimitExceeded" -> AwsError.of(type,
					"Throughput exceeds the current throughput limit for your account. Please contact AWS Support at "
							+ "https://aws.amazon.com/support request a limit increase");
			default -> AwsError.of("ProvisionedThroughputExceededException",
					"The level of configured provisioned throughput for the table was exceeded. Consider increasing your "
							+ "provisioning level with the UpdateTable API.");
		};
	}

	private static final class Held {

		final String target;

		final Runnable resume;

		Held(String target, Runnable resume) {
			this.target = target;
			this.resume = resume;
		}

	}

}
