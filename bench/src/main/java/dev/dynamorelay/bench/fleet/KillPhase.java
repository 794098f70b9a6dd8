package dev.dynamorelay.bench.fleet;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntPredicate;
import java.util.stream.Collectors;

import dev.dynamorelay.bench.support.Prometheus;
import dev.dynamorelay.bench.support.Report;
import dev.dynamorelay.bench.support.StampedWrites;
import dev.dynamorelay.bench.support.Stats;
import dev.dynamorelay.bench.support.Subscriber;
import dev.dynamorelay.fixtures.ServerProcess;

/**
 * The fleet section's kill: writes at the rate; {@link #BEFORE_KILL} in, SIGKILL to the instance holding the lease;
 * the writes go on until the surviving instances hold as many leases as the fleet held before, and
 * {@link #AFTER_TAKEOVER} more. Then the changes on their way (until every one has arrived, at most {@link #DRAIN}),
 * the rows, and the killed instance's restart.
 */
final class KillPhase {

	/** The writes before the kill. */
	private static final Duration BEFORE_KILL = Duration.ofSeconds(10);

	/** How long the survivors may take to hold the lease again. */
	private static final Duration TAKEOVER_PATIENCE = Duration.ofSeconds(300);

	/** The writes after the survivors hold the lease again. */
	private static final Duration AFTER_TAKEOVER = Duration.ofSeconds(20);

	/** How long the changes on their way after the writes may take to arrive. */
	private static final Duration DRAIN = Duration.ofSeconds(60);

	private final Fleet fleet;

	private final Report report;

	private final Deliveries deliveries;

	private final List<ServerProcess> servers;

	private final List<Subscriber> subscribers;

	private final double rate;

	private final Duration failover;

	KillPhase(Fleet fleet, Report report, Deliveries deliveries, List<ServerProcess> servers,
			List<Subscriber> subscribers, double rate, Duration failover) {
		this.fleet = fleet;
		this.report = report;
		this.deliveries = deliveries;
		this.servers = servers;
		this.subscribers = subscribers;
		this.rate = rate;
		this.failover = failover;
	}

	/**
	 * What the kill did: the instance killed, whether it was KCL's leader, when it was killed, when the survivors held
	 * the lease again (-1: not within the patience), the writes' first and last stamps and when they ended.
	 */
	private record Killed(int holder, boolean leader, long at, long takenOver, long first, long last, long ended) {

		String takeover() {
			return (this.takenOver < 0) ? "not within %d s".formatted(TAKEOVER_PATIENCE.toSeconds())
					: "%.2f s".formatted((this.takenOver - this.at) / 1e9);
		}

	}

	void run(StampedWrites writes) throws Exception {
		System.out.println("  killing the lease holder while writes go on ...");
		Killed killed = writeAndKill(writes);
		// The surviving instances' subscriptions: connection c is on instance c % 3.
		IntPredicate survivors = (s) -> (s / Fleet.PER_CONNECTION) % Fleet.INSTANCES != killed.holder();
		Deliveries.Range range = drained(killed, survivors);
		gapRows(killed, range);
		deliveredRow(killed, range);
		System.out.printf("  (%,d writes in %.0f s); starting instance %d again ...%n", range.writes().size(),
				(killed.ended() - killed.at()) / 1e9 + BEFORE_KILL.toSeconds(), killed.holder());
		restart(killed);
		this.report.figure("fleetKillLeader", killed.leader());
		this.report.figure("fleetKillTakeoverSeconds",
				(killed.takenOver() < 0) ? null : (killed.takenOver() - killed.at()) / 1e9);
		this.report.figure("fleetKillMissing", range.expected() - range.received());
		this.report.figure("fleetKillTwice", range.twice());
	}

	/** Writes on a thread of their own while the holder is killed and the survivors take its lease over. */
	private Killed writeAndKill(StampedWrites writes) throws Exception {
		long first = writes.next();
		AtomicReference<Throwable> failed = new AtomicReference<>();
		AtomicBoolean stop = new AtomicBoolean();
		Thread writer = new Thread(() -> {
			try {
				writes.writeUntil((next) -> stop.get(), this.rate, (n) -> ThreadLocalRandom.current().nextInt(Fleet.USERS),
						this.deliveries::written);
			}
			catch (Throwable ex) {
				failed.set(ex);
			}
		}, "bench-fleet-writer");
		writer.start();
		Thread.sleep(BEFORE_KILL.toMillis());
		int holder = this.fleet.holder();
		int held = this.fleet.leasesHeld();
		ServerProcess killed = this.servers.get(holder);
		// KCL's own meter: whether the instance was the leader, which alone assigns expired leases, lately.
		boolean leader = Prometheus.sum(Fleet.metrics(killed), "kcl_LeaderDecider:IsLeader_count_max") > 0;
		long killedAt = System.nanoTime();
		killed.kill();
		long takenOver = -1;
		long deadline = killedAt + TAKEOVER_PATIENCE.toNanos();
		while (System.nanoTime() < deadline) {
			if (this.fleet.leasesHeld() >= held) {
				takenOver = System.nanoTime();
				break;
			}
			Thread.sleep(100);
		}
		Killed result = new Killed(holder, leader, killedAt, takenOver, first, -1, -1);
		System.out.printf("  instance %d killed (%s KCL's leader); the survivors hold %d lease(s) %s after%n", holder,
				leader ? "also" : "not", held, result.takeover());
		Thread.sleep(AFTER_TAKEOVER.toMillis());
		stop.set(true);
		writer.join();
		long ended = System.nanoTime();
		if (failed.get() != null) {
			throw new IllegalStateException("the writes failed", failed.get());
		}
		return new Killed(holder, leader, killedAt, takenOver, first, writes.next(), ended);
	}

