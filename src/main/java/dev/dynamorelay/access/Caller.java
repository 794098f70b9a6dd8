package dev.dynamorelay.access;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import graphql.GraphQLContext;
import graphql.schema.DataFetchingEnvironment;

/**
 * Who sent the request: the claims of its validated JWT, or nobody.
 *
 * @param claims the token's claims; empty for a request without a token
 */
public record Caller(Optional<Map<String, Object>> claims) {

	/** A request without a token. */
	public static final Caller ANONYMOUS = new Caller(Optional.empty());

	public Caller {
		claims = claims.map(Map::copyOf);
	}

	public static Caller of(Map<String, Object> claims) {
		return new Caller(Optional.of(claims));
	}

	/** The caller of the request being executed; anonymous when none was installed. */
	public static Caller of(DataFetchingEnvironment environment) {
		GraphQLContext context = environment.getGraphQlContext();
		Caller caller = (context != null) ? context.get(Caller.class) : null;
		return (caller != null) ? caller : ANONYMOUS;
	}

	public boolean signedIn() {
		return this.claims.isPresent();
	}

	/** A claim that is one value (a string, or a number as its digits). */
	public Optional<String> text(String claim) {
		Object value = this.claims.map((all) -> all.get(claim)).orElse(null);
		return (value instanceof String || value instanceof Number || value instanceof Boolean)
				? Optional.of(value.toString()) : Optional.empty();
	}

	/**
	 * A claim that lists names: a JSON array, or a string of names separated by spaces or commas (as
	 * OAuth 2's {@code scope} is).
	 */
	public Set<String> values(String claim) {
		Object value = this.claims.map((all) -> all.get(claim)).orElse(null);
		Set<String> values = new LinkedHashSet<>();
		if (value instanceof Collection<?> list) {
			list.forEach((each) -> {
				if (each != null) {
					values.add(each.toString());
				}
			});
		}
		else if (value instanceof String text) {
			for (String each : text.split("[\\s,]+")) {
				if (!each.isEmpty()) {
					values.add(each);
				}
			}
		}
		return values;
	}

	/** The scopes the token grants: {@code scope} and {@code scp}, as Spring Security reads them. */
	public Set<String> scopes() {
		Set<String> scopes = new LinkedHashSet<>(values("scope"));
		scopes.addAll(values("scp"));
		return scopes;
	}

}
