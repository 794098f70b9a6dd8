package dev.dynamorelay.it.export;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import tools.jackson.databind.json.JsonMapper;

import dev.dynamorelay.it.ExportProcess;
import dev.dynamorelay.it.Fixtures;
import dev.dynamorelay.it.IntegrationTest;
import dev.dynamorelay.it.Rest;
import dev.dynamorelay.model.NodeIds;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The export command as a real separate process (the packaged jar) over the test server's embedded
 * DynamoDB engine: whole exports equal direct reads, an export killed with SIGKILL and resumed holds
 * every item exactly once (a Query, and a parallel Scan), segment ranges split a Scan, bad usage is
 * refused with its exit code and one clear message, and so is a resume from a position file or an output
 * that was changed since the export wrote it.
 */
class ExportIT extends IntegrationTest {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	@TempDir
	Path folder;

	private ExportProcess export;

	@BeforeEach
	void exporter() {
		this.export = new ExportProcess(dynamoDbEndpoint());
	}

	@Test
	void userPurchasesEqualADirectQuery() throws Exception {
		Path out = this.folder.resolve("purchases.jsonl");
		ExportProcess.Result result = this.export.run(this.folder, "User.purchases", "--arg", "userId=user-01", "--out",
				out.toString());
		assertThat(result.exitCode()).as(result.stderr()).isZero();
		assertThat(result.stderr()).contains("export User.purchases done: 100 items");
		List<Map<String, AttributeValue>> direct = query(this.tables.purchases(), "userId", AttributeValue.fromS("user-01"));
		assertThat(direct).hasSize(100);
		List<Map<String, Object>> lines = ExportProcess.lines(out);
		assertThat(ExportProcess.ids(lines)).containsExactlyElementsOf(ids("Purchase", direct));
		Map<String, Object> first = lines.get(0);
		assertThat(first.keySet()).containsExactly("id", "userId", "purchasedAt", "product", "category", "amount",
				"version");
		assertThat(first.get("purchasedAt")).isEqualTo(java.time.format.DateTimeFormatter
			.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'")
			.withZone(java.time.ZoneOffset.UTC)
			.format(java.time.Instant.ofEpochMilli(Long.parseLong(direct.get(0).get("purchasedAt").n()))));
		assertThat(ExportProcess.position(out)).containsEntry("complete", true).containsEntry("items", 100);
		assertThat(lines).as("the REST view's nodes, which GraphQL serves")
			.isEqualTo(new Rest(this.port).walk(null, "/api/users/user-01/purchases", "purchases", 100).nodes());
	}

	@Test
	void filteredMoviesWithKeyConditionEqualTheirDirectSelection() throws Exception {
		int year = Fixtures.uniqueYear();
		List<Map<String, AttributeValue>> movies = new ArrayList<>();
		for (int i = 0; i < 60; i++) {
			movies.add(Fixtures.movie(year, ((i % 2 == 0) ? "Star " : "Moon ") + String.format("%03d", i),
					Integer.toString(i % 10)));
		}
		this.fixtures.putMovies(movies);
		Path out = this.folder.resolve("movies.jsonl");
		ExportProcess.Result result = this.export.run(this.folder, "Query.movies", "--arg", "year=" + year, "--arg",
				"titlePrefix=Star", "--arg", "minRating=4.5", "--arg", "order=DESC", "--page-size", "7", "--out",
				out.toString());
		assertThat(result.exitCode()).as(result.stderr()).isZero();
		List<String> expected = movies.stream()
			.filter((movie) -> movie.get("title").s().startsWith("Star"))
			.filter((movie) -> Double.parseDouble(movie.get("rating").n()) >= 4.5)
			.sorted(Comparator.comparing((Map<String, AttributeValue> movie) -> movie.get("title").s()).reversed())
			.map((movie) -> NodeIds.encode(this.declarations.entity("Movie"), movie))
			.toList();
		assertThat(expected).hasSize(12);
		assertThat(ExportProcess.ids(ExportProcess.lines(out))).containsExactlyElementsOf(expected);
	}

