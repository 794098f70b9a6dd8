package dev.dynamorelay.engine.streams;

import java.math.BigInteger;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The names of streams, shards and records in DynamoDB's forms, as the Developer Guide and the API Reference show
 * them: a stream's label is the time it was enabled ({@code 2015-05-11T21:21:33.291}, UTC), its ARN the table's
 * ARN followed by {@code /stream/} and the label; a shard's id {@code shardId-00000001414562045508-2bac9cd2} (the
 * time it opened, in milliseconds, on 20 digits, and 8 hexadecimal digits); a sequence number a string of 21
 * decimal digits, growing with every record (the API Reference: "Length Constraints: Minimum length of 21.
 * Maximum length of 40", digits only).
 */
public final class StreamNames {

	private static final DateTimeFormatter LABEL = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS")
		.withZone(ZoneOffset.UTC);

	/** A stream ARN: {@code arn:<partition>:dynamodb:<region>:<account>:table/<table>/stream/<label>}. */
	private static final Pattern STREAM_ARN = Pattern
		.compile("arn:[a-z][a-z0-9-]*:dynamodb:([a-z0-9-]*):([0-9]*):table/([a-zA-Z0-9_.-]{3,255})/stream/([^/]+)");

	/** Our sequence numbers are this plus a record's number: 21 digits, ordered alike as text and as numbers. */
	private static final BigInteger SEQUENCE_BASE = BigInteger.TEN.pow(20);

	private static final BigInteger SEQUENCE_END = SEQUENCE_BASE.add(BigInteger.valueOf(Long.MAX_VALUE));

	private StreamNames() {
	}

	/** What a stream ARN names. */
	public record StreamArn(String arn, String region, String account, String table, String label) {
	}

	/** A stream's label: the time it was enabled, to the millisecond, UTC. */
	public static String label(Instant enabled) {
		return LABEL.format(enabled);
	}

	/** The ARN of the stream {@code label} of the table whose ARN is {@code tableArn}. */
	public static String streamArn(String tableArn, String label) {
		return tableArn + "/stream/" + label;
	}

	/** The parts of a stream ARN, or null when {@code arn} is not one. */
	public static StreamArn parseStreamArn(String arn) {
		if (arn == null) {
			return null;
		}
		Matcher matcher = STREAM_ARN.matcher(arn);
		if (!matcher.matches()) {
			return null;
		}
		return new StreamArn(arn, matcher.group(1), matcher.group(2), matcher.group(3), matcher.group(4));
	}

	/** A shard's id, from the millisecond it opened and 32 bits that tell shards of one millisecond apart. */
	static String shardId(long openedMillis, int discriminator) {
		return String.format("shardId-%020d-%08x", openedMillis, discriminator);
	}

	/** The sequence number of record number {@code number} (zero or more), as DynamoDB writes it. */
	public static String sequenceNumber(long number) {
		String digits = Long.toString(number);
		return "1" + "0".repeat(20 - digits.length()) + digits;
	}

	/**
	 * The record number a sequence number names: -1 below every record's, {@link Long#MAX_VALUE} above; null
	 * when {@code text} is not a decimal number.
	 */
	public static Long recordNumber(String text) {
		if (text == null || text.isEmpty()) {
			return null;
		}
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (c < '0' || c > '9') {
				return null;
			}
		}
		BigInteger value = new BigInteger(text);
		if (value.compareTo(SEQUENCE_BASE) < 0) {
			return -1L;
		}
		if (value.compareTo(SEQUENCE_END) >= 0) {
			return Long.MAX_VALUE;
		}
		return value.subtract(SEQUENCE_BASE).longValueExact();
	}

}
