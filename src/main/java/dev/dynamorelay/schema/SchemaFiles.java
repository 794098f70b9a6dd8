package dev.dynamorelay.schema;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import graphql.GraphQLError;
import graphql.language.Document;
import graphql.language.SourceLocation;
import graphql.parser.InvalidSyntaxException;
import graphql.parser.MultiSourceReader;
import graphql.parser.Parser;
import graphql.parser.ParserEnvironment;
import graphql.parser.ParserOptions;
import graphql.schema.idl.SchemaParser;
import graphql.schema.idl.TypeDefinitionRegistry;
import graphql.schema.idl.UnExecutableSchemaGenerator;
import graphql.schema.idl.errors.SchemaProblem;
import graphql.schema.validation.InvalidSchemaException;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.ResourcePatternResolver;

import dev.dynamorelay.schema.Problem.InvalidSchema;
import dev.dynamorelay.schema.Problem.UnreadableFiles;
import dev.dynamorelay.schema.Problem;

/**
 * The schema files a server serves: the declaration language's own file and the configured files
 * (or every {@code .graphqls}/{@code .gqls} file under a configured folder), each with the name its
 * problems are reported under.
 *
 * @param language the declaration language's file, always served
 * @param files the configured schema files by the name problems are reported under
 */
public record SchemaFiles(Resource language, Map<String, Resource> files) {

	/** Where the declaration language's file is on the classpath. */
	public static final String LANGUAGE = "classpath:graphql/dynamo-relay.graphqls";

	public SchemaFiles {
		files = new LinkedHashMap<>(files);
	}

	/**
	 * The files of comma-separated {@code locations}: Spring resource locations ({@code file:},
	 * {@code classpath:}) or plain paths, each a file or a folder.
	 * @throws DeclarationException when a location holds no schema file
	 */
	public static SchemaFiles resolve(String locations, ResourcePatternResolver resolver) {
		Map<String, Resource> files = new LinkedHashMap<>();
		List<Problem> problems = new ArrayList<>();
		for (String raw : locations.split(",")) {
			String location = raw.trim();
			if (location.isEmpty()) {
				continue;
			}
			String spring = location.contains(":") && !location.matches("^[A-Za-z]:[\\\\/].*") ? location
					: "file:" + location;
			List<Resource> found = new ArrayList<>();
			try {
				if (spring.endsWith(".graphqls") || spring.endsWith(".gqls")) {
					Resource single = resolver.getResource(spring);
					if (single.exists()) {
						found.add(single);
					}
				}
				else {
					String folder = spring.endsWith("/") ? spring : spring + "/";
					for (String extension : List.of("graphqls", "gqls")) {
						found.addAll(Arrays.asList(resolver.getResources(folder + "**/*." + extension)));
					}
				}
			}
			catch (IOException ex) {
				problems.add(new UnreadableFiles(new Location(location, 0), "cannot be read: " + ex.getMessage()));
				continue;
			}
			found.sort(Comparator.comparing(SchemaFiles::describe));
			if (found.isEmpty()) {
				problems.add(new UnreadableFiles(new Location(location, 0), ("holds no schema file (.graphqls or .gqls): check "
						+ "dynamo-relay.schema.locations.")));
			}
			found.forEach((resource) -> files.putIfAbsent(describe(resource), resource));
		}
		if (!problems.isEmpty()) {
			throw new DeclarationException("The schema files cannot be found", problems);
		}
		return new SchemaFiles(resolver.getResource(LANGUAGE), files);
	}

	/** Every file to serve, the language's first. */
	public List<Resource> resources() {
		List<Resource> resources = new ArrayList<>();
		resources.add(this.language);
		resources.addAll(this.files.values());
		return resources;
	}

