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

	/** Units asked for and not yet in force (the table or index UPDATING meanwhile), or -1. */
	long pendingRead = -1;

	long pendingWrite = -1;

	/**
	 * Asks for new units, as UpdateTable does: DynamoDB answers UPDATING with the units still in force and the
	 * time of the increase or decrease, and applies them once the table is ACTIVE again ({@link #applyPending}).
	 */
	void request(long newRead, long newWrite, Instant now) {
		if (newRead > this.read || newWrite > this.write) {
			this.lastIncrease = now;
		}
		if (newRead < this.read || newWrite < this.write) {
			this.lastDecrease = now;
		}
		this.pendingRead = newRead;
		this.pendingWrite = newWrite;
	}

	/** Puts the units asked for in force, if any. */
	void applyPending(Instant now) {
		if (this.pendingRead >= 0) {
			change(this.pendingRead, this.pendingWrite, now);
			this.pendingRead = -1;
			this.pendingWrite = -1;
		}
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
