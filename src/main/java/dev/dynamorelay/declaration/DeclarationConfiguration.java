package dev.dynamorelay.declaration;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.graphql.autoconfigure.GraphQlSourceBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.support.ResourcePatternResolver;

import dev.dynamorelay.schema.GeneratedConnections;
import dev.dynamorelay.schema.SchemaFiles;
import dev.dynamorelay.schema.SchemaProperties;

/**
 * Reads the declarations from the configured schema files and serves those files.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({ SchemaProperties.class, TablesProperties.class })
public class DeclarationConfiguration {

	private static final Logger logger = LoggerFactory.getLogger(DeclarationConfiguration.class);

	@Bean
	SchemaFiles schemaFiles(SchemaProperties properties, ResourcePatternResolver resolver) {
		return SchemaFiles.resolve(properties.locations(), resolver);
	}

	@Bean
	Declarations declarations(SchemaFiles files, TablesProperties tables) {
		Declarations declarations = DeclarationReader.read(files.parse(), tables.prefix());
		logger.info("Serving {} declared types in {} tables from {}", declarations.entities().size(),
				declarations.tables().size(), files.files().keySet());
		return declarations;
	}

	/** The configured files join the declaration language's file, which Spring GraphQL loads itself. */
	@Bean
	GraphQlSourceBuilderCustomizer declaredSchemaFiles(SchemaFiles files) {
		return (builder) -> builder
			.schemaResources(files.files().values().toArray(org.springframework.core.io.Resource[]::new))
			.configureTypeDefinitions(new GeneratedConnections());
	}

}
