package dev.dynamorelay.web;

import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.config.annotation.ViewControllerRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/** Serves GraphiQL at {@code /graphiql} from the bundled {@code static/graphiql/index.html}. */
@Configuration(proxyBeanMethods = false)
class WebPages implements WebMvcConfigurer {

	@Override
	public void addViewControllers(ViewControllerRegistry registry) {
		registry.addViewController("/graphiql").setViewName("forward:/graphiql/index.html");
		registry.addViewController("/graphiql/").setViewName("forward:/graphiql/index.html");
	}

}
