package dev.dynamorelay.live;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import software.amazon.awssdk.services.cloudwatch.model.StandardUnit;
import software.amazon.kinesis.metrics.MetricsFactory;
import software.amazon.kinesis.metrics.MetricsLevel;
import software.amazon.kinesis.metrics.MetricsScope;

/**
 * The Kinesis Client Library's metrics, in the server's Micrometer registry rather than CloudWatch: each datum a
 * distribution summary named {@code kcl.<name>} (in KCL's unit), tagged with the operation it measured. KCL's shard
 * and stream dimensions are left out: a stream's shards change every few hours, and a meter per shard would grow
 * without end.
 */
final class KclMeters implements MetricsFactory {

	/** KCL's dimensions kept as tags. */
	private static final Set<String> KEPT = Set.of("Operation");

	private final MeterRegistry registry;

	KclMeters(MeterRegistry registry) {
		this.registry = registry;
	}

	@Override
	public MetricsScope createMetrics() {
		return new Scope();
	}

	/** One scope's data, recorded when it ends. */
	private final class Scope implements MetricsScope {

		private final List<Tag> tags = new ArrayList<>();

		private final List<Datum> data = new ArrayList<>();

		@Override
		public void addData(String name, double value, StandardUnit unit) {
			this.data.add(new Datum(name, value, unit));
		}

		@Override
		public void addData(String name, double value, StandardUnit unit, MetricsLevel level) {
			addData(name, value, unit);
		}

		@Override
		public void addDimension(String name, String value) {
			if (KEPT.contains(name) && value != null) {
				this.tags.add(Tag.of(name.toLowerCase(java.util.Locale.ROOT), value));
			}
		}

		@Override
		public void end() {
			for (Datum datum : this.data) {
				DistributionSummary.builder("kcl." + datum.name())
					.description("The Kinesis Client Library's " + datum.name() + " (live connections across instances)")
					.baseUnit((datum.unit() != null) ? datum.unit().toString().toLowerCase(java.util.Locale.ROOT) : null)
					.tags(this.tags)
					.register(KclMeters.this.registry)
					.record(datum.value());
			}
		}

	}

	private record Datum(String name, double value, StandardUnit unit) {
	}

}
