package dev.dynamorelay.export;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import tools.jackson.databind.json.JsonMapper;

/**
 * An export's position, stored beside its output after every page: which export it is (connection,
 * arguments, segments), where each of its segments stands (a signed cursor, or {@code done}), how many
 * bytes of the output the stored positions cover, and what it read so far.
 *
 * <p>Written atomically (a temporary file in the same folder, forced to disk, then moved over the old
 * one), so that a kill at any moment leaves either the old position or the new one, never a torn file.
 * The output is forced to disk before the position that covers it is written: the stored length never
 * exceeds what is on disk, and a resume cuts the output back to it.
 */
final class PositionFile {

	/** A segment read to its end. */
	static final String DONE = "done";

	private static final JsonMapper JSON = JsonMapper.builder().build();

	String connection;

	Map<String, List<String>> arguments = new LinkedHashMap<>();

	/** Total segments of a parallel Scan; null when the export is not one. */
	Integer segments;

	int firstSegment;

	int lastSegment;

	/** Each started segment's cursor, or {@link #DONE}; a segment not listed starts from the beginning. */
	final TreeMap<Integer, String> cursors = new TreeMap<>();

	long outputBytes;

	long items;

	long pages;

	long scanned;

	double capacity;

	boolean complete;

	/** The position file of {@code options}'s export, not started. */
	static PositionFile start(ExportOptions options) {
		PositionFile position = new PositionFile();
		position.connection = options.connection();
		position.arguments = new LinkedHashMap<>(options.arguments());
		position.segments = options.segments();
		position.firstSegment = options.firstSegment();
		position.lastSegment = options.lastSegment();
		return position;
	}

	/**
	 * Reads a position file.
	 * @throws ExportException (exit code 2) when there is none or it is not one
	 */
	@SuppressWarnings("unchecked")
	static PositionFile read(Path file) {
		Map<String, Object> json;
		try {
			json = JSON.readValue(Files.readAllBytes(file), Map.class);
		}
		catch (NoSuchFileException ex) {
			throw ExportException.usage(("There is no position file %s to resume from: start the export without "
					+ "--resume.").formatted(file));
		}
		catch (IOException | RuntimeException ex) {
			throw ExportException.usage("%s is not a position file of an export (%s).".formatted(file, ex.getMessage()));
		}
		try {
			PositionFile position = new PositionFile();
			position.connection = (String) json.get("connection");
			((Map<String, List<String>>) json.get("arguments"))
				.forEach((name, values) -> position.arguments.put(name, new ArrayList<>(values)));
			position.segments = (json.get("segments") != null) ? ((Number) json.get("segments")).intValue() : null;
			position.firstSegment = ((Number) json.get("firstSegment")).intValue();
			position.lastSegment = ((Number) json.get("lastSegment")).intValue();
			((Map<String, String>) json.get("cursors"))
				.forEach((segment, cursor) -> position.cursors.put(Integer.valueOf(segment), cursor));
			position.outputBytes = ((Number) json.get("outputBytes")).longValue();
			position.items = ((Number) json.get("items")).longValue();
			position.pages = ((Number) json.get("pages")).longValue();
			position.scanned = ((Number) json.get("scanned")).longValue();
			position.capacity = ((Number) json.get("consumedCapacity")).doubleValue();
			position.complete = Boolean.TRUE.equals(json.get("complete"));
			return position;
		}
		catch (RuntimeException ex) {
			throw ExportException.usage("%s is not a position file of an export (%s).".formatted(file, ex));
		}
	}

	/** Writes the position atomically. */
	void write(Path file) throws IOException {
		Map<String, Object> json = new LinkedHashMap<>();
		json.put("connection", this.connection);
		json.put("arguments", this.arguments);
		json.put("segments", this.segments);
		json.put("firstSegment", this.firstSegment);
		json.put("lastSegment", this.lastSegment);
		Map<String, String> cursors = new LinkedHashMap<>();
		this.cursors.forEach((segment, cursor) -> cursors.put(segment.toString(), cursor));
		json.put("cursors", cursors);
		json.put("outputBytes", this.outputBytes);
		json.put("items", this.items);
		json.put("pages", this.pages);
		json.put("scanned", this.scanned);
		json.put("consumedCapacity", this.capacity);
		json.put("complete", this.complete);
		Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
		try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
				StandardOpenOption.TRUNCATE_EXISTING)) {
			ByteBuffer bytes = ByteBuffer.wrap(JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(json));
			while (bytes.hasRemaining()) {
				channel.write(bytes);
			}
			channel.force(true);
		}
		Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
	}

	/** Whether this position is of the same export as {@code options} asks for. */
	boolean sameExport(ExportOptions options) {
		return this.connection.equals(options.connection()) && this.arguments.equals(options.arguments())
				&& java.util.Objects.equals(this.segments, options.segments())
				&& this.firstSegment == options.firstSegment() && this.lastSegment == options.lastSegment();
	}

	/** The command line arguments this position was made for, for messages. */
	String describe() {
		StringBuilder text = new StringBuilder(this.connection);
		this.arguments.forEach((name, values) -> values.forEach((value) -> text.append(" --arg ")
			.append(name)
			.append('=')
			.append(value)));
		if (this.segments != null) {
			text.append(" --segments ").append(this.segments);
			if (this.firstSegment != 0 || this.lastSegment != this.segments - 1) {
				text.append(" --segment-range ").append(this.firstSegment).append('-').append(this.lastSegment);
			}
		}
		return text.toString();
	}

}
