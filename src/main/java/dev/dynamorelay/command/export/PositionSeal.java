package dev.dynamorelay.command.export;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The MAC of a position file: HMAC-SHA256 over its canonical content, under a key derived from the
 * cursor secret. The cursors alone protect where each segment stands, but not the rest of the file
 * ({@code outputBytes}, a segment marked done or left out, {@code complete}), whose edits would make a
 * resume drop, repeat or cut lines; the seal makes every edit a refusal.
 *
 * <p>Its key is {@code HMAC-SHA256(secret, "dynamo-relay export position")}, not the secret itself, so
 * that a position's MAC can never pass for a cursor's or the other way round. A position sealed under
 * one of the previous secrets still verifies, as its cursors do: rotating the secret does not break a
 * resume.
 */
final class PositionSeal {

	private static final byte[] PURPOSE = "dynamo-relay export position".getBytes(StandardCharsets.US_ASCII);

	private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();

	/** The key of each secret, the current one first. */
	private final List<SecretKeySpec> keys;

	/**
	 * @param secret the current cursor secret; seals new positions
	 * @param previousSecrets earlier cursor secrets whose positions still verify
	 */
	PositionSeal(String secret, List<String> previousSecrets) {
		List<SecretKeySpec> keys = new ArrayList<>();
		keys.add(key(secret));
		previousSecrets.stream().filter((previous) -> !previous.isEmpty()).map(PositionSeal::key).forEach(keys::add);
		this.keys = List.copyOf(keys);
	}

	/** The MAC of {@code content} under the current secret, base64url. */
	String seal(byte[] content) {
		return ENCODER.encodeToString(mac(this.keys.get(0), content));
	}

	/** Whether {@code mac} is the MAC of {@code content} under the current or a previous secret. */
	boolean verifies(byte[] content, String mac) {
		byte[] given;
		try {
			given = Base64.getUrlDecoder().decode(mac);
		}
		catch (IllegalArgumentException ex) {
			return false;
		}
		for (SecretKeySpec key : this.keys) {
			if (MessageDigest.isEqual(mac(key, content), given)) {
				return true;
			}
		}
		return false;
	}

	private static SecretKeySpec key(String secret) {
		byte[] derived = mac(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"), PURPOSE);
		return new SecretKeySpec(derived, "HmacSHA256");
	}

	private static byte[] mac(SecretKeySpec key, byte[] content) {
		try {
			Mac mac = Mac.getInstance("HmacSHA256");
			mac.init(key);
			return mac.doFinal(content);
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException("HmacSHA256 is not available", ex);
		}
	}

}
