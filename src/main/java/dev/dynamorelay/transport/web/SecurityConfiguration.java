package dev.dynamorelay.transport.web;

import java.io.IOException;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
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
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.server.resource.web.BearerTokenAuthenticationEntryPoint;
import org.springframework.security.oauth2.server.resource.web.authentication.BearerTokenAuthenticationFilter;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.firewall.RequestRejectedHandler;
import tools.jackson.databind.json.JsonMapper;

import dev.dynamorelay.access.Access;
import dev.dynamorelay.error.ErrorCode;
import dev.dynamorelay.transport.web.ErrorResponses;

/**
 * The servlet side of identity: Spring Security's filter chain (every request let through to GraphQL, where the
 * schema's {@code @auth} rules decide field by field; a bearer token that is not valid answered 401 before anything
 * runs), the firewall's refusals as GraphQL errors, and {@code WWW-Authenticate} on an answer of which nothing ran
 * for want of a caller. The rules themselves are {@link dev.dynamorelay.access.AccessConfiguration}'s.
 */
@Configuration(proxyBeanMethods = false)
public class SecurityConfiguration {

	private static final Logger logger = LoggerFactory.getLogger(SecurityConfiguration.class);

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

}
