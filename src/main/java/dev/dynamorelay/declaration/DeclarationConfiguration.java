package dev.dynamorelay.declaration;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.graphql.autoconfigure.GraphQlSourceBuilderCustomizer;
import org.springframework.context.EnvironmentAware;
import org.springframework.context.ResourceLoaderAware;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.PriorityOrdered;
import org.springframework.core.env.Environment;
import org.springframework.core.io.ResourceLoader;
import org.springframework.core.io.support.ResourcePatternUtils;

import dev.dynamorelay.schema.ParsedSchema;
import dev.dynamorelay.schema.SchemaProperties;

/**
 * Reads the configured schema files once, the declarations from them, and serves them.
 *
 * <p>They are read while the context's bean definitions are post-processed, before any bean is made: a mistake is
 * reported (by Spring Boot's failure analysis, as every failed start is) before the web server, the embedded engine
 * and DynamoDB's client exist, seconds sooner than a bean among them could report it. The result is registered as
 * the beans {@link DeclaredSchema}, {@link ParsedSchema}, {@link dev.dynamorelay.schema.SchemaFiles} and
 * {@link Declarations}, which the rest of the context is made from.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({ SchemaProperties.class, TablesProperties.class })
public class DeclarationConfiguration {

	private static final Logger logger = LoggerFactory.getLogger(DeclarationConfiguration.class);

	/**
	 * Static: made and run before this class's other beans and the context's singletons. Its declared type says it is
	 * {@link PriorityOrdered}, which the context tells from the type alone, before making it.
	 */
	@Bean
	static Reading declaredSchemaRead() {
		return new Reading();
	}

	/**
	 * Spring GraphQL serves the one parsed schema. Its builder still reads the declaration language's file
	 * (spring.graphql.schema.locations: it wants at least one), and that registry is set aside.
	 */
	@Bean
	GraphQlSourceBuilderCustomizer parsedSchemaServed(ParsedSchema schema) {
		return (builder) -> builder.schemaFactory((ignored, wiring) -> schema.executable(wiring));
	}

	/**
	 * Reads the schema when the bean factory is post-processed, first among the post-processors that are not
	 * registry post-processors (the bean definitions are all known then, no singleton of the context made).
	 */
	static final class Reading implements BeanFactoryPostProcessor, EnvironmentAware, ResourceLoaderAware, PriorityOrdered {

		private Environment environment;

		private ResourceLoader resources;

		@Override
		public void setEnvironment(Environment environment) {
			this.environment = environment;
		}

		@Override
		public void setResourceLoader(ResourceLoader resources) {
			this.resources = resources;
		}

		@Override
		public int getOrder() {
			return HIGHEST_PRECEDENCE;
		}

		@Override
		public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
			DeclaredSchema read = DeclaredSchema.read(this.environment,
					ResourcePatternUtils.getResourcePatternResolver(this.resources));
			Declarations declarations = read.declarations();
			logger.info("Serving {} declared types in {} tables from {}", declarations.entities().size(),
					declarations.tables().size(), read.schema().files().files().keySet());
			beanFactory.registerSingleton("declaredSchema", read);
			beanFactory.registerSingleton("schemaFiles", read.schema().files());
			beanFactory.registerSingleton("parsedSchema", read.schema());
			beanFactory.registerSingleton("declarations", declarations);
		}

	}

}
