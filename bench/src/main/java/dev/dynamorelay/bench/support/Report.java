package dev.dynamorelay.bench.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * The benchmark's one table: the rows every section adds (measure, dynamo-relay, baseline, figure, target, met),
 * printed as they come and at the end, and written to {@code results.md}, with the named figures, to
 * {@code results.json}.
 */
public final class Report {

	private static final ObjectMapper JSON = JsonMapper.builder().build();

	private final List<Row> rows = new ArrayList<>();

	private final Map<String, Object> figures = new LinkedHashMap<>();

	/** Adds a row and prints it at once; {@code met} null: the row has no target. */
	public void row(String measure, String relay, String baseline, String figure, String target, Boolean met) {
		this.rows.add(new Row(measure, relay, baseline, figure, target, met));
		System.out.printf("  %s: %s | %s | %s%n", measure, relay, baseline, figure);
	}

	/** A named figure for {@code results.json}. */
	public void figure(String name, Object value) {
		this.figures.put(name, value);
	}

	/** The named figures for {@code results.json}, in the order they were put. */
	public Map<String, Object> figures() {
		return this.figures;
	}

	/** Prints the table and writes {@code results.md} and {@code results.json} to {@code out}. */
	public void write(Path out, double seconds) throws IOException {
		StringBuilder md = new StringBuilder();
		md.append("| measure | dynamo-relay | baseline | figure | target | met |\n");
		md.append("|---|---|---|---|---|---|\n");
		for (Row row : this.rows) {
			md.append("| %s | %s | %s | %s | %s | %s |\n".formatted(row.measure, row.relay, row.baseline, row.figure,
					row.target, (row.met == null) ? "-" : (row.met ? "yes" : "NO")));
		}
		md.append("\nMachine: %d cores, Java %s; whole run %.0f s.\n".formatted(Runtime.getRuntime().availableProcessors(),
				System.getProperty("java.version"), seconds));
		System.out.println();
		System.out.println(md);
		Files.writeString(out.resolve("results.md"), md.toString());
		Map<String, Object> json = new LinkedHashMap<>();
		json.put("rows", this.rows);
		json.put("cores", Runtime.getRuntime().availableProcessors());
		json.put("seconds", Math.round(seconds));
		json.putAll(this.figures);
		Files.writeString(out.resolve("results.json"), JSON.writerWithDefaultPrettyPrinter().writeValueAsString(json));
		System.out.println("Written to " + out.resolve("results.md") + " and results.json");
	}

	/** One line of the table. */
	public record Row(String measure, String relay, String baseline, String figure, String target, Boolean met) {
	}

}
