package dev.dynamorelay.access;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.security.oauth2.core.OAuth2TokenValidator;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;

import dev.dynamorelay.declaration.Declarations;
import dev.dynamorelay.declaration.DeclaredConnection;
import dev.dynamorelay.declaration.DeclaredSchema;
import dev.dynamorelay.dynamodb.DynamoDbProperties;
import dev.dynamorelay.dynamodb.tables.DeclaredTables;
import dev.dynamorelay.schema.DeclarationException;
import dev.dynamorelay.schema.Problem.UnenforceableRule;
import dev.dynamorelay.schema.Problem;

/**
 * Identity for the schema's {@code @auth} rules: JWT bearer tokens, validated by Spring Security's
 * OAuth 2 resource server as Spring Boot configures it ({@code spring.security.oauth2.resourceserver.jwt.*}:
 * a JWK set URI, an issuer, or a local public key, with {@code audiences}).
 *
 * <p>Every HTTP request is let through to GraphQL, where the rules decide field by field. A request
 * with a token that is not valid (expired, signed by another key, for another audience, unsigned) is
 * answered 401 before anything runs, with a GraphQL error body. With no key configured, nothing is
 * checked, and the start says so.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(TokenProperties.class)
public class AccessConfiguration {

	private static final Logger logger = LoggerFactory.getLogger(AccessConfiguration.class);

	/**
	 * The {@code @auth} rules, read when the bean factory is post-processed, after the declarations
	 * ({@link dev.dynamorelay.declaration.DeclarationConfiguration}'s post-processor is ordered first) and before any
	 * bean is made: a mistake in them stops the start before the web server, the engine and DynamoDB's client exist.
	 */
	@Bean
	static BeanFactoryPostProcessor accessRulesRead() {
		return (beanFactory) -> {
			DeclaredSchema read = beanFactory.getBean("declaredSchema", DeclaredSchema.class);
			beanFactory.registerSingleton("accessRules",
					AccessRulesReader.read(read.schema().registry(), read.declarations()));
		};
	}

	@Bean
	Access access(AccessRules rules, DeclaredTables tables, ObjectProvider<JwtDecoder> decoder,
			Environment environment, DynamoDbProperties dynamoDb) {
		Declarations declarations = tables.declarations();
		boolean enforced = decoder.getIfAvailable() != null;
		if (!enforced) {
			// A WARN against a DynamoDB of one's own, whose data it opens to anyone; an INFO on the embedded engine,
			// a trial whose data lives and dies with the process.
			String message = "No JWT key is configured (spring.security.oauth2.resourceserver.jwt.*): the schema's @auth "
					+ "rules are not checked and every field is open to anyone. Configure a key before exposing this server.";
			if (dynamoDb.embedded()) {
				logger.info(message);
			}
			else {
				logger.warn(message);
			}
		}
		else {
			logger.info("Checking @auth rules against JWT bearer tokens: {} types and {} fields have rules",
					rules.types().size(), rules.fields().size());
			if (!environment.containsProperty("spring.security.oauth2.resourceserver.jwt.audiences")) {
				logger.warn("spring.security.oauth2.resourceserver.jwt.audiences is not set: tokens the key signed for "
						+ "any audience (any other service) are accepted. Set it to this server's audience.");
			}
		}
		Access access = new Access(rules, declarations, enforced);
		List<Problem> problems = new ArrayList<>();
		for (DeclaredConnection connection : declarations.connections()) {
			access.ownerFilters(connection).forEach((node, field) -> {
				if (!tables.holds(connection.definition(), field.attribute())) {
					problems.add(new UnenforceableRule(node.location(), ("`%s` must serve only the caller's `%s` items by a filter "
							+ "on `%s`, which global index `%s` does not project, so it would match nothing: add `%s` to "
							+ "the index's projection, or make it ALL.").formatted(connection.name(), node.name(), field.attribute(),
									connection.definition().index().orElseThrow(), field.attribute())));
				}
			});
		}
		if (!problems.isEmpty()) {
			throw new DeclarationException("The schema's @auth rules cannot be served", problems);
		}
		return access;
	}

	/**
	 * Refuses a token without an expiry ({@code exp}), one valid for longer than
	 * {@code dynamo-relay.auth.max-token-lifetime}, and one issued in the future: a token that never expires, or
	 * lives for a century, is a key that cannot be withdrawn. Added to the decoder Spring Boot configures.
	 */
	@Bean
	OAuth2TokenValidator<Jwt> tokenTimes(TokenProperties properties) {
		return new TokenTimes(properties, Clock.systemUTC());
	}

}
