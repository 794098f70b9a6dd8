package dev.dynamorelay.access;

import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.graphql.autoconfigure.GraphQlSourceBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.Environment;
import org.springframework.graphql.server.WebGraphQlInterceptor;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.security.authentication.AuthenticationServiceException;
import org.springframework.security.config.ObjectPostProcessor;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AbstractHttpConfigurer;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.config.observation.SecurityObservationSettings;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.oauth2.core.OAuth2TokenValidator;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.server.resource.web.BearerTokenAuthenticationEntryPoint;
import org.springframework.security.oauth2.server.resource.web.authentication.BearerTokenAuthenticationFilter;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.firewall.RequestRejectedHandler;
import tools.jackson.databind.json.JsonMapper;

import dev.dynamorelay.declaration.Declarations;
import dev.dynamorelay.declaration.DeclaredConnection;
import dev.dynamorelay.declaration.DeclaredSchema;
import dev.dynamorelay.dynamodb.DynamoDbProperties;
import dev.dynamorelay.error.ErrorCode;
import dev.dynamorelay.schema.DeclarationException;
import dev.dynamorelay.schema.DeclarationException.Problem;
import dev.dynamorelay.tables.DeclaredTables;
import dev.dynamorelay.web.ErrorResponses;

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
					problems.add(new Problem(node.location(), ("`%s.%s` must serve only the caller's `%s` items by a filter "
							+ "on `%s`, which global index `%s` does not project, so it would match nothing: add `%s` to "
							+ "the index's projection, or make it ALL.").formatted(connection.coordinates().getTypeName(),
									connection.coordinates().getFieldName(), node.name(), field.attribute(),
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
	 * No Micrometer observations of Spring Security's filters and authorizations: they started and stopped
	 * an observation around each of the chain's filters on every request, about 5% of a warm page's CPU and
	 * 7% of its allocations (async-profiler, bench/README.md), for timers nothing reads; the request timer
	 * ({@code dynamorelay.http.requests}) already covers the request.
	 */
	@Bean
	SecurityObservationSettings securityObservations() {
		return SecurityObservationSettings.noObservations();
	}

	@Bean
	SecurityFilterChain securityFilterChain(HttpSecurity http, ObjectProvider<JwtDecoder> decoder, JsonMapper json) {
		http.authorizeHttpRequests((requests) -> requests.anyRequest().permitAll())
			.csrf(AbstractHttpConfigurer::disable)
			.logout(AbstractHttpConfigurer::disable)
			.requestCache(AbstractHttpConfigurer::disable)
			.sessionManagement((session) -> session.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
			.headers((headers) -> headers.cacheControl((cache) -> cache.disable()));
		if (decoder.getIfAvailable() != null) {
			BearerTokenAuthenticationEntryPoint bearer = new BearerTokenAuthenticationEntryPoint();
			AuthenticationEntryPoint refuse = (request, response, failure) -> refuse(bearer, json, request, response,
					failure);
			http.oauth2ResourceServer((server) -> server.jwt((jwt) -> {
			}).authenticationEntryPoint(refuse).withObjectPostProcessor(new ObjectPostProcessor<BearerTokenAuthenticationFilter>() {

				@Override
				public <O extends BearerTokenAuthenticationFilter> O postProcess(O filter) {
					filter.setAuthenticationFailureHandler((request, response, failure) -> {
						if (failure instanceof AuthenticationServiceException) {
							// The keys could not be fetched (a JWK set URI that does not answer): not the token's fault.
							logger.warn("Bearer token not checked: {}", failure.getMessage());
							write(json, request, response, HttpStatus.SERVICE_UNAVAILABLE, ErrorCode.UNAVAILABLE,
									"The keys that check bearer tokens cannot be fetched right now; retry the request later.");
						}
						else {
							refuse.commence(request, response, failure);
						}
					});
					return filter;
				}

			}));
		}
		return http.build();
	}

	/** A request the firewall refuses (an encoded slash, a control character, an unknown method): 400, a GraphQL body. */
	@Bean
	RequestRejectedHandler requestRejectedHandler(JsonMapper json) {
		return (request, response, rejected) -> write(json, request, response, HttpStatus.BAD_REQUEST, ErrorCode.INVALID_ARGUMENT,
				"The request's URL, method or headers are malformed: " + rejected.getMessage());
	}

	/** An error before anything runs: a GraphQL error body, or a problem under the REST view's {@code /api/}. */
	private static void write(JsonMapper json, HttpServletRequest request, HttpServletResponse response,
			HttpStatus status, ErrorCode code, String message) throws IOException {
		ErrorResponses.write(response, request.getRequestURI(), status, code, message, false);
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

	/** A token that is not valid: 401 with {@code WWW-Authenticate}, and a GraphQL error body. */
	private static void refuse(BearerTokenAuthenticationEntryPoint bearer, JsonMapper json, HttpServletRequest request,
			HttpServletResponse response, AuthenticationException failure) throws IOException {
		bearer.commence(request, response, failure);
		String message = "The bearer token was refused: %s. Send a valid token, or none for public fields."
			.formatted(failure.getMessage());
		write(json, request, response, HttpStatus.UNAUTHORIZED, ErrorCode.UNAUTHENTICATED, message);
	}

	/**
	 * Answers a request of which nothing could run for want of a caller with {@code WWW-Authenticate}
	 * (the caller itself reaches every execution through {@link CallerFilter}).
	 */
	@Bean
	@Order(Ordered.HIGHEST_PRECEDENCE)
	WebGraphQlInterceptor unauthenticatedAnswers() {
		return (request, chain) -> {
			return chain.next(request).doOnNext((response) -> {
				if (Access.nothingRanUnauthenticated(response.getExecutionResult())) {
					response.getResponseHeaders().set(HttpHeaders.WWW_AUTHENTICATE, "Bearer");
				}
			});
		};
	}

	/** Fields that read no declared items (mutations, fields wired in Java) check their own rules first. */
	@Bean
	GraphQlSourceBuilderCustomizer guardedFields(Access access, Declarations declarations) {
		return (builder) -> {
			if (access.enforced()) {
				builder.typeVisitors(List.of(new GuardedFields(access, declarations)));
			}
		};
	}

}
