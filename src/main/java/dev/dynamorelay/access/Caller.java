package dev.dynamorelay.access;

import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.springframework.security.oauth2.jwt.Jwt;

/**
 * Who sent the request: the claims of its validated JWT, or nobody.
 *
 * <p>The transport that received the request tells ({@link #ATTRIBUTE}); the request's scope holds it.
 *
 * @param token the validated token, as Spring Security decoded it; empty for a request without a token
 */
public record Caller(Optional<Jwt> token) {

	/** A request without a token. */
	public static final Caller ANONYMOUS = new Caller(Optional.empty());

	/** The request attribute in which the transport leaves the caller for the request's scope. */
	public static final String ATTRIBUTE = Caller.class.getName();

	public static Caller of(Jwt token) {
		return new Caller(Optional.of(token));
	}

	/** The token's claims; empty for a request without a token. */
	public Optional<Map<String, Object>> claims() {
		return this.token.map(Jwt::getClaims);
	}

	/** When the token expires ({@code exp}); empty for a request without a token. */
	public Optional<Instant> expiresAt() {
		return this.token.map(Jwt::getExpiresAt);
	}


	public boolean signedIn() {
		return this.token.isPresent();
	}

	/**
	 * A claim that identifies: a string that is not blank, or a whole number as its digits; empty for
	 * anything else (a list, an object, a boolean, a blank string), which identifies no one.
	 */
	public Optional<String> text(String claim) {
		Object value = claims().map((all) -> all.get(claim)).orElse(null);
		if (value instanceof String text) {
			return text.isBlank() ? Optional.empty() : Optional.of(text);
		}
		if (value instanceof Integer || value instanceof Long || value instanceof java.math.BigInteger) {
			return Optional.of(value.toString());
		}
		return Optional.empty();
	}

	/** A claim that lists names: a JSON array of strings, or one string, which is one name. */
	public Set<String> values(String claim) {
		Object value = claims().map((all) -> all.get(claim)).orElse(null);
		Set<String> values = new LinkedHashSet<>();
		if (value instanceof Collection<?> list) {
			list.forEach((each) -> {
				if (each instanceof String name && !name.isBlank()) {
					values.add(name);
				}
			});
		}
		else if (value instanceof String name && !name.isBlank()) {
			values.add(name);
		}
		return values;
	}

	/**
	 * The scopes the token grants, as Spring Security reads them: {@code scope} (a string of names separated
	 * by spaces, RFC 6749) and {@code scp} (such a string, or a JSON array). Read here rather than by Spring
	 * Security's {@code JwtGrantedAuthoritiesConverter}, which throws on a blank name (two spaces in a row, a
	 * blank entry of an array) where this reads the names that are there.
	 */
	public Set<String> scopes() {
		Set<String> scopes = new LinkedHashSet<>();
		for (String claim : new String[] { "scope", "scp" }) {
			Object value = claims().map((all) -> all.get(claim)).orElse(null);
			if (value instanceof String text) {
				for (String name : text.trim().split(" +")) {
					if (!name.isEmpty()) {
						scopes.add(name);
					}
				}
			}
			else {
				scopes.addAll(values(claim));
			}
		}
		return scopes;
	}

}
