package dev.dynamorelay.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.security.interfaces.RSAPrivateKey;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.Map;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * JWTs for the tests, signed with a key pair generated here (no outside identity provider): the
 * server trusts its public key, written to a PEM file, through Spring Boot's own properties.
 */
public final class Tokens {

	public static final String AUDIENCE = "dynamo-relay-tests";

	private static final KeyPair TRUSTED = keyPair();

	private static final KeyPair OTHER = keyPair();

	private static final Path PUBLIC_KEY = publicKeyFile(TRUSTED);

	private Tokens() {
	}

	/** Configures the server to trust {@link #TRUSTED} tokens for {@link #AUDIENCE}. */
	public static void configure(DynamicPropertyRegistry registry) {
		registry.add("spring.security.oauth2.resourceserver.jwt.public-key-location", () -> PUBLIC_KEY.toUri().toString());
		registry.add("spring.security.oauth2.resourceserver.jwt.audiences", () -> AUDIENCE);
	}

	/** The same as command-line arguments, for a server in a JVM of its own. */
	public static List<String> arguments() {
		return List.of("--spring.security.oauth2.resourceserver.jwt.public-key-location=" + PUBLIC_KEY.toUri(),
				"--spring.security.oauth2.resourceserver.jwt.audiences=" + AUDIENCE);
	}

	/** A valid token for {@code subject} with {@code claims} besides. */
	public static String of(String subject, Map<String, Object> claims) {
		return signed(TRUSTED, claims(subject, AUDIENCE, Instant.now().plus(Duration.ofMinutes(10)), claims));
	}

	public static String of(String subject) {
		return of(subject, Map.of());
	}

	/** A valid token for {@code subject} that expires after {@code life}. */
	public static String expiring(String subject, Duration life) {
		return signed(TRUSTED, claims(subject, AUDIENCE, Instant.now().plus(life), Map.of()));
	}

	public static String expired(String subject) {
		return signed(TRUSTED, claims(subject, AUDIENCE, Instant.now().minus(Duration.ofMinutes(10)), Map.of()));
	}

	/** A valid token in every way but one: it never expires (no {@code exp} claim). */
	public static String withoutExpiry(String subject) {
		JWTClaimsSet claims = new JWTClaimsSet.Builder().subject(subject)
			.audience(AUDIENCE)
			.issueTime(Date.from(Instant.now().minus(Duration.ofMinutes(1))))
			.build();
		return signed(TRUSTED, claims);
	}

	/** A token signed by the trusted key, issued at {@code issued} (none: no {@code iat}) and expiring at {@code expires}. */
	public static String timed(String subject, Instant issued, Instant expires) {
		JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder().subject(subject)
			.audience(AUDIENCE)
			.expirationTime(Date.from(expires));
		if (issued != null) {
			claims.issueTime(Date.from(issued));
		}
		return signed(TRUSTED, claims.build());
	}

	public static String signedByAnotherKey(String subject) {
		return signed(OTHER, claims(subject, AUDIENCE, Instant.now().plus(Duration.ofMinutes(10)), Map.of()));
	}

	public static String forAnotherAudience(String subject) {
		return signed(TRUSTED, claims(subject, "another-service", Instant.now().plus(Duration.ofMinutes(10)), Map.of()));
	}

	/** An unsigned token ({@code "alg": "none"}) that claims to be {@code subject}. */
	public static String unsigned(String subject) {
		return new PlainJWT(claims(subject, AUDIENCE, Instant.now().plus(Duration.ofMinutes(10)), Map.of())).serialize();
	}

	private static JWTClaimsSet claims(String subject, String audience, Instant expires, Map<String, Object> more) {
		JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder().subject(subject)
			.audience(audience)
			.issueTime(Date.from(expires.minus(Duration.ofMinutes(20))))
			.expirationTime(Date.from(expires));
		more.forEach(claims::claim);
		return claims.build();
	}

	private static String signed(KeyPair key, JWTClaimsSet claims) {
		SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).build(), claims);
		try {
			jwt.sign(new RSASSASigner((RSAPrivateKey) key.getPrivate()));
		}
		catch (JOSEException ex) {
			throw new IllegalStateException(ex);
		}
		return jwt.serialize();
	}

	private static KeyPair keyPair() {
		try {
			KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
			generator.initialize(2048);
			return generator.generateKeyPair();
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static Path publicKeyFile(KeyPair key) {
		String pem = "-----BEGIN PUBLIC KEY-----\n"
				+ Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(key.getPublic().getEncoded())
				+ "\n-----END PUBLIC KEY-----\n";
		try {
			Path file = Files.createTempFile("dynamo-relay-test-key", ".pem");
			file.toFile().deleteOnExit();
			return Files.writeString(file, pem);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