	@Test
	void aQueryExportKilledMidwayAndResumedHoldsEveryItemOnce() throws Exception {
		String userId = this.fixtures.buyer("export-kill");
		this.fixtures.putPurchases(this.fixtures.purchases(userId, 400, 1_700_000_000_000L, "books"));
		Path out = this.folder.resolve("kill.jsonl");
		String[] args = { "User.purchases", "--arg", "userId=" + userId, "--page-size", "10", "--pause", "300",
				"--out", out.toString() };
		long storedItems = killAfterPages(out, 5, () -> {
			// A second run on the same output while the first runs is refused, and writes nothing.
			ExportProcess.Result second = this.export.run(this.folder, with(args, "--resume"));
			assertThat(second.exitCode()).as(second.stderr()).isEqualTo(2);
			assertThat(second.stderr()).contains("another export is writing");
		}, args);
		assertThat(storedItems).as("killed mid-way").isGreaterThan(0).isLessThan(400);
		// A kill between appending a page and storing its position leaves lines the position does not cover.
		Files.writeString(out, "{\"id\":\"torn", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
		ExportProcess.Result resumed = this.export.run(this.folder, with(args, "--resume"));
		assertThat(resumed.exitCode()).as(resumed.stderr()).isZero();
		List<Map<String, AttributeValue>> direct = query(this.tables.purchases(), "userId", AttributeValue.fromS(userId));
		assertThat(ExportProcess.ids(ExportProcess.lines(out))).containsExactlyElementsOf(ids("Purchase", direct));
		ExportProcess.Result again = this.export.run(this.folder, with(args, "--resume"));
		assertThat(again.exitCode()).isZero();
		assertThat(again.stderr()).contains("complete already");
	}

	@Test
	void aParallelScanKilledMidwayAndResumedHoldsEveryItemOnce() throws Exception {
		List<Map<String, AttributeValue>> users = new ArrayList<>();
		String prefix = Fixtures.unique("export-scan");
		for (int i = 0; i < 1200; i++) {
			users.add(Map.of("userId", AttributeValue.fromS(prefix + "-" + i), "name", AttributeValue.fromS("u" + i)));
		}
		this.fixtures.put(this.tables.users(), users);
		Path out = this.folder.resolve("scan.jsonl");
		String[] args = { "Query.users", "--segments", "4", "--page-size", "10", "--pause", "100", "--out",
				out.toString() };
		long storedItems = killAfterPages(out, 12, args);
		List<Map<String, AttributeValue>> all = scan(this.tables.users());
		assertThat(storedItems).as("killed mid-way").isGreaterThan(0).isLessThan(all.size());
		ExportProcess.Result resumed = this.export.run(this.folder, with(args, "--resume"));
		assertThat(resumed.exitCode()).as(resumed.stderr()).isZero();
		List<String> exported = ExportProcess.ids(ExportProcess.lines(out));
		assertThat(new HashSet<>(exported)).as("no item twice").hasSize(exported.size());
		assertThat(exported).containsExactlyInAnyOrderElementsOf(ids("User", all));
		Map<String, Object> position = ExportProcess.position(out);
		assertThat(position).containsEntry("complete", true).containsEntry("segments", 4);
		assertThat((Map<?, ?>) position.get("cursors")).hasSize(4).allSatisfy((segment, cursor) -> assertThat(cursor)
			.isEqualTo("done"));
	}

	@Test
	void segmentRangesSplitAParallelScan() throws Exception {
		Path low = this.folder.resolve("low.jsonl");
		Path high = this.folder.resolve("high.jsonl");
		ExportProcess.Result a = this.export.run(this.folder, "Query.users", "--segments", "4", "--segment-range", "0-1",
				"--out", low.toString());
		ExportProcess.Result b = this.export.run(this.folder, "Query.users", "--segments", "4", "--segment-range", "2-3",
				"--out", high.toString());
		assertThat(a.exitCode()).as(a.stderr()).isZero();
		assertThat(b.exitCode()).as(b.stderr()).isZero();
		List<String> first = ExportProcess.ids(ExportProcess.lines(low));
		List<String> second = ExportProcess.ids(ExportProcess.lines(high));
		assertThat(first).isNotEmpty();
		assertThat(second).isNotEmpty();
		Set<String> overlap = new HashSet<>(first);
		overlap.retainAll(second);
		assertThat(overlap).isEmpty();
		List<String> union = new ArrayList<>(first);
		union.addAll(second);
		assertThat(union).containsExactlyInAnyOrderElementsOf(ids("User", scan(this.tables.users())));
	}

	@Test
	void badUsageIsRefusedWithExitCodeTwoAndOneMessage() throws Exception {
		Path out = this.folder.resolve("usage.jsonl");
		String file = out.toString();
		assertUsage(2, "is not a declared connection", "Query.nothing", "--out", file);
		assertUsage(2, "takes no argument `yeer`", "Query.movies", "--arg", "yeer=1999", "--out", file);
		assertUsage(2, "`--arg year`: `year` must be an integer", "Query.movies", "--arg", "year=abc", "--out", file);
		assertUsage(2, "needs `--arg year=...`", "Query.movies", "--out", file);
		assertUsage(2, "`first`, `after`, `last` and `before` are not taken", "Query.movies", "--arg", "year=1999",
				"--arg", "first=5", "--out", file);
		assertUsage(2, "`--segments 1000000`: give at most 1,024 segments", "Query.users", "--segments", "1000000",
				"--out", file);
		assertUsage(2, "is a DynamoDB Query, not a Scan", "Query.movies", "--arg", "year=1999", "--segments", "4",
				"--out", file);
		assertUsage(1, "There is no User with userId=nobody-here", "User.purchases", "--arg", "userId=nobody-here",
				"--out", file);
		assertThat(out).doesNotExist();

		ExportProcess.Result done = this.export.run(this.folder, "Query.users", "--segments", "2", "--out", file);
		assertThat(done.exitCode()).as(done.stderr()).isZero();
		assertUsage(2, "exists already: pass --resume", "Query.users", "--segments", "2", "--out", file);
		assertUsage(2, "is the position of another export", "Query.users", "--segments", "3", "--resume", "--out",
				file);
		Path position = out.resolveSibling("usage.jsonl.position");
		String stored = Files.readString(position);
		Files.writeString(position, stored.replace("\"complete\" : true", "\"complete\" : false")
			.replaceFirst("\"0\" : \"done\"", "\"0\" : \"AAAAtampered\""));
		assertUsage(2, "was changed since the export wrote it", "Query.users", "--segments", "2", "--resume", "--out",
				file);
		ExportProcess.Result forced = this.export.run(this.folder, "Query.users", "--segments", "2", "--force", "--out",
				file);
		assertThat(forced.exitCode()).as(forced.stderr()).isZero();
	}

	/**
	 * Every edit of a stopped export's position file, and every change of its output, makes {@code --resume}
	 * refuse with exit code 2 and what to do, and leaves both files as they were: none of them can make a
	 * resume drop, repeat or cut lines, or call the export complete. The untouched files then resume to
	 * every item once.
	 */
	@Test
	@SuppressWarnings("unchecked")
	void aResumeRefusesEveryEditOfThePositionOrTheOutput() throws Exception {
		List<Map<String, AttributeValue>> users = new ArrayList<>();
		String prefix = Fixtures.unique("export-edit");
		for (int i = 0; i < 600; i++) {
			users.add(Map.of("userId", AttributeValue.fromS(prefix + "-" + i), "name", AttributeValue.fromS("u" + i)));
		}
		this.fixtures.put(this.tables.users(), users);
		Path out = this.folder.resolve("edited.jsonl");
		Path positionFile = out.resolveSibling("edited.jsonl.position");
		String[] args = { "Query.users", "--segments", "4", "--page-size", "10", "--pause", "100", "--out",
				out.toString(), "--resume" };
		killAfterPages(out, 8, Arrays.copyOf(args, args.length - 1));
		byte[] output = Files.readAllBytes(out);
		String stored = Files.readString(positionFile);
		Map<String, Object> position = ExportProcess.position(out);
		long outputBytes = ((Number) position.get("outputBytes")).longValue();
		String running = ((Map<?, ?>) position.get("cursors")).entrySet()
			.stream()
			.filter((entry) -> !"done".equals(entry.getValue()))
			.map((entry) -> (String) entry.getKey())
			.findFirst()
			.orElseThrow();
		String changed = "was changed since the export wrote it";
		// Every edit is tried, and the failures reported together.
		SoftAssertions softly = new SoftAssertions();
		Map<String, PositionEdit> edits = new LinkedHashMap<>();
		edits.put("outputBytes", (json) -> json.put("outputBytes", outputBytes - 5));
		edits.put("a segment marked done", (json) -> cursors(json).put(running, "done"));
		edits.put("a segment's entry deleted", (json) -> cursors(json).remove(running));
		edits.put("complete", (json) -> json.put("complete", true));
		edits.put("a number as text", (json) -> json.put("outputBytes", Long.toString(outputBytes)));
		edits.put("the connection left out", (json) -> json.remove("connection"));
		for (Map.Entry<String, PositionEdit> edit : edits.entrySet()) {
			Map<String, Object> json = JSON.readValue(stored, Map.class);
			edit.getValue().apply(json);
			assertRefused(softly, edit.getKey(), out, output, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(json), changed,
					args);
		}
		Map<String, Object> unsealed = JSON.readValue(stored, Map.class);
		unsealed.remove("mac");
		unsealed.remove("outputSha256");
		assertRefused(softly, "a position of the previous version", out, output,
				JSON.writerWithDefaultPrettyPrinter().writeValueAsString(unsealed), "has no seal", args);
		assertRefused(softly, "not JSON", out, output, "{\"connection\": ", "is not an export's position file: it is not JSON",
				args);
		assertRefused(softly, "not an object", out, output, "[1, 2]", "is not an export's position file: it is not a JSON object",
				args);
		byte[] cut = java.util.Arrays.copyOf(output, (int) outputBytes / 2);
		assertRefused(softly, "the output cut", out, cut, stored, "the output was cut or replaced since", args);
		byte[] edited = output.clone();
		edited[(int) outputBytes / 2] ^= 1;
		assertRefused(softly, "the output changed", out, edited, stored, "the output was changed since", args);
		softly.assertAll();

		Files.write(out, output);
		Files.writeString(positionFile, stored);
		ExportProcess.Result resumed = this.export.run(this.folder, args);
		assertThat(resumed.exitCode()).as(resumed.stderr()).isZero();
		List<String> exported = ExportProcess.ids(ExportProcess.lines(out));
		assertThat(new HashSet<>(exported)).as("no item twice").hasSize(exported.size());
		assertThat(exported).containsExactlyInAnyOrderElementsOf(ids("User", scan(this.tables.users())));
		byte[] done = Files.readAllBytes(out);
		done[0] ^= 1;
		Files.write(out, done);
		assertUsage(2, "the output was changed since", args);
	}

	/**
	 * Puts {@code output} and {@code position} in place, resumes, and checks that the resume is refused
	 * with exit code 2 and {@code message}, and leaves both as they were.
	 */
	private void assertRefused(SoftAssertions softly, String edit, Path out, byte[] output, String position,
			String message, String... args) throws Exception {
		Path positionFile = out.resolveSibling(out.getFileName() + ".position");
		Files.write(out, output);
		Files.writeString(positionFile, position);
		ExportProcess.Result result = this.export.run(this.folder, args);
		softly.assertThat(result.exitCode()).as(edit + ": " + result.stderr()).isEqualTo(2);
		softly.assertThat(result.stderr())
			.as(edit)
			.contains(message)
			.contains("Start the export again with --force")
			.doesNotContain("\tat ")
			.doesNotContain("Exception");
		softly.assertThat(result.stderr().strip().lines()).as(edit + ": one line").hasSize(1);
		softly.assertThat(Arrays.equals(Files.readAllBytes(out), output)).as(edit + ": the output as it was").isTrue();
		softly.assertThat(Files.readString(positionFile)).as(edit + ": the position as it was").isEqualTo(position);
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> cursors(Map<String, Object> position) {
		return (Map<String, Object>) position.get("cursors");
	}

	@FunctionalInterface
	private interface PositionEdit {

		void apply(Map<String, Object> position);

	}

	private void assertUsage(int exitCode, String message, String... args) throws Exception {
		ExportProcess.Result result = this.export.run(this.folder, args);
		assertThat(result.exitCode()).as(result.stderr()).isEqualTo(exitCode);
		assertThat(result.stderr()).contains(message).doesNotContain("\tat ");
	}

	/**
	 * Starts an export, waits until its position file shows {@code pages} pages, kills it (SIGKILL), and
	 * returns the items its position file covers.
	 */
	private long killAfterPages(Path out, int pages, String... args) throws Exception {
		return killAfterPages(out, pages, () -> {
		}, args);
	}

	/** As above, running {@code meanwhile} after the pages and before the kill. */
	private long killAfterPages(Path out, int pages, ThrowingRunnable meanwhile, String... args) throws Exception {
		Process process = this.export.start(Files.createTempFile(this.folder, "killed", ".err"), args);
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
		while (true) {
			Map<String, Object> position = ExportProcess.position(out);
			if (position != null && ((Number) position.get("pages")).intValue() >= pages) {
				break;
			}
			assertThat(process.isAlive()).as("the export runs until killed").isTrue();
			assertThat(System.nanoTime()).as("the export makes progress").isLessThan(deadline);
			Thread.sleep(20);
		}
		meanwhile.run();
		assertThat(process.isAlive()).as("still running when killed").isTrue();
		process.destroyForcibly();
		assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
		assertThat(process.exitValue()).as("killed, not ended").isNotZero();
		Map<String, Object> position = ExportProcess.position(out);
		assertThat(position).containsEntry("complete", false);
		return ((Number) position.get("items")).longValue();
	}

	private static String[] with(String[] args, String more) {
		List<String> all = new ArrayList<>(List.of(args));
		all.add(more);
		return all.toArray(String[]::new);
	}

	private List<String> ids(String type, List<Map<String, AttributeValue>> items) {
		return items.stream().map((item) -> NodeIds.encode(this.declarations.entity(type), item)).toList();
	}

	private List<Map<String, AttributeValue>> query(String table, String partitionKey, AttributeValue value) {
		List<Map<String, AttributeValue>> items = new ArrayList<>();
		this.dynamoDb.queryPaginator((q) -> q.tableName(table)
			.keyConditionExpression("#pk = :pk")
			.expressionAttributeNames(Map.of("#pk", partitionKey))
			.expressionAttributeValues(Map.of(":pk", value))).items().forEach(items::add);
		return items;
	}

	private List<Map<String, AttributeValue>> scan(String table) {
		List<Map<String, AttributeValue>> items = new ArrayList<>();
		this.dynamoDb.scanPaginator((s) -> s.tableName(table)).items().forEach(items::add);
		return items;
	}

	@FunctionalInterface
	private interface ThrowingRunnable {

		void run() throws Exception;

	}

}
