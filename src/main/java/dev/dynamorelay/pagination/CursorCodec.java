package dev.dynamorelay.pagination;

import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.error.InvalidCursorException;

/**
 * Turns an item's position into an opaque, signed cursor and back.
 *
 * <p>A cursor is base64url (no padding) of {@code version | encrypted values | mac}: one version byte
 * (3), then the carried position attributes, each as a varint length and its bytes, encrypted, then the
 * first 16 bytes of HMAC-SHA256 over the binding's fingerprint, the version byte and the values in the
 * clear. The values are encrypted with AES-CTR under a key derived from the secret, the MAC as its
 * counter (a synthetic IV, as in SIV mode): a cursor is deterministic and no longer than a signed one,
 * and it shows nothing of the position it holds, such as the key of an item a filter passed over (which
 * may be another user's). It holds no attribute names or types (the binding supplies them), so a
 * purchase cursor is about 40 characters.
 *
 * <p>Cursors of version 1, the same values signed but in the clear, issued before values were
 * encrypted, are still accepted (their MAC is checked alike).
 *
 * <p>A cursor at one end of the connection ({@link Position#BEFORE_FIRST}, {@link Position#AFTER_LAST})
 * is {@code version 2 | end | mac}, signed and bound alike.
 *
 * <p>New cursors are signed with the current secret; cursors signed with a previous secret still
 * verify, so secrets can rotate without breaking clients in the middle of a walk.
 */
public final class CursorCodec {

	/** The version byte of a cursor whose values are in the clear (still accepted). */
	static final byte CLEAR_VERSION = 1;

	static final byte VERSION = 3;

	/** The version byte of a cursor at an end of the connection. */
	static final byte END_VERSION = 2;

	static final int MAC_LENGTH = 16;

	/** Longer input is refused before decoding: no position of ours comes close. */
	static final int MAX_CURSOR_LENGTH = 4096;

	private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();

	private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

	private static final String REFUSED = "The cursor was not issued by this connection: pass a cursor from a page "
			+ "of the same field with the same parent, prefix, filter and order, or leave it out to start over.";

	private final List<Mac> macs;

	/** The encryption key of each secret, in the order of {@link #macs}. */
	private final List<SecretKeySpec> keys;

	private static final ThreadLocal<Cipher> CIPHERS = ThreadLocal.withInitial(() -> {
		try {
			return Cipher.getInstance("AES/CTR/NoPadding");
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException("AES/CTR is not available", ex);
		}
	});

	/**
	 * @param secret the current secret; signs new cursors
	 * @param previousSecrets earlier secrets whose cursors are still accepted
	 */
	public CursorCodec(String secret, List<String> previousSecrets) {
		Objects.requireNonNull(secret, "secret");
		if (secret.isEmpty()) {
			throw new IllegalArgumentException("the cursor secret must not be empty");
		}
		List<String> secrets = new ArrayList<>();
		secrets.add(secret);
		previousSecrets.stream().filter((previous) -> !previous.isEmpty()).forEach(secrets::add);
		this.macs = secrets.stream().map(CursorCodec::mac).toList();
		this.keys = secrets.stream().map(CursorCodec::encryptionKey).toList();
	}

	/** The cursor of the position of {@code item} (an item or a LastEvaluatedKey). */
	public String encode(CursorBinding binding, Map<String, AttributeValue> item) {
		ByteArrayOutputStream out = new ByteArrayOutputStream(64);
		out.write(VERSION);
		for (KeyAttribute attribute : binding.carried()) {
			AttributeValue value = item.get(attribute.name());
			if (value == null) {
				throw new IllegalStateException("item lacks its key attribute " + attribute.name());
			}
			byte[] bytes = bytes(attribute, value);
			writeVarint(out, bytes.length);
			out.writeBytes(bytes);
		}
		byte[] clear = out.toByteArray();
		byte[] mac = java.util.Arrays.copyOf(sign(this.macs.get(0), binding.fingerprint(), clear), MAC_LENGTH);
		byte[] cursor = crypt(this.keys.get(0), mac, clear);
		cursor[0] = VERSION;
		cursor = java.util.Arrays.copyOf(cursor, clear.length + MAC_LENGTH);
		System.arraycopy(mac, 0, cursor, clear.length, MAC_LENGTH);
		return ENCODER.encodeToString(cursor);
	}