	/**
	 * The merged schema with generated Connection types, checked as graphql-java checks a schema.
	 * @throws DeclarationException listing every syntax and schema error with its file, line and column: a syntax
	 * error says what was expected and what was found, an undefined directive, argument or type the defined
	 * name it is closest to
	 */
	public TypeDefinitionRegistry parse() {
		TypeDefinitionRegistry registry = new TypeDefinitionRegistry();
		List<Problem> problems = new ArrayList<>();
		Map<String, Resource> all = new LinkedHashMap<>();
		all.put("dynamo-relay.graphqls", this.language);
		all.putAll(this.files);
		List<Document> documents = new ArrayList<>();
		for (Map.Entry<String, Resource> file : all.entrySet()) {
			String text = null;
			try {
				text = file.getValue().getContentAsString(StandardCharsets.UTF_8);
				// Parsed as graphql-java's SchemaParser parses, with the parser's own exception, which says where a
				// syntax error is and what was found there.
				Document document = Parser.parse(ParserEnvironment.newParserEnvironment()
					.document(MultiSourceReader.newMultiSourceReader().string(text, file.getKey()).build())
					.parserOptions(ParserOptions.getDefaultSdlParserOptions())
					.build());
				documents.add(document);
				registry.merge(new SchemaParser().buildRegistry(document));
			}
			catch (InvalidSyntaxException syntax) {
				problems.add(SyntaxProblems.of(syntax, text, file.getKey()));
			}
			catch (SchemaProblem problem) {
				problems.addAll(problems(problem, file.getKey(), List.of()));
			}
			catch (IOException ex) {
				problems.add(new UnreadableFiles(new Location(file.getKey(), 0), "cannot be read: " + ex.getMessage()));
			}
		}
		if (problems.isEmpty()) {
			new GeneratedConnections().configure(registry);
			List<Problem> names = SchemaNames.check(registry, documents);
			problems.addAll(names);
			try {
				UnExecutableSchemaGenerator.makeUnExecutableSchema(registry);
			}
			catch (SchemaProblem problem) {
				problems.addAll(problems(problem, "(schema)", names));
			}
			catch (InvalidSchemaException invalid) {
				// Checks of the built schema (a non-repeatable directive applied twice, e.g. once in an `extend`).
				invalid.getMessage().lines()
					.filter((line) -> !line.isBlank() && !line.startsWith("invalid schema:"))
					.forEach((line) -> problems.add(new InvalidSchema(new Location("(schema)", 0), line.strip())));
			}
		}
		if (!problems.isEmpty()) {
			throw new DeclarationException("The schema files are not a valid GraphQL schema", problems);
		}
		return registry;
	}

	/**
	 * graphql-java's problems, but those of a kind {@link SchemaNames} reports better when it has reported
	 * {@code names}.
	 */
	private static List<Problem> problems(SchemaProblem problem, String file, List<Problem> names) {
		List<Problem> problems = new ArrayList<>();
		for (GraphQLError error : problem.getErrors()) {
			if (!names.isEmpty() && SchemaNames.replaces(error)) {
				continue;
			}
			List<SourceLocation> locations = error.getLocations();
			SourceLocation at = (locations != null && !locations.isEmpty()) ? locations.get(0) : null;
			Location location = (at != null)
					? new Location((at.getSourceName() != null) ? at.getSourceName() : file, at.getLine(),
							Math.max(at.getColumn(), 0))
					: new Location(file, 0);
			problems.add(new InvalidSchema(location, error.getMessage()));
		}
		return problems;
	}

	/** A file's name in reports: its path relative to the working folder, or its classpath path. */
	private static String describe(Resource resource) {
		try {
			if (resource.isFile()) {
				Path path = resource.getFile().toPath().toAbsolutePath().normalize();
				Path here = Path.of("").toAbsolutePath();
				return path.startsWith(here) ? here.relativize(path).toString() : path.toString();
			}
			String url = resource.getURL().toString();
			int classes = url.lastIndexOf("!/");
			return (classes >= 0) ? url.substring(classes + 2) : url;
		}
		catch (IOException ex) {
			return resource.getDescription();
		}
	}

}
