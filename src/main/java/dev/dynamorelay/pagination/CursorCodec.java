package dev.dynamorelay.pagination;

import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import com.google.crypto.tink.DeterministicAead;
import com.google.crypto.tink.InsecureSecretKeyAccess;
import com.google.crypto.tink.daead.AesSivKey;
import com.google.crypto.tink.daead.AesSivParameters;
import com.google.crypto.tink.subtle.AesSiv;
import com.google.crypto.tink.subtle.Hkdf;
import com.google.crypto.tink.util.SecretBytes;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.error.InvalidCursorException;
import dev.dynamorelay.model.KeyAttribute;

/**
 * Turns an item's position into an opaque, authenticated cursor and back.
 *
 * <p>A cursor is base64url (no padding) of {@code version | siv | ciphertext}: one version byte (4), then
 * the output of AES-SIV (RFC 5297, deterministic authenticated encryption) over the carried position
 * attributes, each as a varint length and its bytes, with the binding's fingerprint and the version byte
 * as associated data. So a cursor is deterministic, shows nothing of the position it holds (such as the
 * key of an item a filter passed over, which may be another user's), and opens only under the binding
 * that issued it: any other field, parent, prefix, filter or order, or any changed byte, fails the
 * synthetic IV's check and is refused as {@code INVALID_CURSOR}. It holds no attribute names or types
 * (the binding supplies them), so a purchase cursor (a 13-digit timestamp) is 42 characters, as long as
 * before Tink.
 *
 * <p>AES-SIV is Tink's ({@link AesSiv}, its raw primitive: no Tink output prefix, to keep cursors short),
 * under a 64-byte key derived from each secret with HKDF-SHA256 and a fixed info string: a reviewed
 * implementation of a standard construction, in place of the SIV-like composition of HMAC-SHA256 and
 * AES-CTR this class used to write by hand.
 *
 * <p>A cursor at one end of the connection ({@link Position#BEFORE_FIRST}, {@link Position#AFTER_LAST})
 * is {@code version 5 | siv | ciphertext} of the end's one byte, bound alike.
 *
 * <p>New cursors use the current secret; cursors of a previous secret still open, so secrets can rotate
 * without breaking clients in the middle of a walk. Cursors of versions 1 to 3, issued before Tink, are
 * still accepted ({@link LegacyCursors}).
 */
public final class CursorCodec {

	/** The version byte of a cursor at an item's position. */
	static final byte VERSION = 4;

	/** The version byte of a cursor at an end of the connection. */
	static final byte END_VERSION = 5;

	/** The length of the MAC of a cursor issued before Tink, and of AES-SIV's synthetic IV. */
	static final int MAC_LENGTH = LegacyCursors.MAC_LENGTH;

	/** Longer input is refused before decoding: no position of ours comes close. */
	static final int MAX_CURSOR_LENGTH = 4096;

	/** HKDF's info: the AES-SIV key of a secret is of no other use than cursors of this format. */
	private static final byte[] KEY_INFO = "dynamo-relay cursor AES-SIV v4".getBytes(StandardCharsets.US_ASCII);

	private static final int KEY_LENGTH = 64;

	private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();

	private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

	private static final String REFUSED = "The cursor was not issued by this connection: pass a cursor from a page "
			+ "of the same field with the same parent, prefix, filter and order, or leave it out to start over.";

	/** The AES-SIV of each secret, the current one first. */
	private final List<DeterministicAead> sivs;

	private final LegacyCursors legacy;

	/**
	 * @param secret the current secret; seals new cursors
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
		this.sivs = secrets.stream().map(CursorCodec::siv).toList();
		this.legacy = new LegacyCursors(secrets);
	}

	/** The cursor of the position of {@code item} (an item or a LastEvaluatedKey). */
	public String encode(CursorBinding binding, Map<String, AttributeValue> item) {
		ByteArrayOutputStream out = new ByteArrayOutputStream(32);
		for (KeyAttribute attribute : binding.carried()) {
			AttributeValue value = item.get(attribute.name());
			if (value == null) {
				throw new IllegalStateException("item lacks its key attribute " + attribute.name());
			}
			byte[] bytes = bytes(attribute, value);
			writeVarint(out, bytes.length);
			out.writeBytes(bytes);
		}
		return seal(binding, VERSION, out.toByteArray());
	}