	/** The cursor of {@code position}: an item's position or an end of the connection. */
	public String encode(CursorBinding binding, Position position) {
		if (!position.isEnd()) {
			return encode(binding, position.key());
		}
		ByteArrayOutputStream out = new ByteArrayOutputStream(1 + 1 + MAC_LENGTH);
		out.write(END_VERSION);
		out.write(position.end().ordinal());
		byte[] mac = sign(this.macs.get(0), binding.fingerprint(), out.toByteArray());
		out.write(mac, 0, MAC_LENGTH);
		return ENCODER.encodeToString(out.toByteArray());
	}

	/**
	 * The position a cursor holds: an item's position, with the binding's fixed attributes added (an
	 * ExclusiveStartKey), or an end of the connection.
	 * @throws InvalidCursorException unless this binding issued the cursor, under a known secret
	 */
	public Position decode(CursorBinding binding, String cursor) {
		byte[] raw = base64(cursor);
		if (raw.length < 1 + MAC_LENGTH) {
			throw new InvalidCursorException(REFUSED);
		}
		int payloadLength = raw.length - MAC_LENGTH;
		byte[] payload = new byte[payloadLength];
		System.arraycopy(raw, 0, payload, 0, payloadLength);
		byte[] given = new byte[MAC_LENGTH];
		System.arraycopy(raw, payloadLength, given, 0, MAC_LENGTH);
		for (int i = 0; i < this.macs.size(); i++) {
			byte[] clear = (payload[0] == VERSION) ? crypt(this.keys.get(i), given, payload) : payload;
			clear[0] = payload[0];
			if (verifies(this.macs.get(i), binding.fingerprint(), clear, given)) {
				return parse(binding, clear);
			}
		}
		throw new InvalidCursorException(REFUSED);
	}

	private static boolean verifies(Mac mac, byte[] fingerprint, byte[] payload, byte[] given) {
		byte[] expected = sign(mac, fingerprint, payload);
		byte[] truncated = new byte[MAC_LENGTH];
		System.arraycopy(expected, 0, truncated, 0, MAC_LENGTH);
		return MessageDigest.isEqual(truncated, given);
	}

	/**
	 * The values of a payload encrypted or decrypted (AES-CTR is its own inverse) with {@code key}, the
	 * MAC as the counter's start; the version byte at index 0 is left for the caller to set.
	 */
	private static byte[] crypt(SecretKeySpec key, byte[] mac, byte[] payload) {
		Cipher cipher = CIPHERS.get();
		try {
			cipher.init(Cipher.ENCRYPT_MODE, key, new IvParameterSpec(mac, 0, MAC_LENGTH));
			byte[] out = new byte[payload.length];
			cipher.doFinal(payload, 1, payload.length - 1, out, 1);
			return out;
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException("AES/CTR failed", ex);
		}
	}

	/** The AES-128 key of a secret: HMAC-SHA256 of a fixed label under the secret, so apart from the MAC key. */
	private static SecretKeySpec encryptionKey(String secret) {
		byte[] derived = copy(mac(secret)).doFinal("dynamo-relay cursor encryption".getBytes(StandardCharsets.US_ASCII));
		return new SecretKeySpec(derived, 0, 16, "AES");
	}

