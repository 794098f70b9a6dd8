package dev.dynamorelay.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.springframework.beans.factory.support.StaticListableBeanFactory;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;

import dev.dynamorelay.pagination.ConnectionMeters;

/**
 * The benchmark's metrics section: what the server's meters record for one 20-edge page with a user lookup, timed in
 * one JVM: one request timer, one page and one Query call of the connection, and two DynamoDB call timers through the
 * SDK interceptor's hooks (Query, BatchGetItem), into the Prometheus registry, with a scrape every 5,000 pages. In
 * the meters' package, as part of the benchmark's code, because the meters' constructors are the package's own.
 */
public final class BenchRecordingCost {

	private BenchRecordingCost() {
	}

	/** Nanoseconds of recording per page, after warming up. */
	public static double nanosPerPage() {
		PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		StaticListableBeanFactory beans = new StaticListableBeanFactory();
		beans.addBean("registry", registry);
		ServerMeters meters = new ServerMeters(beans.getBeanProvider(MeterRegistry.class), new MetricsProperties(true, 100, 100));
		DynamoDbCallMeters calls = new DynamoDbCallMeters(meters);
		long sink = 0;
		for (int round = 0; round < 5; round++) {
			sink += run(meters, calls, registry, 400_000);
		}
		long start = System.nanoTime();
		int pages = 2_000_000;
		sink += run(meters, calls, registry, pages);
		double nanos = (System.nanoTime() - start) / (double) pages;
		if (sink == 42) {
			System.out.println();
		}
		return nanos;
	}

	private static long run(ServerMeters meters, DynamoDbCallMeters calls, PrometheusMeterRegistry registry, int pages) {
		long sink = 0;
		for (int i = 0; i < pages; i++) {
			long started = System.nanoTime();
			ConnectionMeters connection = meters.of("Query.purchasesByCategory");
			call(calls, "Query");
			connection.call(21, 21, 2.5);
			connection.page(false);
			call(calls, "BatchGetItem");
			meters.request("Page", System.nanoTime() - started, false);
			if (i % 5_000 == 0) {
				sink += registry.scrape().length();
			}
		}
		return sink;
	}

	private static void call(DynamoDbCallMeters calls, String operation) {
		ExecutionAttributes attributes = new ExecutionAttributes();
		attributes.putAttribute(SdkExecutionAttribute.OPERATION_NAME, operation);
		calls.beforeExecution(null, attributes);
		calls.afterExecution(null, attributes);
	}

}
