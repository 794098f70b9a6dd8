package dev.dynamorelay.access;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.springframework.security.oauth2.core.OAuth2Error;
import org.springframework.security.oauth2.core.OAuth2ErrorCodes;
import org.springframework.security.oauth2.core.OAuth2TokenValidator;
import org.springframework.security.oauth2.core.OAuth2TokenValidatorResult;
import org.springframework.security.oauth2.jwt.Jwt;

/**
 * Checks a bearer token's times beyond Spring Security's {@code exp}/{@code nbf} check: an expiry is required
 * ({@link TokenProperties#requireExpiry}), the token's lifetime is bounded ({@link TokenProperties#maxTokenLifetime}),
 * and it was not issued in the future. Spring Security's own {@code JwtIssuedAtValidator} is not used: it also
 * refuses every token issued more than its clock skew ago, which suits proofs of possession, not access tokens.
 * Added to the decoder Spring Boot configures, as every {@link OAuth2TokenValidator} bean is.
 */
final class TokenTimes implements OAuth2TokenValidator<Jwt> {

	/** How far the issuer's clock may be ahead of this server's: Spring Security's own skew for {@code exp}. */
	static final Duration CLOCK_SKEW = Duration.ofSeconds(60);

	private final TokenProperties properties;

	private final Clock clock;

	TokenTimes(TokenProperties properties, Clock clock) {
		this.properties = properties;
		this.clock = clock;
	}

	@Override
	public OAuth2TokenValidatorResult validate(Jwt token) {
		Instant now = this.clock.instant();
		Instant expires = token.getExpiresAt();
		Instant issued = token.getIssuedAt();
		if (issued != null && expires != null && issued.equals(expires.minusSeconds(1))) {
			// Spring Security's claim converter gives a token without `iat` one a second before its `exp`: none.
			issued = null;
		}
		List<OAuth2Error> errors = new ArrayList<>(2);
		if (expires == null && this.properties.requireExpiry()) {
			errors.add(error("the token has no `exp` (expiry) claim, which this server requires "
					+ "(dynamo-relay.auth.require-expiry)"));
		}
		if (issued != null && issued.isAfter(now.plus(CLOCK_SKEW))) {
			errors.add(error("the token's `iat` (issued at, %s) lies in the future".formatted(issued)));
		}
		if (expires != null) {
			// Without `iat`, what is left of it is what can be told; the skew for a clock ahead of ours.
			Duration lifetime = (issued != null) ? Duration.between(issued, expires)
					: Duration.between(now, expires).minus(CLOCK_SKEW);
			if (lifetime.compareTo(this.properties.maxTokenLifetime()) > 0) {
				errors.add(error(("the token is valid for %s (`exp` %s%s), longer than this server accepts "
						+ "(dynamo-relay.auth.max-token-lifetime: %s)").formatted(lifetime, expires,
								(issued != null) ? ", `iat` " + issued : ", and no `iat`",
								this.properties.maxTokenLifetime())));
			}
		}
		return errors.isEmpty() ? OAuth2TokenValidatorResult.success() : OAuth2TokenValidatorResult.failure(errors);
	}

	private static OAuth2Error error(String description) {
		return new OAuth2Error(OAuth2ErrorCodes.INVALID_TOKEN, description, null);
	}

}
