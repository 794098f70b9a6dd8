package dev.dynamorelay.build;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarInputStream;
import java.util.jar.Manifest;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the build ships and depends on, read from the real artifacts: the packaged fat jar in {@code target/} and
 * the resolved dependency tree that Maven writes before the integration tests ({@code target/dependency-tree.txt},
 * every scope). DynamoDB Local is distributed under Amazon's own licence, not an open-source one, and the project
 * must not ship or depend on it (issue 32): no artifact of it, none of its SQLite library (sqlite4java and its
 * native builds), no class of it in the jar. And no library of the jar puts a directory on the class path (a
 * manifest {@code Class-Path}, as DynamoDB Local's had): the AOT cache and the image's training refuse one.
 */
class JarContentsIT {

	private static final Path JAR = Path.of("target/dynamo-relay-0.1.0-SNAPSHOT.jar");

	private static final Path TREE = Path.of("target/dependency-tree.txt");

	/** An artifact of DynamoDB Local or of its SQLite, as {@code group:artifact} in the tree or a jar's file name. */
	private static final Pattern ARTIFACT = Pattern.compile(
			"(?i)com\\.amazonaws:DynamoDBLocal|DynamoDBLocal[^/]*\\.jar|com\\.almworks|sqlite4java|sqlite");

	/** A class of DynamoDB Local or of sqlite4java, or a native SQLite library, as an entry of a jar. */
	private static final Pattern ENTRY = Pattern.compile(
			"(?i)(^|/)com/amazonaws/services/dynamodbv2/local/|(^|/)com/almworks/|sqlite[^/]*\\.(so|dll|dylib|jnilib)$");

	/** The jar's contents, read once for all the tests. */
	private static Contents scanned;

	@Test
	void theDependencyTreeHasNoDynamoDbLocalAndNoSqlite() throws IOException {
		assertThat(TREE).as("written by the dependency plugin before the integration tests").exists();
		List<String> lines = Files.readAllLines(TREE, StandardCharsets.UTF_8);
		assertThat(lines).as("the tree is the project's").anyMatch((line) -> line.contains("software.amazon.awssdk:dynamodb:jar"));
		assertThat(lines).as("artifacts of DynamoDB Local or SQLite in %s", TREE)
			.filteredOn((line) -> ARTIFACT.matcher(line).find())
			.isEmpty();
	}

	@Test
	void theTestsOwnClassPathHasNoDynamoDbLocalAndNoSqlite() {
		// Failsafe runs the tests from a manifest-only jar and gives their class path in this property.
		String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
		List<String> entries = List.of(classPath.split(File.pathSeparator));
		assertThat(entries).as("the resolved class path").anyMatch((entry) -> entry.contains("dynamodb-2."));
		assertThat(entries).as("the resolved class path")
			.filteredOn((entry) -> ARTIFACT.matcher(Path.of(entry).getFileName().toString()).find())
			.isEmpty();
	}

	@Test
	void theJarHasNoLibraryOfDynamoDbLocalOrSqlite() throws IOException {
		Contents contents = contents();
		assertThat(contents.libraries()).as("the fat jar's libraries").hasSizeGreaterThan(50);
		assertThat(contents.libraries()).as("libraries of DynamoDB Local or SQLite")
			.filteredOn((library) -> ARTIFACT.matcher(library).find())
			.isEmpty();
	}

	@Test
	void theJarHoldsNoClassOfDynamoDbLocalAndNoSqliteNativeLibrary() throws IOException {
		Contents contents = contents();
		assertThat(contents.entries()).as("the engine is in the jar")
			.contains("BOOT-INF/classes/dev/dynamorelay/engine/DynamoDbEngine.class");
		List<String> found = contents.entries().stream().filter((entry) -> ENTRY.matcher(entry).find()).toList();
		assertThat(found.stream().limit(10).toList())
			.as("classes of DynamoDB Local or sqlite4java, native SQLite libraries (%d, the first ten shown)", found.size())
			.isEmpty();
	}

	@Test
	void noLibraryOfTheJarPutsADirectoryOnTheClassPath() throws IOException {
		assertThat(contents().classPaths()).as("libraries whose manifest has a Class-Path").isEmpty();
	}

	/**
	 * Every entry of the jar, with the entries of its nested libraries as {@code library!/entry}; the libraries'
	 * names; the nested libraries whose manifest has a {@code Class-Path}.
	 */
	private static synchronized Contents contents() throws IOException {
		if (scanned != null) {
			return scanned;
		}
		assertThat(JAR).as("the jar, built by `package` before the integration tests").exists();
		List<String> entries = new ArrayList<>();
		List<String> libraries = new ArrayList<>();
		List<String> classPaths = new ArrayList<>();
		try (ZipFile jar = new ZipFile(JAR.toFile())) {
			for (ZipEntry entry : jar.stream().toList()) {
				entries.add(entry.getName());
				if (!entry.getName().startsWith("BOOT-INF/lib/") || !entry.getName().endsWith(".jar")) {
					continue;
				}
				String library = entry.getName().substring("BOOT-INF/lib/".length());
				libraries.add(library);
				try (InputStream in = jar.getInputStream(entry); JarInputStream nested = new JarInputStream(in)) {
					Manifest manifest = nested.getManifest();
					if (manifest != null && manifest.getMainAttributes().containsKey(Attributes.Name.CLASS_PATH)) {
						String classPath = manifest.getMainAttributes().getValue(Attributes.Name.CLASS_PATH);
						classPaths.add(library + ": " + ((classPath.length() > 60) ? classPath.substring(0, 60) + "..." : classPath));
					}
					for (ZipEntry inner = nested.getNextEntry(); inner != null; inner = nested.getNextEntry()) {
						entries.add(library + "!/" + inner.getName());
					}
				}
			}
		}
		scanned = new Contents(entries, libraries, classPaths);
		return scanned;
	}

	private record Contents(List<String> entries, List<String> libraries, List<String> classPaths) {
	}

}
