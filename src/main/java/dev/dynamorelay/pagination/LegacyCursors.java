package dev.dynamorelay.pagination;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Opens the cursors issued before {@link CursorCodec} used Tink, so that clients in the middle of a walk
 * keep going across the upgrade; nothing issues them any more.
 *
 * <p>Each is {@code version | payload | mac}, the MAC the first {@value #MAC_LENGTH} bytes of HMAC-SHA256
 * under the secret over the binding's fingerprint, the version byte and the payload in the clear:
 * <ul>
 * <li>version 1: the position's values in the clear;</li>
 * <li>version 2: an end of the connection (one byte, its ordinal);</li>
 * <li>version 3: the position's values encrypted with AES-128-CTR under a key derived from the secret,
 * the MAC as the counter's start (a synthetic IV, as in SIV mode).</li>
 * </ul>
 *
 * <p>This class can be deleted one release after the Tink cursors (versions 4 and 5): by then a client
 * holding an older cursor has long finished its walk, and at worst starts over on {@code INVALID_CURSOR}.
 */
final class LegacyCursors {

	/** The version byte of a cursor whose values are in the clear. */
	static final byte CLEAR_VERSION = 1;

	/** The version byte of a signed cursor at an end of the connection. */
	static final byte END_VERSION = 2;

	/** The version byte of a cursor whose values are encrypted under an HMAC synthetic IV. */
	static final byte ENCRYPTED_VERSION = 3;

	static final int MAC_LENGTH = 16;

	private static final ThreadLocal<Cipher> CIPHERS = ThreadLocal.withInitial(() -> {
		try {
			return Cipher.getInstance("AES/CTR/NoPadding");
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException("AES/CTR is not available", ex);
		}
	});

	private final List<Mac> macs;

	/** The encryption key of each secret, in the order of {@link #macs}. */
	private final List<SecretKeySpec> keys;

	/** @param secrets every accepted secret, the current one first */
	LegacyCursors(List<String> secrets) {
		this.macs = secrets.stream().map(LegacyCursors::mac).toList();
		this.keys = secrets.stream().map(LegacyCursors::encryptionKey).toList();
	}

	/** Whether {@code version} is one of the versions this class opens. */
	static boolean opens(byte version) {
		return version == CLEAR_VERSION || version == END_VERSION || version == ENCRYPTED_VERSION;
	}

	/**
	 * The payload in the clear, its version byte first, if the MAC verifies under one of the secrets and
	 * the binding; empty otherwise.
	 */
	Optional<byte[]> open(byte[] fingerprint, byte[] raw) {
		if (raw.length < 1 + MAC_LENGTH || !opens(raw[0])) {
			return Optional.empty();
		}
		int payloadLength = raw.length - MAC_LENGTH;
		byte[] payload = Arrays.copyOf(raw, payloadLength);
		byte[] given = Arrays.copyOfRange(raw, payloadLength, raw.length);
		for (int i = 0; i < this.macs.size(); i++) {
			byte[] clear = (payload[0] == ENCRYPTED_VERSION) ? crypt(this.keys.get(i), given, payload) : payload;
			clear[0] = payload[0];
			if (verifies(this.macs.get(i), fingerprint, clear, given)) {
				return Optional.of(clear);
			}
		}
		return Optional.empty();
	}

	private static boolean verifies(Mac mac, byte[] fingerprint, byte[] payload, byte[] given) {
		byte[] expected = Arrays.copyOf(sign(mac, fingerprint, payload), MAC_LENGTH);
		return MessageDigest.isEqual(expected, given);
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

}
