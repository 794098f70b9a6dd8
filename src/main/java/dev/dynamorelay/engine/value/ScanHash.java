package dev.dynamorelay.engine.value;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The stable hash that orders a Scan: the first 24 bits of the MD5 of the bytes {@code Outliers} followed by
 * the partition key's bytes (a string's UTF-8, a binary's bytes, a number in DynamoDB's base-100 form). This is
 * dynalite's order (db/index.js hashPrefix), so that the differential test compares Scan orders item by item;
 * Segment/TotalSegments split the space of its first twelve bits.
 */
public final class ScanHash {

	private static final byte[] SALT = "Outliers".getBytes(StandardCharsets.US_ASCII);

	private static final ThreadLocal<MessageDigest> MD5 = ThreadLocal.withInitial(() -> {
		try {
			return MessageDigest.getInstance("MD5");
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("every Java runtime has MD5", ex);
		}
	});

	private ScanHash() {
	}

	/** The 24-bit hash of a partition key value. */
	public static int of(AttributeValue partitionKey) {
		return of(partitionKey, null);
	}

	/**
	 * The 24-bit hash of a partition key value and a sort key value (null for none): how an index orders items
	 * whose index keys are equal (dynalite's tie-break, db/index.js createIndexKey).
	 */
	public static int of(AttributeValue partitionKey, AttributeValue sortKey) {
		MessageDigest md5 = MD5.get();
		md5.reset();
		md5.update(SALT);
		md5.update(bytes(partitionKey));
		if (sortKey != null) {
			md5.update(bytes(sortKey));
		}
		byte[] digest = md5.digest();
		return ((digest[0] & 0xFF) << 16) | ((digest[1] & 0xFF) << 8) | (digest[2] & 0xFF);
	}

	/** The bytes a key value is hashed by. */
	static byte[] bytes(AttributeValue value) {
		if (value.s() != null) {
			return value.s().getBytes(StandardCharsets.UTF_8);
		}
		if (value.b() != null) {
			return value.b().asByteArrayUnsafe();
		}
		if (value.n() != null) {
			return numberBytes(value.n());
		}
		throw new IllegalArgumentException("not a key value: " + value);
	}

	/**
	 * A number in DynamoDB's base-100 form: an exponent byte (the base-100 exponent biased by 64, inverted when
	 * negative), then the significant digits paired from the decimal point, a pair {@code p} written
	 * {@code p + 1} (or {@code 101 - p} when negative), then for a negative number of fewer than 20 pairs a
	 * byte 102. Zero is the single byte {@code 80}.
	 */
	public static byte[] numberBytes(String text) {
		BigDecimal number = new BigDecimal(text);
		if (number.signum() == 0) {
			return new byte[] { (byte) 0x80 };
		}
		BigDecimal stripped = number.stripTrailingZeros();
		boolean negative = stripped.signum() < 0;
		String digits = stripped.unscaledValue().abs().toString();
		// the decimal exponent of the first digit, plus one: the number is 0.d1d2... times 10^exponent
		int exponent = digits.length() - stripped.scale();
		int leadingZero = Math.floorMod(exponent, 2);
		int pairs = (digits.length() + leadingZero + 1) / 2;
		boolean terminated = negative && pairs < 20;
		byte[] out = new byte[pairs + 1 + (terminated ? 1 : 0)];
		int exponentByte = Math.floorDiv(exponent + leadingZero, 2) - 64;
		out[0] = (byte) (negative ? ~exponentByte : exponentByte);
		for (int pair = 0; pair < pairs; pair++) {
			int high = digitAt(digits, 2 * pair - leadingZero);
			int low = digitAt(digits, 2 * pair + 1 - leadingZero);
			int value = high * 10 + low;
			out[pair + 1] = (byte) (negative ? 101 - value : value + 1);
		}
		if (terminated) {
			out[out.length - 1] = 102;
		}
		return out;
	}

	private static int digitAt(String digits, int index) {
		return (index < 0 || index >= digits.length()) ? 0 : digits.charAt(index) - '0';
	}

}
