package dev.dynamorelay.access;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * What a bearer token's times must say, beyond its signature and audience (Spring Security's own checks, which
 * pass a token with no {@code exp} and any lifetime).
 *
 * @param requireExpiry refuse bearer tokens that have no {@code exp} (expiry) claim: a token that never expires is
 * a key that cannot be withdrawn, and Spring Security's own timestamp check lets it pass
 * @param maxTokenLifetime the longest a token may be valid: {@code exp} minus {@code iat}, or, for a token without
 * {@code iat}, {@code exp} minus now (with a minute's clock skew). A longer-lived token, such as one valid for 100
 * years, is refused as a key that cannot be withdrawn in practice; raise it for an issuer whose access tokens live
 * longer. A token whose {@code iat} lies more than a minute in the future is refused whatever this says
 */
@ConfigurationProperties("dynamo-relay.auth")
public record TokenProperties(@DefaultValue("true") boolean requireExpiry,
		@DefaultValue("24h") Duration maxTokenLifetime) {

	public TokenProperties {
		if (maxTokenLifetime.isNegative() || maxTokenLifetime.isZero()) {
			throw new IllegalArgumentException(
					"dynamo-relay.auth.max-token-lifetime must be positive, got " + maxTokenLifetime);
		}
	}

}
