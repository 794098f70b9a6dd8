package dev.dynamorelay.declaration;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;
import org.springframework.core.io.support.ResourcePatternResolver;

import dev.dynamorelay.schema.DeclarationException;
import dev.dynamorelay.schema.ParsedSchema;
import dev.dynamorelay.schema.SchemaFiles;
import dev.dynamorelay.schema.SchemaProperties;

/**
 * The configured schema files read once, as far as they can be read without DynamoDB: found, parsed and their
 * declarations checked. What a start serves (read before its web server, engine and DynamoDB client are made)
 * and what a check prints.
 *
 * @param schema the files, parsed into one registry
 * @param declarations the declarations read from it, with table names under the configured prefix
 */
public record DeclaredSchema(ParsedSchema schema, Declarations declarations) {

	/**
	 * The schema files of {@code environment}'s {@code dynamo-relay.schema.locations} (the sample when unset), with
	 * table names under its {@code dynamo-relay.tables.prefix}: the properties bound as
	 * {@link SchemaProperties} and {@link TablesProperties} bind them, before any bean exists.
	 * @throws DeclarationException listing every problem found: files not found, syntax and schema errors, or
	 * declarations that cannot be served
	 */
	public static DeclaredSchema read(Environment environment, ResourcePatternResolver resolver) {
		Binder binder = Binder.get(environment);
		SchemaProperties schema = binder.bindOrCreate("dynamo-relay.schema", SchemaProperties.class);
		TablesProperties tables = binder.bindOrCreate("dynamo-relay.tables", TablesProperties.class);
		return read(schema.locations(), tables.prefix(), resolver);
	}

	/**
	 * The schema files of comma-separated {@code locations} (as {@link SchemaFiles#resolve} finds them), with
	 * table names under {@code prefix}.
	 * @throws DeclarationException listing every problem found
	 */
	public static DeclaredSchema read(String locations, String prefix, ResourcePatternResolver resolver) {
		ParsedSchema schema = ParsedSchema.parse(SchemaFiles.resolve(locations, resolver));
		return new DeclaredSchema(schema, DeclarationReader.read(schema.registry(), prefix));
	}

}
