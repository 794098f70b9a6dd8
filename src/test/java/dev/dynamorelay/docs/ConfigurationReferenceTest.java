package dev.dynamorelay.docs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import dev.dynamorelay.docs.ConfigurationMetadata.Property;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.fail;

/**
 * The table of {@code dynamo-relay.*} properties in {@code docs/configuration.md} is the configuration
 * metadata's (see {@link ConfigurationMetadata}): one row per property with its type, default and
 * description, between the page's generated-section markers. The rest of the page is written by hand.
 *
 * <p>After changing a property, regenerate the table rather than editing it:
 * <pre>
 * mvn test -Dtest=ConfigurationReferenceTest -Ddocs.write=true
 * </pre>
 * which writes the page and passes; without {@code docs.write} a table that differs fails, with the rows
 * that differ.
 */
class ConfigurationReferenceTest {

	static final String PAGE = "docs/configuration.md";

	static final String BEGIN = "<!-- BEGIN GENERATED";

	static final String END = "<!-- END GENERATED -->";

	static final String REGENERATE = "mvn test -Dtest=ConfigurationReferenceTest -Ddocs.write=true";

	private static final Pattern INLINE_TAG = Pattern.compile("\\{@(code|literal|link|linkplain)\\s+([^}]*)}");

	/** Types as the table names them; any other is shown as its Java type without packages. */
	private static final Map<String, String> TYPES = Map.of("java.lang.String", "string", "java.lang.Integer",
			"integer", "java.lang.Long", "integer", "java.lang.Boolean", "boolean", "java.time.Duration", "duration",
			"org.springframework.util.unit.DataSize", "data size", "java.util.List<java.lang.String>", "list of strings");

	@Test
	void thePropertyTableIsTheMetadatas() throws IOException {
		Path page = projectRoot().resolve(PAGE);
		String text = Files.readString(page, StandardCharsets.UTF_8);
		String generated = withTable(text, table(ConfigurationMetadata.properties()));
		if (generated.equals(text)) {
			return;
		}
		if (Boolean.getBoolean("docs.write")) {
			Files.writeString(page, generated, StandardCharsets.UTF_8);
			System.out.println("Wrote the property table of " + page);
			return;
		}
		fail("The property table of %s is not the configuration metadata's. Regenerate it with%n  %s%n"
				+ "(edit a description in its property's @param tag, not in the page).%n%s", PAGE, REGENERATE,
				difference(section(text), section(generated)));
	}

	@Test
	void aRowSaysWhatTheMetadataSays() {
		List<Property> properties = List.of(
				new Property("dynamo-relay.a.timeout", "java.time.Duration", "5s",
						"how long {@code x|y} may\n take; see {@link Other}"),
				new Property("dynamo-relay.a.prefix", "java.lang.String", "", "prepended"),
				new Property("dynamo-relay.a.enabled", "java.lang.Boolean", true, "whether"),
				new Property("dynamo-relay.a.secrets", "java.util.List<java.lang.String>", null, "unset: none"),
				new Property("dynamo-relay.a.map", "java.util.Map<java.lang.String,java.lang.Integer>", null, "odd"));
		assertThat(table(properties)).containsExactly("| property | type | default | description |", "|---|---|---|---|",
				"| `dynamo-relay.a.timeout` | duration | `5s` | how long `x\\|y` may take; see Other |",
				"| `dynamo-relay.a.prefix` | string | empty | prepended |",
				"| `dynamo-relay.a.enabled` | boolean | `true` | whether |",
				"| `dynamo-relay.a.secrets` | list of strings | unset | unset: none |",
				"| `dynamo-relay.a.map` | `Map<String,Integer>` | unset | odd |");
	}

	@Test
	void theTableGoesBetweenTheMarkersOnly() {
		String page = "# Title\n\nintro\n\n" + BEGIN + " note -->\nold row\n" + END + "\n\nafter\n";
		assertThat(withTable(page, List.of("new row", "another"))).isEqualTo(
				"# Title\n\nintro\n\n" + BEGIN + " note -->\nnew row\nanother\n" + END + "\n\nafter\n");
		assertThatIllegalStateException().isThrownBy(() -> withTable("# Title\n", List.of("row")))
			.withMessageContaining(BEGIN);
	}