	private static Position parse(CursorBinding binding, byte[] payload) {
		// Signed by us, so well-formed unless a secret leaked or the format changed; check anyway.
		ByteBuffer in = ByteBuffer.wrap(payload);
		byte version = in.get();
		if (version == END_VERSION) {
			if (payload.length != 2 || payload[1] < 0 || payload[1] >= Position.End.values().length) {
				throw new InvalidCursorException(REFUSED);
			}
			return (Position.End.values()[payload[1]] == Position.End.BEFORE_FIRST) ? Position.BEFORE_FIRST
					: Position.AFTER_LAST;
		}
		if (version != VERSION && version != CLEAR_VERSION) {
			throw new InvalidCursorException(REFUSED);
		}
		Map<String, AttributeValue> key = new HashMap<>(binding.fixed());
		for (KeyAttribute attribute : binding.carried()) {
			int length = readVarint(in);
			if (length < 0 || length > in.remaining()) {
				throw new InvalidCursorException(REFUSED);
			}
			byte[] bytes = new byte[length];
			in.get(bytes);
			key.put(attribute.name(), value(attribute, bytes));
		}
		if (in.hasRemaining()) {
			throw new InvalidCursorException(REFUSED);
		}
		return Position.of(key);
	}

	private static byte[] bytes(KeyAttribute attribute, AttributeValue value) {
		return switch (attribute.type()) {
			case S -> value.s().getBytes(StandardCharsets.UTF_8);
			case N -> value.n().getBytes(StandardCharsets.US_ASCII);
			case B -> value.b().asByteArray();
			default -> throw new IllegalStateException("unsupported key type " + attribute.type());
		};
	}

	private static AttributeValue value(KeyAttribute attribute, byte[] bytes) {
		try {
			return switch (attribute.type()) {
				case S -> AttributeValue.fromS(StandardCharsets.UTF_8.newDecoder()
					.onMalformedInput(CodingErrorAction.REPORT)
					.onUnmappableCharacter(CodingErrorAction.REPORT)
					.decode(ByteBuffer.wrap(bytes))
					.toString());
				case N -> {
					String number = new String(bytes, StandardCharsets.US_ASCII);
					new BigDecimal(number);
					yield AttributeValue.fromN(number);
				}
				case B -> AttributeValue.fromB(SdkBytes.fromByteArray(bytes));
				default -> throw new InvalidCursorException(REFUSED);
			};
		}
		catch (CharacterCodingException | NumberFormatException ex) {
			throw new InvalidCursorException(REFUSED);
		}
	}

	private static byte[] base64(String cursor) {
		if (cursor.isEmpty() || cursor.length() > MAX_CURSOR_LENGTH) {
			throw new InvalidCursorException(REFUSED);
		}
		for (int i = 0; i < cursor.length(); i++) {
			char c = cursor.charAt(i);
			boolean allowed = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'
					|| c == '_';
			if (!allowed) {
				throw new InvalidCursorException(REFUSED);
			}
		}
		byte[] raw;
		try {
			raw = DECODER.decode(cursor);
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidCursorException(REFUSED);
		}
		// Base64 lets the last character's unused bits vary; only the canonical spelling is ours.
		if (!ENCODER.encodeToString(raw).equals(cursor)) {
			throw new InvalidCursorException(REFUSED);
		}
		return raw;
	}

	private static byte[] sign(Mac prototype, byte[] fingerprint, byte[] payload) {
		Mac mac = copy(prototype);
		mac.update(fingerprint);
		mac.update(payload);
		return mac.doFinal();
	}

	private static Mac copy(Mac prototype) {
		try {
			return (Mac) prototype.clone();
		}
		catch (CloneNotSupportedException ex) {
			throw new IllegalStateException("HmacSHA256 of this JDK cannot be cloned", ex);
		}
	}

	private static Mac mac(String secret) {
		try {
			Mac mac = Mac.getInstance("HmacSHA256");
			mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
			return mac;
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException("HmacSHA256 is not available", ex);
		}
	}

	private static void writeVarint(ByteArrayOutputStream out, int value) {
		int rest = value;
		while ((rest & ~0x7F) != 0) {
			out.write((rest & 0x7F) | 0x80);
			rest >>>= 7;
		}
		out.write(rest);
	}

	private static int readVarint(ByteBuffer in) {
		int value = 0;
		for (int shift = 0; shift < 28; shift += 7) {
			if (!in.hasRemaining()) {
				return -1;
			}
			byte b = in.get();
			value |= (b & 0x7F) << shift;
			if ((b & 0x80) == 0) {
				return value;
			}
		}
		return -1;
	}

}
