package dev.dynamorelay.transport.rest;

import io.swagger.v3.oas.models.OpenAPI;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.tomcat.util.buf.EncodedSolidusHandling;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.tomcat.TomcatConnectorCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.graphql.execution.GraphQlSource;
import org.springframework.graphql.server.WebGraphQlHandler;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.security.web.firewall.FirewalledRequest;
import org.springframework.security.web.firewall.HttpFirewall;
import org.springframework.security.web.firewall.StrictHttpFirewall;
import org.springframework.util.function.SingletonSupplier;
import org.springframework.web.servlet.function.RequestPredicates;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.servlet.function.ServerResponse;

import dev.dynamorelay.access.Access;
import dev.dynamorelay.declaration.Declarations;
import dev.dynamorelay.error.Problems;
import dev.dynamorelay.pagination.PageSizes;
import dev.dynamorelay.pagination.ReadBudgets;

/**
 * The REST view's routes: one {@code GET} per declared connection ({@link RestRoutes} says which path),
 * {@code /api/openapi.json}, and a problem for every other path or method under {@code /api/}.
 */
@Configuration(proxyBeanMethods = false)
class RestConfiguration {

	static final String OPENAPI = "/api/openapi.json";

	private static final Logger logger = LoggerFactory.getLogger(RestConfiguration.class);

	/**
	 * Key values may hold {@code /} and {@code %}: in a path segment they are {@code %2F} and {@code %25},
	 * which Tomcat refuses (400, an HTML page) unless it passes them through undecoded, leaving each
	 * segment whole for the routes to decode.
	 */
	@Bean
	TomcatConnectorCustomizer encodedSlashesPassThrough() {
		return (connector) -> connector.setEncodedSolidusHandling(EncodedSolidusHandling.PASS_THROUGH.getValue());
	}

	/**
	 * Spring Security's firewall as it is, except under {@code /api/}, where an encoded {@code /} or
	 * {@code %} is part of a key value. Authorization never depends on the path here (the schema's rules
	 * decide), and paths that are not normalized stay refused everywhere.
	 */
	@Bean
	HttpFirewall httpFirewall() {
		StrictHttpFirewall strict = new StrictHttpFirewall();
		StrictHttpFirewall keys = new StrictHttpFirewall();
		keys.setAllowUrlEncodedSlash(true);
		keys.setAllowUrlEncodedPercent(true);
		return new HttpFirewall() {

			@Override
			public FirewalledRequest getFirewalledRequest(HttpServletRequest request) {
				return (Problems.restPath(request.getRequestURI()) ? keys : strict).getFirewalledRequest(request);
			}

			@Override
			public HttpServletResponse getFirewalledResponse(HttpServletResponse response) {
				return strict.getFirewalledResponse(response);
			}

		};
	}

	@Bean
	RouterFunction<ServerResponse> restRoutes(WebGraphQlHandler graphQlHandler, GraphQlSource graphQlSource,
			Declarations declarations, PageSizes pages, ReadBudgets budgets, Access access) {
		RestRoutes routes = RestRoutes.of(declarations, graphQlSource.schema());
		routes.skipped().forEach((field, reason) -> logger.warn("{} has no REST path: {}", field, reason));
		int defaultSize = pages.defaultSize();
		int maxSize = pages.maxSize();
		// As many budget-cut reads as a GraphQL request's budget holds pages of its own.
		int followUps = (int) Math.max(1, budgets.requestItems() / budgets.readItems());
		RestView view = new RestView(graphQlHandler, routes, (defaultSize > 0) ? defaultSize : maxSize, maxSize,
				followUps);
		OpenAPI document = OpenApi.document(routes, declarations, graphQlSource.schema(),
				(defaultSize > 0) ? defaultSize : maxSize, maxSize, access.enforced());
		// Written at its first request, not at start: swagger-core's mapper takes a second or two to make.
		SingletonSupplier<byte[]> openApi = SingletonSupplier.of(() -> OpenApi.json(document));
		RouterFunctions.Builder builder = RouterFunctions.route()
			.GET(OPENAPI, (request) -> ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).body(openApi.obtain()))
			.HEAD(OPENAPI, (request) -> ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).body(openApi.obtain()))
			.OPTIONS(OPENAPI, (request) -> ServerResponse.ok().allow(HttpMethod.GET, HttpMethod.HEAD).build());
		for (RestRoute route : routes.routes()) {
			builder.GET(route.path(), (request) -> view.page(route, request));
			builder.HEAD(route.path(), (request) -> view.page(route, request));
			builder.OPTIONS(route.path(), (request) -> ServerResponse.ok().allow(HttpMethod.GET, HttpMethod.HEAD).build());
		}
		logger.info("REST view: {} connection paths under /api/, described at {}", routes.routes().size(), OPENAPI);
		return builder.route(RequestPredicates.path("/api").or(RequestPredicates.path("/api/**")), view::unrouted)
			.build();
	}

}
