package dev.dynamorelay.write;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/**
 * What {@code @generated} fills in for one call of a mutation: its time, and its UUIDs.
 *
 * <p>A call with an idempotency key must send DynamoDB the same input when it is made again, or DynamoDB
 * takes it for another write under a used key. Its UUIDs are therefore derived from the mutation, the key and
 * the input field's path (a name-based UUID), and its time is the one the process first saw the key with
 * ({@link Mutations}). Without a key, UUIDs are random.
 *
 * @param now the time, in epoch milliseconds
 * @param seed the mutation and idempotency key UUIDs are derived from; empty: random UUIDs
 */
record Generation(long now, Optional<String> seed) {

	/** The same values one millisecond later: a create whose generated time made a key that is taken tries again. */
	Generation next() {
		return new Generation(this.now + 1, this.seed);
	}

	/** The time, as {@code @generated(value: NOW)} gives it. */
	String time() {
		return Instant.ofEpochMilli(this.now).toString();
	}

	/** The UUID of the input field at {@code path}. */
	String uuid(String path) {
		if (this.seed.isEmpty()) {
			return UUID.randomUUID().toString();
		}
		return UUID.nameUUIDFromBytes((this.seed.get() + '\n' + path).getBytes(StandardCharsets.UTF_8)).toString();
	}

}
