package dev.dynamorelay.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every relative link of the documentation (README.md, CONTRIBUTING.md, bench/README.md and docs/*.md)
 * names a file or folder that exists, and every {@code #anchor} a heading of its page, by GitHub's rules,
 * so that a page or heading that moves takes its links along.
 */
class DocumentationLinksTest {

	/** {@code [text](target)} and {@code ![alt](target)}, with an optional title after the target. */
	private static final Pattern LINK = Pattern.compile("!?\\[[^\\]]*\\]\\(\\s*<?([^)\\s>]*)>?(?:\\s+\"[^\"]*\")?\\s*\\)");

	/** An inline code span: a run of backticks, anything, the same run again. */
	private static final Pattern CODE_SPAN = Pattern.compile("(`+)(?:(?!\\1).)+?\\1");

	private static final Pattern HEADING = Pattern.compile("^ {0,3}(#{1,6})\\s+(.*?)(?:\\s+#+)?\\s*$");

	private static final Pattern FENCE = Pattern.compile("^ {0,3}(```|~~~)");

	/** Links that leave the repository: not checked here. */
	private static final Pattern EXTERNAL = Pattern.compile("^(?i)(https?|mailto):");

	@Test
	void everyRelativeLinkAndAnchorResolves() {
		Path root = projectRoot();
		List<Path> pages = pages(root);
		assertThat(pages).as("the documentation pages")
			.contains(root.resolve("README.md"), root.resolve("CONTRIBUTING.md"), root.resolve("bench/README.md"));
		List<String> broken = new ArrayList<>();
		for (Path page : pages) {
			broken.addAll(brokenLinks(root, page));
		}
		assertThat(broken).as("links that do not resolve").isEmpty();
	}

	@Test
	void aMissingFileOrHeadingIsReported(@TempDir Path root) throws IOException {
		Files.createDirectories(root.resolve("docs"));
		Files.writeString(root.resolve("README.md"), """
				# Title

				[fine](docs/page.md#the-metrics-cost) [gone](docs/missing.md) [no heading](docs/page.md#nowhere)
				[here](#title) [not here](#elsewhere) [site](https://example.com/x#y) `[code](nowhere.md)`

				```
				[fenced](nowhere.md)
				```
				""");
		Files.writeString(root.resolve("docs/page.md"), "# Page\n\n## The metrics' cost\n\n[back](../README.md#title)\n");
		assertThat(brokenLinks(root, root.resolve("README.md"))).containsExactly(
				"README.md:3: docs/missing.md: no such file", "README.md:3: docs/page.md#nowhere: no heading `nowhere`",
				"README.md:4: #elsewhere: no heading `elsewhere`");
		assertThat(brokenLinks(root, root.resolve("docs/page.md"))).isEmpty();
	}

	@Test
	void anchorsFollowGitHubsRules() {
		assertThat(anchors(List.of("# The metrics' cost", "## Nodes and `nextToken`", "### Start-up against a slow DynamoDB",
				"## Errors", "## Errors", "## snake_case, too!", "```", "# not a heading", "```")))
			.containsExactly("the-metrics-cost", "nodes-and-nexttoken", "start-up-against-a-slow-dynamodb", "errors",
					"errors-1", "snake_case-too");
	}

	/** The page's relative links that do not resolve, each as {@code page:line: target: why}. */
	private static List<String> brokenLinks(Path root, Path page) {
		List<String> lines = lines(page);
		Map<Path, Set<String>> anchors = new HashMap<>();
		List<String> broken = new ArrayList<>();
		String name = root.relativize(page).toString().replace('\\', '/');
		boolean fenced = false;
		for (int i = 0; i < lines.size(); i++) {
			String line = lines.get(i);
			if (FENCE.matcher(line).find()) {
				fenced = !fenced;
				continue;
			}
			if (fenced) {
				continue;
			}
			Matcher link = LINK.matcher(CODE_SPAN.matcher(line).replaceAll(""));
			while (link.find()) {
				String target = link.group(1);
				if (target.isEmpty() || EXTERNAL.matcher(target).find()) {
					continue;
				}
				int hash = target.indexOf('#');
				String path = (hash < 0) ? target : target.substring(0, hash);
				Path file = path.isEmpty() ? page
						: page.getParent().resolve(URLDecoder.decode(path, StandardCharsets.UTF_8)).normalize();
				String where = name + ":" + (i + 1) + ": " + target + ": ";
				if (!file.startsWith(root) || !Files.exists(file)) {
					broken.add(where + "no such file");
					continue;
				}
				if (hash < 0) {
					continue;
				}
				String anchor = target.substring(hash + 1);
				if (!Files.isRegularFile(file) || !file.getFileName().toString().endsWith(".md")) {
					broken.add(where + "an anchor into a file that is no Markdown page");
				}
				else if (!anchors.computeIfAbsent(file, (markdown) -> anchors(lines(markdown))).contains(anchor)) {
					broken.add(where + "no heading `" + anchor + "`");
				}
			}
		}
		return broken;
	}

	/**
	 * The anchors GitHub gives a page's headings: the heading's text lowercased, punctuation other than
	 * {@code -} and {@code _} dropped, spaces made {@code -}; a repeated anchor gets {@code -1}, {@code -2}, ...
	 */
	private static Set<String> anchors(List<String> lines) {
		Set<String> anchors = new LinkedHashSet<>();
		Map<String, Integer> seen = new HashMap<>();
		boolean fenced = false;
		for (String line : lines) {
			if (FENCE.matcher(line).find()) {
				fenced = !fenced;
				continue;
			}
			Matcher heading = HEADING.matcher(line);
			if (fenced || !heading.matches()) {
				continue;
			}
			String text = heading.group(2).replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1");
			String anchor = text.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
			int count = seen.merge(anchor, 1, Integer::sum);
			anchors.add((count == 1) ? anchor : anchor + "-" + (count - 1));
		}
		return anchors;
	}

	private static List<Path> pages(Path root) {
		List<Path> pages = new ArrayList<>(List.of(root.resolve("README.md"), root.resolve("CONTRIBUTING.md"),
				root.resolve("bench/README.md")));
		try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
			docs.filter((path) -> path.getFileName().toString().endsWith(".md")).sorted().forEach(pages::add);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return pages;
	}

	private static List<String> lines(Path page) {
		try {
			return Files.readAllLines(page, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("cannot read " + page, ex);
		}
	}

	/** The folder of the project's pom.xml: the tests' working directory, or one above it. */
	private static Path projectRoot() {
		Path dir = Path.of("").toAbsolutePath();
		while (dir != null && !Files.exists(dir.resolve("pom.xml"))) {
			dir = dir.getParent();
		}
		assertThat(dir).as("a folder with pom.xml above %s", Path.of("").toAbsolutePath()).isNotNull();
		return dir;
	}

}
