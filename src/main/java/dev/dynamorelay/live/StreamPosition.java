package dev.dynamorelay.live;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A place in a table's stream: a shard and a sequence number in it; as an opaque event id, what a client
 * passes to resume right behind a change it saw.
 *
 * @param shardId the shard
 * @param sequenceNumber the record's sequence number
 */
public record StreamPosition(String shardId, BigInteger sequenceNumber) {

	private static final String VERSION = "e1";

	/** DynamoDB's shard ids and sequence numbers, as they may travel in an event id. */
	private static final Pattern SHARD = Pattern.compile("[A-Za-z0-9_.-]{1,65}");

	private static final Pattern SEQUENCE = Pattern.compile("[0-9]{1,40}");

	/** A sequence number as DynamoDB Streams takes it: its digits, zero-padded to at least 21. */
	static String sequence(BigInteger number) {
		String digits = number.toString();
		return (digits.length() >= 21) ? digits : "0".repeat(21 - digits.length()) + digits;
	}

	/** The event id: base64url without padding of the version, the shard and the sequence number. */
	public String eventId() {
		String text = VERSION + "|" + this.shardId + "|" + this.sequenceNumber;
		return Base64.getUrlEncoder().withoutPadding().encodeToString(text.getBytes(StandardCharsets.US_ASCII));
	}

	/** The position an event id names; empty for anything that is no event id of ours. */
	public static Optional<StreamPosition> of(String eventId) {
		if (eventId == null || eventId.length() > 200) {
			return Optional.empty();
		}
		String text;
		try {
			text = new String(Base64.getUrlDecoder().decode(eventId), StandardCharsets.US_ASCII);
		}
		catch (IllegalArgumentException ex) {
			return Optional.empty();
		}
		String[] parts = text.split("\\|", -1);
		if (parts.length != 3 || !parts[0].equals(VERSION) || !SHARD.matcher(parts[1]).matches()
				|| !SEQUENCE.matcher(parts[2]).matches()) {
			return Optional.empty();
		}
		BigInteger sequence = new BigInteger(parts[2]);
		// No record has sequence number 0: DynamoDB numbers a shard's records from its start, above it.
		return (sequence.signum() > 0) ? Optional.of(new StreamPosition(parts[1], sequence)) : Optional.empty();
	}

}
