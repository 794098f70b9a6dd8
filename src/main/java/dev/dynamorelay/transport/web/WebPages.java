package dev.dynamorelay.transport.web;

import org.springframework.boot.graphql.autoconfigure.GraphQlProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.Resource;
import org.springframework.graphql.execution.GraphQlSource;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.config.annotation.ViewControllerRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;
import org.springframework.web.servlet.function.RequestPredicates;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;

import dev.dynamorelay.declaration.Declarations;
import dev.dynamorelay.error.ErrorCode;
import dev.dynamorelay.metrics.AnsweredErrors;

/**
 * Serves the pages built from {@code web/}: at {@code /} the sample's purchases page when the sample schema is
 * served, else the page that lists and pages through the served schema's root connections; GraphiQL at
 * {@code /graphiql}; and the description of the served connections both read ({@link ServedConnections}).
 */
@Configuration(proxyBeanMethods = false)
class WebPages implements WebMvcConfigurer {

	/** Where the pages read the served connections from. */
	static final String DESCRIPTION = "/pages/connections.json";

	/** The sample's purchases page (web/purchases.html). */
	private static final Resource PURCHASES = new ClassPathResource("static/purchases.html");

	/** The page of any schema's connections (web/connections.html). */
	private static final Resource CONNECTIONS = new ClassPathResource("static/connections.html");

	@Override
	public void addViewControllers(ViewControllerRegistry registry) {
		registry.addViewController("/graphiql").setViewName("forward:/graphiql/index.html");
		registry.addViewController("/graphiql/").setViewName("forward:/graphiql/index.html");
	}

	/**
	 * {@code /} and the description. The description follows introspection: with
	 * {@code spring.graphql.schema.introspection.enabled=false} it is not served (404), since it tells what
	 * introspection would.
	 */
	@Bean
	RouterFunction<ServerResponse> webPageRoutes(GraphQlSource graphQlSource, Declarations declarations,
			GraphQlProperties graphQl) {
		ServedConnections served = ServedConnections.of(graphQlSource.schema(), declarations);
		Resource home = served.sample() ? PURCHASES : CONNECTIONS;
		RouterFunctions.Builder routes = RouterFunctions.route()
			.GET("/", (request) -> page(home))
			.HEAD("/", (request) -> page(home))
			.OPTIONS("/", WebPages::options)
			.route(RequestPredicates.path("/"), WebPages::otherMethod);
		if (graphQl.getSchema().getIntrospection().isEnabled()) {
			routes.GET(DESCRIPTION, (request) -> description(served))
				.HEAD(DESCRIPTION, (request) -> description(served))
				.OPTIONS(DESCRIPTION, WebPages::options)
				.route(RequestPredicates.path(DESCRIPTION), WebPages::otherMethod);
		}
		return routes.build();
	}

	private static ServerResponse description(ServedConnections served) {
		return ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).cacheControl(CacheControl.noCache()).body(served);
	}

	private static ServerResponse options(ServerRequest request) {
		return ServerResponse.ok().allow(HttpMethod.GET, HttpMethod.HEAD).build();
	}

	/** 405 with the methods the path takes, in the shape and with the code of every other refusal. */
	private static ServerResponse otherMethod(ServerRequest request) {
		String path = request.path();
		ErrorCode code = ErrorCode.INVALID_ARGUMENT;
		AnsweredErrors.count(code);
		return ServerResponse.status(HttpStatus.METHOD_NOT_ALLOWED)
			.allow(HttpMethod.GET, HttpMethod.HEAD)
			.contentType(ErrorResponses.contentType(path))
			.body(ErrorResponses.body(path, HttpStatus.METHOD_NOT_ALLOWED, code,
					"%s is not served; `%s` takes GET, HEAD.".formatted(request.method().name(), path)));
	}

	private static ServerResponse page(Resource page) {
		return ServerResponse.ok().contentType(MediaType.TEXT_HTML).cacheControl(CacheControl.noCache()).body(page);
	}

}