	/** The cursor of {@code position}: an item's position or an end of the connection. */
	public String encode(CursorBinding binding, Position position) {
		if (!position.isEnd()) {
			return encode(binding, position.key());
		}
		return seal(binding, END_VERSION, new byte[] { (byte) position.end().ordinal() });
	}

	/**
	 * The position a cursor holds: an item's position, with the binding's fixed attributes added (an
	 * ExclusiveStartKey), or an end of the connection.
	 * @throws InvalidCursorException unless this binding issued the cursor, under a known secret
	 */
	public Position decode(CursorBinding binding, String cursor) {
		byte[] raw = base64(cursor);
		if (raw.length == 0) {
			throw new InvalidCursorException(REFUSED);
		}
		byte version = raw[0];
		if (version == VERSION || version == END_VERSION) {
			byte[] clear = open(binding, version, raw).orElseThrow(() -> new InvalidCursorException(REFUSED));
			return (version == VERSION) ? position(binding, ByteBuffer.wrap(clear)) : end(clear);
		}
		byte[] payload = this.legacy.open(binding.fingerprint(), raw)
			.orElseThrow(() -> new InvalidCursorException(REFUSED));
		byte[] rest = Arrays.copyOfRange(payload, 1, payload.length);
		return (version == LegacyCursors.END_VERSION) ? end(rest) : position(binding, ByteBuffer.wrap(rest));
	}

	private String seal(CursorBinding binding, byte version, byte[] clear) {
		byte[] sealed;
		try {
			sealed = this.sivs.get(0).encryptDeterministically(clear, associatedData(binding, version));
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException("AES-SIV failed", ex);
		}
		byte[] cursor = new byte[1 + sealed.length];
		cursor[0] = version;
		System.arraycopy(sealed, 0, cursor, 1, sealed.length);
		return ENCODER.encodeToString(cursor);
	}

	/** The clear bytes of a cursor of {@code version}, if one of the secrets opens it under the binding. */
	private Optional<byte[]> open(CursorBinding binding, byte version, byte[] raw) {
		byte[] sealed = Arrays.copyOfRange(raw, 1, raw.length);
		byte[] associatedData = associatedData(binding, version);
		for (DeterministicAead siv : this.sivs) {
			try {
				return Optional.of(siv.decryptDeterministically(sealed, associatedData));
			}
			catch (GeneralSecurityException ex) {
				// Another secret's cursor, another binding's, or not ours at all: the next secret may open it.
			}
		}
		return Optional.empty();
	}

	/** The binding's fingerprint (always 32 bytes, so the concatenation is unambiguous) and the version. */
	private static byte[] associatedData(CursorBinding binding, byte version) {
		byte[] fingerprint = binding.fingerprint();
		byte[] associatedData = Arrays.copyOf(fingerprint, fingerprint.length + 1);
		associatedData[fingerprint.length] = version;
		return associatedData;
	}

	/** The AES-SIV of a secret, its 64-byte key derived with HKDF-SHA256 (no salt, a fixed info). */
	private static DeterministicAead siv(String secret) {
		try {
			byte[] key = Hkdf.computeHkdf("HMACSHA256", secret.getBytes(StandardCharsets.UTF_8), new byte[0], KEY_INFO,
					KEY_LENGTH);
			AesSivParameters parameters = AesSivParameters.builder()
				.setKeySizeBytes(KEY_LENGTH)
				.setVariant(AesSivParameters.Variant.NO_PREFIX)
				.build();
			return AesSiv.create(AesSivKey.builder()
				.setParameters(parameters)
				.setKeyBytes(SecretBytes.copyFrom(key, InsecureSecretKeyAccess.get()))
				.build());
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException("AES-SIV is not available", ex);
		}
	}

	/** An end of the connection: one byte, its ordinal. */
	private static Position end(byte[] clear) {
		if (clear.length != 1 || clear[0] < 0 || clear[0] >= Position.End.values().length) {
			throw new InvalidCursorException(REFUSED);
		}
		return (Position.End.values()[clear[0]] == Position.End.BEFORE_FIRST) ? Position.BEFORE_FIRST
				: Position.AFTER_LAST;
	}

	/** An item's position: each carried attribute as a varint length and its bytes, nothing after. */
	private static Position position(CursorBinding binding, ByteBuffer in) {
		// Sealed by us, so well-formed unless a secret leaked or the format changed; check anyway.
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
