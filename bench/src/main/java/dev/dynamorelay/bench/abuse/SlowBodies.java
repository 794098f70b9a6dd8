package dev.dynamorelay.bench.abuse;

import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.BooleanSupplier;

import dev.dynamorelay.fixtures.RawHttp;

/**
 * The abuse section's slow bodies: {@value #CONNECTIONS} connections, each sending a POST's headers with
 * {@code Content-Length: 1000} and then a byte every 5 s, held until the server answers them (408), a new one taking
 * the place of each.
 */
final class SlowBodies {

	/** Connections whose bodies trickle in, held all through the window (Tomcat has 200 workers). */
	static final int CONNECTIONS = 220;

	private static final Duration TRICKLE = Duration.ofSeconds(5);

	private final Answers answers;

	private final int port;

	/** Whether the attacks go on. */
	private final BooleanSupplier attacking;

	SlowBodies(Answers answers, int port, BooleanSupplier attacking) {
		this.answers = answers;
		this.port = port;
		this.attacking = attacking;
	}

	/**
	 * {@value #CONNECTIONS} connections, each sending a POST's headers with {@code Content-Length: 1000}
	 * and then a byte every 5 s, held until the server answers them (a new one takes the place of each) and
	 * closed when the window ends.
	 */
	void run() throws InterruptedException {
		String headers = RawHttp.request("POST", "/graphql", "Content-Type: application/json", "Content-Length: 1000");
		List<Slow> open = new ArrayList<>();
		// Opened over the first 5 s (25 rounds of 200 ms), so that their bytes and refusals are spread in time.
		int perRound = (CONNECTIONS + 24) / 25;
		try {
			while (this.attacking.getAsBoolean()) {
				for (int i = 0; i < perRound && open.size() < CONNECTIONS; i++) {
					Slow slow = Slow.open(this.port, headers);
					if (slow == null) {
						this.answers.count(Kind.SLOW, "connect", "no connection");
						break;
					}
					open.add(slow);
				}
				long now = System.nanoTime();
				for (Iterator<Slow> each = open.iterator(); each.hasNext();) {
					Slow slow = each.next();
					String answer = slow.poll(now);
					if (answer != null) {
						this.answers.count(Kind.SLOW, "byte every 5 s", answer);
						if (answer.startsWith("408")) {
							this.answers.seconds.computeIfAbsent(Kind.SLOW, (k) -> new ConcurrentLinkedQueue<>())
								.add((System.nanoTime() - slow.opened) / 1e9);
						}
						slow.http.close();
						// Its place is taken by a new connection in the next round.
						each.remove();
					}
				}
				Thread.sleep(200);
			}
		}
		finally {
			for (Slow slow : open) {
				slow.http.close();
			}
			this.answers.count(Kind.SLOW, "open at the end", "closed by the client: " + open.size());
		}
	}

	/** A connection whose body trickles in. */
	private static final class Slow {

		final RawHttp http;

		final long opened;

		long lastByte;

		private Slow(RawHttp http, long opened) {
			this.http = http;
			this.opened = opened;
			this.lastByte = opened;
		}

		/** A new connection that has sent its headers and the body's first byte; null if it could not connect. */
		static Slow open(int port, String headers) {
			RawHttp http = null;
			try {
				http = new RawHttp(port);
				long now = System.nanoTime();
				http.send(headers + "{");
				return new Slow(http, now);
			}
			catch (UncheckedIOException ex) {
				if (http != null) {
					http.close();
				}
				return null;
			}
		}

		/** The answer, if one came; else sends the next byte when it is due. */
		String poll(long now) {
			try {
				if (this.http.answering()) {
					return Exchange.describe(this.http.read());
				}
				if (now - this.lastByte >= TRICKLE.toNanos()) {
					this.http.send(" ");
					this.lastByte = now;
				}
				return null;
			}
			catch (UncheckedIOException ex) {
				try {
					return Exchange.describe(this.http.read());
				}
				catch (UncheckedIOException none) {
					return "closed without an answer";
				}
			}
		}

	}

}
