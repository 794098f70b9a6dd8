package dev.dynamorelay.declaration;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Consumer;

import graphql.schema.idl.TypeDefinitionRegistry;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

import dev.dynamorelay.schema.DeclarationException;
import dev.dynamorelay.schema.Location;
import dev.dynamorelay.schema.Problem;
import dev.dynamorelay.schema.SchemaFiles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.fail;

/**
 * A schema file with mistakes, under {@code src/test/resources/mistakes/}, and the problems the start must
 * report for it. The file's first lines are comments that say which:
 *
 * <pre>
 * # expect: `Query.users` is a `@lookup` of one item
 * # and: return the type, not a list
 * # line: 12
 * # column: 3
 * </pre>
 *
 * Each {@code # expect:} is one problem, with a fragment of its message; {@code # and:} adds a fragment to it,
 * {@code # line:} the line of this file it is reported at (the file is then checked too), {@code # column:} its
 * column on that line (what is wrong: a directive's {@code @}, an argument, a value). The problems
 * reported are exactly those expected, in the order of their lines and columns (problems at one place in the
 * order reported). In a fragment, {@code {file}} stands for the name this file's problems are reported under. An
 * optional {@code # report: ...} is how the whole report starts. Any other comment line ends the header
 * with a failure, so that a misspelt expectation cannot pass unchecked.
 *
 * @param folder the folder under {@code mistakes/}
 * @param name the file's name in the folder
 * @param expected the problems expected, in order
 * @param report how the report starts, if the file says
 */
public record MistakeFile(String folder, String name, List<Expected> expected, Optional<String> report) {

	/** Reads the declarations of a schema, as a start does before anything else. */
	public static final Consumer<TypeDefinitionRegistry> DECLARATIONS = (registry) -> DeclarationReader
		.read(registry, "");

	private static final PathMatchingResourcePatternResolver RESOLVER = new PathMatchingResourcePatternResolver();

	/**
	 * One problem expected.
	 *
	 * @param fragments parts its message contains
	 * @param line the line it is reported at, if the file says
	 * @param column the column it is reported at, if the file says
	 */
	public record Expected(List<String> fragments, OptionalInt line, OptionalInt column) {
	}

	/** The names of the schema files in {@code mistakes/folder}, for a {@code @MethodSource}. */
	public static List<String> in(String folder) {
		try {
			return Arrays.stream(RESOLVER.getResources(location(folder, "*.graphqls")))
				.map(Resource::getFilename)
				.sorted()
				.toList();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** The file {@code name} of {@code mistakes/folder} with the problems its header expects. */
	public static MistakeFile read(String folder, String name) {
		String text;
		try {
			text = RESOLVER.getResource(location(folder, name)).getContentAsString(StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		List<Expected> expected = new ArrayList<>();
		List<String> fragments = null;
		OptionalInt line = OptionalInt.empty();
		OptionalInt column = OptionalInt.empty();
		Optional<String> report = Optional.empty();
		for (String header : text.lines().takeWhile((each) -> each.startsWith("#")).toList()) {
			int colon = header.indexOf(": ");
			String key = (colon > 0) ? header.substring(0, colon) : header;
			String value = (colon > 0) ? header.substring(colon + 2) : "";
			switch (key) {
				case "# expect" -> {
					if (fragments != null) {
						expected.add(new Expected(fragments, line, column));
					}
					fragments = new ArrayList<>(List.of(value));
					line = OptionalInt.empty();
					column = OptionalInt.empty();
				}
				case "# and" -> {
					assertThat(fragments).as("%s: `# and:` before any `# expect:`", name).isNotNull();
					fragments.add(value);
				}
				case "# line" -> {
					assertThat(fragments).as("%s: `# line:` before any `# expect:`", name).isNotNull();
					assertThat(line).as("%s: two `# line:` for one `# expect:`", name).isEmpty();
					line = OptionalInt.of(Integer.parseInt(value));
				}
				case "# column" -> {
					assertThat(line).as("%s: `# column:` before its `# line:`", name).isPresent();
					assertThat(column).as("%s: two `# column:` for one `# expect:`", name).isEmpty();
					column = OptionalInt.of(Integer.parseInt(value));
				}
				case "# report" -> report = Optional.of(value);
				default -> fail("%s: `%s` is none of `# expect:`, `# and:`, `# line:`, `# column:` and `# report:`", name, header);
			}
		}
		assertThat(fragments).as("%s begins with no `# expect:`", name).isNotNull();
		expected.add(new Expected(fragments, line, column));
		return new MistakeFile(folder, name, List.copyOf(expected), report);
	}

	/** Asserts that {@code reader}, given this file as the schema, reports exactly the problems expected. */
	public void assertReportedBy(Consumer<TypeDefinitionRegistry> reader) {
		SchemaFiles files = SchemaFiles.resolve(location(this.folder, this.name), RESOLVER);
		String file = files.files().keySet().iterator().next();
		DeclarationException failure = catchThrowableOfType(DeclarationException.class,
				() -> reader.accept(files.parse()));
		assertThat(failure).as("%s is read without a problem", file).isNotNull();
		List<Problem> problems = failure.problems()
			.stream()
			.sorted(Comparator.comparing((Problem problem) -> problem.location().file())
				.thenComparingInt((problem) -> problem.location().line())
				.thenComparingInt((problem) -> problem.location().column()))
			.toList();
		assertThat(problems).as("the problems of %s, as reported:%n%s", file, failure.getMessage())
			.hasSameSizeAs(this.expected);
		for (int i = 0; i < problems.size(); i++) {
			Problem problem = problems.get(i);
			Expected expected = this.expected.get(i);
			if (expected.line().isPresent()) {
				int line = expected.line().getAsInt();
				assertThat(problem.location().file()).as("where: %s", problem).isEqualTo(file);
				assertThat(problem.location().line()).as("where: %s", problem).isEqualTo(line);
				assertThat(problem.toString()).startsWith(file + ":" + line + ":");
			}
			if (expected.column().isPresent()) {
				int column = expected.column().getAsInt();
				assertThat(problem.location()).as("where: %s", problem)
					.isEqualTo(new Location(file, expected.line().getAsInt(), column));
				assertThat(problem.toString()).startsWith(file + ":" + expected.line().getAsInt() + ":" + column + ": ");
			}
			String[] fragments = expected.fragments()
				.stream()
				.map((each) -> each.replace("{file}", file))
				.toArray(String[]::new);
			assertThat(problem.message()).as("what: %s", problem).contains(fragments);
			assertThat(failure.getMessage()).contains("\n  " + problem);
		}
		this.report.ifPresent((start) -> assertThat(failure.getMessage()).startsWith(start + "\n"));
	}

	private static String location(String folder, String name) {
		return "classpath:mistakes/" + folder + "/" + name;
	}

}
