package dev.dynamorelay.access;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;

import org.junit.jupiter.api.Test;
import org.springframework.security.oauth2.core.OAuth2Error;
import org.springframework.security.oauth2.core.OAuth2TokenValidatorResult;
import org.springframework.security.oauth2.jwt.Jwt;

import static org.assertj.core.api.Assertions.assertThat;

/** A token's times: an expiry, a bounded lifetime, and no issue time in the future. */
class TokenTimesTest {

	private static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");

	private final TokenTimes times = new TokenTimes(new TokenProperties(true, Duration.ofHours(24)),
			Clock.fixed(NOW, ZoneOffset.UTC));

	@Test
	void aTokenOfADayOrLessIssuedUpToNowIsValid() {
		assertThat(validate(NOW.minus(Duration.ofMinutes(5)), NOW.plus(Duration.ofMinutes(55))).hasErrors()).isFalse();
		assertThat(validate(NOW, NOW.plus(Duration.ofHours(24))).hasErrors()).isFalse();
		// An issuer whose clock is a little ahead: within Spring Security's own skew.
		assertThat(validate(NOW.plus(Duration.ofSeconds(30)), NOW.plus(Duration.ofHours(1))).hasErrors()).isFalse();
		assertThat(validate(null, NOW.plus(Duration.ofHours(24))).hasErrors()).isFalse();
		// Without `iat`, as Spring Security's claim converter gives it: a second before `exp`, not in the future.
		assertThat(validate(NOW.plus(Duration.ofHours(2)).minusSeconds(1), NOW.plus(Duration.ofHours(2))).hasErrors())
			.isFalse();
	}

	@Test
	void aTokenValidForAHundredYearsIsRefused() {
		assertThat(description(validate(NOW, NOW.plus(Duration.ofDays(36_525))))).contains("max-token-lifetime");
		assertThat(description(validate(NOW.minus(Duration.ofDays(2)), NOW.plus(Duration.ofMinutes(5)))))
			.as("issued two days ago, still valid: two days long").contains("max-token-lifetime");
		assertThat(description(validate(null, NOW.plus(Duration.ofDays(36_525))))).as("no iat")
			.contains("max-token-lifetime", "no `iat`");
		Instant century = NOW.plus(Duration.ofDays(36_525));
		assertThat(description(validate(century.minusSeconds(1), century))).as("no iat, as Spring Security gives it")
			.contains("max-token-lifetime", "no `iat`")
			.doesNotContain("future");
	}

	@Test
	void aTokenIssuedInTheFutureIsRefused() {
		assertThat(description(validate(NOW.plus(Duration.ofHours(1)), NOW.plus(Duration.ofHours(2))))).contains("`iat`",
				"future");
		assertThat(description(validate(NOW.plus(Duration.ofSeconds(61)), NOW.plus(Duration.ofHours(2))))).contains("future");
	}

	@Test
	void aTokenWithoutExpiryIsRefusedUnlessAllowed() {
		assertThat(description(validate(NOW, null))).contains("`exp`");
		TokenTimes allowed = new TokenTimes(new TokenProperties(false, Duration.ofHours(24)), Clock.fixed(NOW, ZoneOffset.UTC));
		assertThat(allowed.validate(token(NOW, null)).hasErrors()).isFalse();
	}

	private OAuth2TokenValidatorResult validate(Instant issued, Instant expires) {
		return this.times.validate(token(issued, expires));
	}

	private static Jwt token(Instant issued, Instant expires) {
		Jwt.Builder token = Jwt.withTokenValue("token").header("alg", "RS256").subject("alice");
		if (issued != null) {
			token.issuedAt(issued);
		}
		if (expires != null) {
			token.expiresAt(expires);
		}
		return token.build();
	}

	private static String description(OAuth2TokenValidatorResult result) {
		assertThat(result.hasErrors()).isTrue();
		return result.getErrors().stream().map(OAuth2Error::getDescription).reduce("", String::concat);
	}

}
