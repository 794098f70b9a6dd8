package dev.dynamorelay.access;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.security.oauth2.jwt.Jwt;

import static org.assertj.core.api.Assertions.assertThat;

class CallerTest {

	@Test
	void scopesComeFromScopeAndScpAsSpringSecurityReadsThem() {
		assertThat(caller(Map.of("scope", "read  write")).scopes()).containsExactly("read", "write");
		assertThat(caller(Map.of("scp", List.of("read", "admin"))).scopes()).containsExactly("read", "admin");
		assertThat(caller(Map.of("scp", "read admin")).scopes()).containsExactly("read", "admin");
		assertThat(caller(Map.of("scope", "read", "scp", List.of("admin"))).scopes()).containsExactlyInAnyOrder("read",
				"admin");
		assertThat(caller(Map.of("sub", "ada")).scopes()).isEmpty();
		assertThat(Caller.ANONYMOUS.scopes()).isEmpty();
	}

	@Test
	void theExpiryIsTheTokensOwn() {
		Instant exp = Instant.parse("2030-01-01T00:00:00Z");
		assertThat(caller(Map.of("exp", exp)).expiresAt()).contains(exp);
		assertThat(caller(Map.of("sub", "ada")).expiresAt()).isEmpty();
		assertThat(Caller.ANONYMOUS.expiresAt()).isEmpty();
	}

	@Test
	void identifyingClaimsAreNonBlankStringsOrWholeNumbers() {
		Caller caller = caller(Map.of("sub", "ada", "blank", " ", "n", 42L, "list", List.of("x"), "groups", List.of("a", " ")));
		assertThat(caller.text("sub")).contains("ada");
		assertThat(caller.text("blank")).isEmpty();
		assertThat(caller.text("n")).contains("42");
		assertThat(caller.text("list")).isEmpty();
		assertThat(caller.values("groups")).containsExactly("a");
		assertThat(caller.signedIn()).isTrue();
		assertThat(Caller.ANONYMOUS.signedIn()).isFalse();
	}

	private static Caller caller(Map<String, Object> claims) {
		return Caller.of(Jwt.withTokenValue("token").header("alg", "RS256").claims((all) -> all.putAll(claims)).build());
	}

}
