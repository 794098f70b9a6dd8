package dev.dynamorelay.web;

import org.springframework.boot.graphql.autoconfigure.GraphQlProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.Resource;
import org.springframework.graphql.execution.GraphQlSource;
import org.springframework.http.CacheControl;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.config.annotation.ViewControllerRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.servlet.function.ServerResponse;

import dev.dynamorelay.declaration.Declarations;

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
			.HEAD("/", (request) -> page(home));
		if (graphQl.getSchema().getIntrospection().isEnabled()) {
			routes.GET(DESCRIPTION, (request) -> ServerResponse.ok()
				.contentType(MediaType.APPLICATION_JSON)
				.cacheControl(CacheControl.noCache())
				.body(served));
		}
		return routes.build();
	}

	private static ServerResponse page(Resource page) {
		return ServerResponse.ok().contentType(MediaType.TEXT_HTML).cacheControl(CacheControl.noCache()).body(page);
	}

}
