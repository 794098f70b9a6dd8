package dev.dynamorelay.bench.abuse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.util.Timeout;

/**
 * What the abuse section watches on the management port, as a platform and a monitoring system would: a liveness or
 * readiness probe every second (each must answer within 1 s) and {@code /actuator/prometheus} every 10 s.
 */
final class Monitoring {

	private static final Duration PROBE_WITHIN = Duration.ofSeconds(1);

	static final Duration SCRAPE_EVERY = Duration.ofSeconds(10);

	private final int managementPort;

	/** The probes' client: a new connection for every probe, as a platform's health checker opens. */
	private final CloseableHttpClient probes = HttpClients.custom()
		.setConnectionManager(PoolingHttpClientConnectionManagerBuilder.create()
			.setDefaultConnectionConfig(ConnectionConfig.custom()
				.setConnectTimeout(Timeout.of(PROBE_WITHIN))
				.setSocketTimeout(Timeout.of(PROBE_WITHIN))
				.build())
			.build())
		.setDefaultRequestConfig(RequestConfig.custom()
			.setConnectionRequestTimeout(Timeout.of(PROBE_WITHIN))
			.setResponseTimeout(Timeout.of(PROBE_WITHIN))
			.build())
		.setConnectionReuseStrategy((request, response, context) -> false)
		.disableAutomaticRetries()
		.build();

	/** The slowest answer of each probe, in nanoseconds. */
	private final Map<String, AtomicLong> slowestProbe = new ConcurrentHashMap<>();

	/** The scrapes' client: the attacks'. */
	private final CloseableHttpClient scrapes;

	Monitoring(int managementPort, CloseableHttpClient scrapes) {
		this.managementPort = managementPort;
		this.scrapes = scrapes;
	}

	/** A probe of {@code path} on the management port every second: whether each answered 200 within 1 s. */
	boolean[] probe(String path, long start, int count) throws InterruptedException {
		boolean[] answered = new boolean[count];
		AtomicLong slowest = this.slowestProbe.computeIfAbsent(path, (p) -> new AtomicLong());
		for (int s = 0; s < count; s++) {
			TimeUnit.NANOSECONDS.sleep(start + s * 1_000_000_000L - System.nanoTime());
			long sent = System.nanoTime();
			try {
				int status = this.probes.execute(new HttpGet("http://127.0.0.1:" + this.managementPort + path),
						(response) -> {
							EntityUtils.consume(response.getEntity());
							return response.getCode();
						});
				long took = System.nanoTime() - sent;
				slowest.accumulateAndGet(took, Math::max);
				answered[s] = status == 200 && took <= PROBE_WITHIN.toNanos();
			}
			catch (IOException ex) {
				slowest.accumulateAndGet(System.nanoTime() - sent, Math::max);
				answered[s] = false;
			}
		}
		return answered;
	}

	/** The slowest answer of the probe of {@code path}, in nanoseconds. */
	long slowest(String path) {
		return this.slowestProbe.get(path).get();
	}

	/** A scrape of the management port's /actuator/prometheus: status, time and text. */
	record Scrape(int status, double millis, String text) {

		boolean answered() {
			return this.status == 200 && this.millis <= SCRAPE_EVERY.toMillis();
		}

	}

	Scrape scrape() {
		long sent = System.nanoTime();
		try {
			return this.scrapes.execute(
					new HttpGet("http://127.0.0.1:" + this.managementPort + "/actuator/prometheus"),
					(response) -> new Scrape(response.getCode(), (System.nanoTime() - sent) / 1e6,
							EntityUtils.toString(response.getEntity(), StandardCharsets.UTF_8)));
		}
		catch (IOException ex) {
			return new Scrape(-1, (System.nanoTime() - sent) / 1e6, "");
		}
	}

}
