package dev.dynamorelay.declaration;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.graphql.autoconfigure.GraphQlSourceBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.support.ResourcePatternResolver;

import dev.dynamorelay.schema.ParsedSchema;
import dev.dynamorelay.schema.SchemaFiles;
import dev.dynamorelay.schema.SchemaProperties;

/**
 * Reads the configured schema files once, the declarations from them, and serves them.
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
	ParsedSchema parsedSchema(SchemaFiles files) {
		return ParsedSchema.parse(files);
	}

	@Bean
	Declarations declarations(ParsedSchema schema, TablesProperties tables) {
		Declarations declarations = DeclarationReader.read(schema.registry(), tables.prefix());
		logger.info("Serving {} declared types in {} tables from {}", declarations.entities().size(),
				declarations.tables().size(), schema.files().files().keySet());
		return declarations;
	}

	/**
	 * Spring GraphQL serves the one parsed schema. Its builder still reads the declaration language's file
	 * (spring.graphql.schema.locations: it wants at least one), and that registry is set aside.
	 */
	@Bean
	GraphQlSourceBuilderCustomizer parsedSchemaServed(ParsedSchema schema) {
		return (builder) -> builder.schemaFactory((ignored, wiring) -> schema.executable(wiring));
	}

}