	/** The table's lines: a header, then one row per property. */
	static List<String> table(List<Property> properties) {
		List<String> lines = new ArrayList<>();
		lines.add("| property | type | default | description |");
		lines.add("|---|---|---|---|");
		for (Property property : properties) {
			lines.add("| `%s` | %s | %s | %s |".formatted(property.name(), type(property.type()),
					defaultValue(property.defaultValue()), cell(property.description())));
		}
		return lines;
	}

	private static String type(String type) {
		return (type == null) ? "" : TYPES.getOrDefault(type, "`" + type.replaceAll("\\b[a-z][\\w]*\\.", "") + "`");
	}

	private static String defaultValue(Object value) {
		if (value == null) {
			return "unset";
		}
		if (value instanceof List<?> list) {
			return list.isEmpty() ? "empty" : "`" + list.stream().map(String::valueOf).collect(Collectors.joining(",")) + "`";
		}
		return value.toString().isEmpty() ? "empty" : "`" + value + "`";
	}

	/** Javadoc's inline tags as Markdown, on one line, with the table's separator escaped. */
	private static String cell(String description) {
		String text = (description == null) ? "" : description.strip().replaceAll("\\s+", " ");
		Matcher tag = INLINE_TAG.matcher(text);
		StringBuilder markdown = new StringBuilder();
		while (tag.find()) {
			String content = tag.group(2).strip();
			String shown = tag.group(1).startsWith("link") ? content.substring(content.indexOf(' ') + 1).strip()
					: "`" + content + "`";
			tag.appendReplacement(markdown, Matcher.quoteReplacement(shown));
		}
		tag.appendTail(markdown);
		return markdown.toString().replace("|", "\\|");
	}

	/** The page with the lines between its markers replaced by these. */
	static String withTable(String page, List<String> table) {
		List<String> lines = Arrays.asList(page.split("\n", -1));
		int begin = indexOf(lines, BEGIN, 0);
		int end = indexOf(lines, END, begin + 1);
		List<String> result = new ArrayList<>(lines.subList(0, begin + 1));
		result.addAll(table);
		result.addAll(lines.subList(end, lines.size()));
		return String.join("\n", result);
	}

	private static int indexOf(List<String> lines, String marker, int from) {
		for (int i = from; i < lines.size(); i++) {
			if (lines.get(i).startsWith(marker)) {
				return i;
			}
		}
		throw new IllegalStateException("%s has no line starting with `%s`%s: the generated table goes between "
				.formatted(PAGE, marker, (from > 0) ? " after the first marker" : "") + BEGIN + " ... --> and " + END);
	}

	private static List<String> section(String page) {
		List<String> lines = Arrays.asList(page.split("\n", -1));
		int begin = indexOf(lines, BEGIN, 0);
		return lines.subList(begin + 1, indexOf(lines, END, begin + 1));
	}

	/** The rows only the page has and those only the metadata has. */
	private static String difference(List<String> page, List<String> metadata) {
		Set<String> inPage = new HashSet<>(page);
		Set<String> inMetadata = new HashSet<>(metadata);
		StringBuilder difference = new StringBuilder();
		page.stream().filter((line) -> !inMetadata.contains(line)).forEach((line) -> difference.append("- page:     ")
			.append(line)
			.append(System.lineSeparator()));
		metadata.stream().filter((line) -> !inPage.contains(line)).forEach((line) -> difference.append("+ metadata: ")
			.append(line)
			.append(System.lineSeparator()));
		return difference.toString();
	}

	private static Path projectRoot() {
		Path dir = Path.of("").toAbsolutePath();
		while (dir != null && !Files.exists(dir.resolve("pom.xml"))) {
			dir = dir.getParent();
		}
		assertThat(dir).as("a folder with pom.xml above %s", Path.of("").toAbsolutePath()).isNotNull();
		return dir;
	}

}
