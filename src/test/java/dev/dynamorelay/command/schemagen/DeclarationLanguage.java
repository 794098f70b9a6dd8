package dev.dynamorelay.command.schemagen;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import graphql.schema.GraphQLSchema;
import graphql.schema.idl.SchemaParser;
import graphql.schema.idl.TypeDefinitionRegistry;
import graphql.schema.idl.UnExecutableSchemaGenerator;
import graphql.schema.idl.errors.SchemaProblem;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

import dev.dynamorelay.declaration.DeclarationReader;
import dev.dynamorelay.declaration.Declarations;
import dev.dynamorelay.schema.SchemaFiles;

/**
 * Builds a generated schema the way the server loads it: together with {@code schema/dynamo-relay.graphqls},
 * so that a redefinition, an unknown type or directive, or a misused directive fails; and reads its
 * declarations as the server does at start (DescribeTable aside), so that a declaration it refuses fails.
 */
final class DeclarationLanguage {

	private DeclarationLanguage() {
	}

	static GraphQLSchema build(String generated) {
		try {
			TypeDefinitionRegistry registry = declarations(Files.readString(Path.of("schema", "dynamo-relay.graphqls")));
			registry.merge(new SchemaParser().parse(generated));
			return UnExecutableSchemaGenerator.makeUnExecutableSchema(registry);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** The declarations of a generated schema, as the server reads them; a problem fails with its message. */
	static Declarations read(String generated) {
		try {
			Path directory = Files.createTempDirectory("generated");
			try {
				Files.writeString(directory.resolve("generated.graphqls"), generated);
				return DeclarationReader.read(SchemaFiles
					.resolve("file:" + directory + "/", new PathMatchingResourcePatternResolver())
					.parse(), "");
			}
			finally {
				Files.deleteIfExists(directory.resolve("generated.graphqls"));
				Files.delete(directory);
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * The declaration language's definitions. The file opens with a block string that describes the file
	 * itself; graphql-java refuses a description followed by another one, so when it does, that first
	 * block string is left out.
	 */
	private static TypeDefinitionRegistry declarations(String sdl) {
		try {
			return new SchemaParser().parse(sdl);
		}
		catch (SchemaProblem problem) {
			if (!sdl.startsWith("\"\"\"")) {
				throw problem;
			}
			return new SchemaParser().parse(sdl.substring(sdl.indexOf("\"\"\"", 3) + 3));
		}
	}

}
