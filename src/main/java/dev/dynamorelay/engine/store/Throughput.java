package dev.dynamorelay.engine.store;

import java.time.Instant;

import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputDescription;

/** A table's or global index's provisioned throughput, as DescribeTable reports it. Guarded by its table's lock. */
final class Throughput {

	long read;

	long write;

	Instant lastIncrease;

	Instant lastDecrease;

	long decreasesToday;

	Throughput(long read, long write) {
		this.read = read;
		this.write = write;
	}

	ProvisionedThroughputDescription describe() {
		return ProvisionedThroughputDescription.builder()
			.readCapacityUnits(this.read)
			.writeCapacityUnits(this.write)
			.numberOfDecreasesToday(this.decreasesToday)
			.lastIncreaseDateTime(this.lastIncrease)
			.lastDecreaseDateTime(this.lastDecrease)
			.build();
	}

	/** Sets new units, recording an increase or a decrease at {@code now}. */
	void change(long newRead, long newWrite, Instant now) {
		if (newRead > this.read || newWrite > this.write) {
			this.lastIncrease = now;
		}
		if (newRead < this.read || newWrite < this.write) {
			this.lastDecrease = now;
			this.decreasesToday++;
		}
		this.read = newRead;
		this.write = newWrite;
	}

}
