package dev.dynamorelay.access;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;


/**
 * Who sent the request: the claims of its validated JWT, or nobody.
 *
 * <p>The transport that received the request tells ({@link #ATTRIBUTE}); its {@link RequestScope} holds it.
 *
 * @param claims the token's claims; empty for a request without a token
 */
public record Caller(Optional<Map<String, Object>> claims) {

	/** A request without a token. */
	public static final Caller ANONYMOUS = new Caller(Optional.empty());

	/** The request attribute in which the transport leaves the caller for the request's scope. */
	public static final String ATTRIBUTE = Caller.class.getName();

	public Caller {
		claims = claims.map(Map::copyOf);
	}

	public static Caller of(Map<String, Object> claims) {
		return new Caller(Optional.of(claims));
	}


	public boolean signedIn() {
		return this.claims.isPresent();
	}

	/**
	 * A claim that identifies: a string that is not blank, or a whole number as its digits; empty for
	 * anything else (a list, an object, a boolean, a blank string), which identifies no one.
	 */
	public Optional<String> text(String claim) {
		Object value = this.claims.map((all) -> all.get(claim)).orElse(null);
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
		Object value = this.claims.map((all) -> all.get(claim)).orElse(null);
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
	 * by spaces, RFC 6749) and {@code scp} (such a string, or a JSON array).
	 */
	public Set<String> scopes() {
		Set<String> scopes = new LinkedHashSet<>();
		for (String claim : new String[] { "scope", "scp" }) {
			Object value = this.claims.map((all) -> all.get(claim)).orElse(null);
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