	/** The survivors' deliveries of the phase's writes, once every change has arrived (or {@link #DRAIN} passed). */
	private Deliveries.Range drained(Killed killed, IntPredicate survivors) throws InterruptedException {
		long drain = System.nanoTime() + DRAIN.toNanos();
		Deliveries.Range range = this.deliveries.range(killed.first(), killed.last(), survivors);
		while (range.received() < range.expected() && System.nanoTime() < drain) {
			Thread.sleep(1_000);
			range = this.deliveries.range(killed.first(), killed.last(), survivors);
		}
		Thread.sleep(2_000);
		return this.deliveries.range(killed.first(), killed.last(), survivors);
	}

	/** The longest time without a delivery at the survivors, and the latency of the writes sent in it. */
	private void gapRows(Killed killed, Deliveries.Range range) {
		long[] gap = range.longestGap(killed.at(), killed.ended());
		Set<Long> sentInGap = range.writes().stream()
			.filter((write) -> write.stamp().sent() >= gap[0] && write.stamp().sent() <= gap[1])
			.map((write) -> write.stamp().sequence())
			.collect(Collectors.toSet());
		double[] gapLatencies = range.arrivals().stream()
			.filter((arrival) -> sentInGap.contains(arrival.sequence()))
			.mapToDouble((arrival) -> arrival.latency() / 1e6)
			.toArray();
		this.report.row("fleet: the lease holder SIGKILLed while writes go on (%.0f/s): longest time without a delivery at the surviving instances' subscribers"
			.formatted(this.rate), "%.2f s".formatted((gap[1] - gap[0]) / 1e9), "-",
				"from %+.2f s to %+.2f s of the kill; the survivors held the lease %s after it (failover-time %d s); the killed instance was %s KCL's leader"
					.formatted((gap[0] - killed.at()) / 1e9, (gap[1] - killed.at()) / 1e9, killed.takeover(),
							this.failover.toSeconds(), killed.leader() ? "also" : "not"),
				"-", null);
		this.report.row("... the writes sent in that gap: PutItem -> change at the surviving subscribers, p50 / max",
				(gapLatencies.length == 0) ? "-"
						: "%s / %s".formatted(Stats.ms(Stats.percentile(gapLatencies, 50)),
								Stats.ms(Stats.percentile(gapLatencies, 100))),
				"-", "%d writes, %,d changes".formatted(sentInGap.size(), gapLatencies.length), "-", null);
		this.report.figure("fleetKillGapSeconds", (gap[1] - gap[0]) / 1e9);
	}

	/** Every change of the phase at the survivors' subscriptions: none missing, none twice. */
	private void deliveredRow(Killed killed, Deliveries.Range range) {
		double[] floor = range.floorMs();
		long survivorsFailed = 0;
		for (int c = 0; c < Fleet.CONNECTIONS; c++) {
			if (c % Fleet.INSTANCES != killed.holder() && this.subscribers.get(c).failure != null) {
				survivorsFailed++;
			}
		}
		this.report.row("... changes delivered / expected at the surviving instances' subscribers, from %.0f s before the kill to %.0f s after the takeover (writes x their subscribers of the user), twice, to another user, their connections failed"
			.formatted((double) BEFORE_KILL.toSeconds(), (double) AFTER_TAKEOVER.toSeconds()),
				"%,d / %,d, %d twice, %d to another user, %d failed".formatted(range.received(), range.expected(),
						range.twice(), range.wrongUser(), survivorsFailed),
				"%,d of %,d writes seen".formatted(floor.length, range.writes().size()),
				"%,d missing".formatted(range.expected() - range.received()), "no change missing, none twice",
				range.received() == range.expected() && range.twice() == 0 && range.wrongUser() == 0 && survivorsFailed == 0);
	}

	/** Starts the killed instance again: how soon it is ready, and where the leases are then. */
	private void restart(Killed killed) throws Exception {
		ServerProcess server = this.servers.get(killed.holder());
		long restarting = System.nanoTime();
		server.start();
		server.awaitReady(Duration.ofSeconds(180));
		long ready = System.nanoTime();
		int[] leases = new int[Fleet.INSTANCES];
		for (int i = 0; i < Fleet.INSTANCES; i++) {
			leases[i] = (int) Prometheus.sum(Fleet.metrics(this.servers.get(i)), "dynamorelay_live_fleet_leases");
		}
		this.report.row("... the killed instance started again: ready after", "%.1f s".formatted((ready - restarting) / 1e9),
				"-", "leases held then, instance by instance: %d, %d, %d (instance %d was killed)"
					.formatted(leases[0], leases[1], leases[2], killed.holder()),
				"-", null);
	}

}
