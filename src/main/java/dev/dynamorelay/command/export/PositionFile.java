package dev.dynamorelay.command.export;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
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
 *
 * <p>Sealed ({@link PositionSeal}): the whole file, not only its cursors, is what the export wrote, so
 * that no edit (of {@code outputBytes}, a segment marked done or left out, {@code complete}) can make a
 * resume drop, repeat or cut lines, or call an export complete that is not. It also holds the SHA-256
 * of the output's first {@code outputBytes} bytes, which a resume checks before it appends: an output
 * cut or changed since is refused, not continued.
 */
final class PositionFile {

	/** A segment read to its end. */
	static final String DONE = "done";

	/** What every refusal of a position file or its output tells its user to do. */
	static final String START_AGAIN = "Start the export again with --force (or with another --out).";

	private static final JsonMapper JSON = JsonMapper.builder()
		.enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
		.build();

	private final PositionSeal seal;

	String connection;

	Map<String, List<String>> arguments = new LinkedHashMap<>();

	/** Total segments of a parallel Scan; null when the export is not one. */
	Integer segments;

	int firstSegment;

	int lastSegment;

	/** Each started segment's cursor, or {@link #DONE}; a segment not listed starts from the beginning. */
	final TreeMap<Integer, String> cursors = new TreeMap<>();

	long outputBytes;

	/** The hex SHA-256 of the output's first {@link #outputBytes} bytes. */
	String outputSha256;

	long items;

	long pages;

	long scanned;

	double capacity;

	boolean complete;

	private PositionFile(PositionSeal seal) {
		this.seal = seal;
	}

	/** The position file of {@code options}'s export, not started, sealed with {@code seal}. */
	static PositionFile start(ExportOptions options, PositionSeal seal) {
		PositionFile position = new PositionFile(seal);
		position.connection = options.connection();
		position.arguments = new LinkedHashMap<>(options.arguments());
		position.segments = options.segments();
		position.firstSegment = options.firstSegment();
		position.lastSegment = options.lastSegment();
		position.outputSha256 = hex(sha256());
		return position;
	}

	/**
	 * Reads a position file and checks its seal: a file the export did not write as it is (edited, of an
	 * earlier version without a seal, or sealed under another secret) is refused before any of it is used.
	 * @throws ExportException (exit code 2) when there is none, it is not one, or it was changed
	 */
	static PositionFile read(Path file, PositionSeal seal) {
		byte[] bytes;
		try {
			bytes = Files.readAllBytes(file);
		}
		catch (NoSuchFileException ex) {
			throw ExportException.usage(("There is no position file %s to resume from: start the export without "
					+ "--resume.").formatted(file));
		}
		catch (IOException ex) {
			throw ExportException.usage("%s cannot be read (%s). %s".formatted(file, ex.getMessage(), START_AGAIN));
		}
		Object parsed;
		try {
			parsed = JSON.readValue(bytes, Object.class);
		}
		catch (JacksonException ex) {
			throw ExportException.usage("%s is not an export's position file: it is not JSON (%s). %s".formatted(file,
					ex.getOriginalMessage().replaceAll("\\s+", " "), START_AGAIN));
		}
		if (!(parsed instanceof Map<?, ?> map)) {
			throw ExportException.usage("%s is not an export's position file: it is not a JSON object. %s"
				.formatted(file, START_AGAIN));
		}
		@SuppressWarnings("unchecked")
		Map<String, Object> json = (Map<String, Object>) map;
		Object mac = json.remove("mac");
		if (mac == null) {
			throw ExportException.usage(("%s has no seal: it was written by an earlier version of export (or is not an "
					+ "export's position file), and a resume from it cannot be checked. %s").formatted(file, START_AGAIN));
		}
		if (!(mac instanceof String text) || !seal.verifies(JSON.writeValueAsBytes(json), text)) {
			throw ExportException.usage(("%s was changed since the export wrote it, or was written with another cursor "
					+ "secret: a resume from it could drop, repeat or cut lines. %s").formatted(file, START_AGAIN));
		}
		// The seal holds: only a file of another version of export could fail below, never an edit.
		Fields fields = new Fields(file, json);
		PositionFile position = new PositionFile(seal);
		position.connection = fields.string("connection");
		fields.map("arguments").forEach((name, values) -> position.arguments.put(name, fields.strings("arguments", values)));
		position.segments = (json.get("segments") != null) ? (int) fields.count("segments", 1, Integer.MAX_VALUE) : null;
		position.firstSegment = (int) fields.count("firstSegment", 0, Integer.MAX_VALUE);
		position.lastSegment = (int) fields.count("lastSegment", position.firstSegment, Integer.MAX_VALUE);
		fields.map("cursors").forEach((segment, cursor) -> position.cursors.put(fields.segment(segment),
				fields.text("cursors", cursor)));
		position.outputBytes = fields.count("outputBytes", 0, Long.MAX_VALUE);
		position.outputSha256 = fields.string("outputSha256");
		position.items = fields.count("items", 0, Long.MAX_VALUE);
		position.pages = fields.count("pages", 0, Long.MAX_VALUE);
		position.scanned = fields.count("scanned", 0, Long.MAX_VALUE);
		position.capacity = fields.number("consumedCapacity");
		position.complete = fields.bool("complete");
		return position;
	}

	/**
	 * Checks that the output's first {@link #outputBytes} bytes are the ones the export wrote (their
	 * SHA-256 is sealed in the position), reading them once.
	 * @return the SHA-256 state after those bytes, which the resumed export goes on from
	 * @throws ExportException (exit code 2) when the output is shorter, missing or changed
	 */
	MessageDigest checkOutput(Path out) {
		MessageDigest digest = sha256();
		if (this.outputBytes == 0) {
			return digest;
		}
		try (InputStream in = Files.newInputStream(out)) {
			long size = Files.size(out);
			if (size < this.outputBytes) {
				throw ExportException.usage(("%s holds %,d bytes, but its position file covers %,d: the output was cut "
						+ "or replaced since. %s").formatted(out, size, this.outputBytes, START_AGAIN));
			}
			byte[] buffer = new byte[1 << 20];
			long left = this.outputBytes;
			while (left > 0) {
				int read = in.read(buffer, 0, (int) Math.min(buffer.length, left));
				if (read < 0) {
					break;
				}
				digest.update(buffer, 0, read);
				left -= read;
			}
		}
		catch (NoSuchFileException ex) {
			throw ExportException.usage("%s is gone, but its position file covers %,d bytes of it. %s".formatted(out,
					this.outputBytes, START_AGAIN));
		}
		catch (IOException ex) {
			throw ExportException.usage("%s cannot be read (%s). %s".formatted(out, ex.getMessage(), START_AGAIN));
		}
		if (!hex(digest).equals(this.outputSha256)) {
			throw ExportException.usage(("The first %,d bytes of %s are not the ones the export wrote: the output was "
					+ "changed since. %s").formatted(this.outputBytes, out, START_AGAIN));
		}
		return digest;
	}

	/** Writes the position atomically, sealed. */
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
		json.put("outputSha256", this.outputSha256);
		json.put("items", this.items);
		json.put("pages", this.pages);
		json.put("scanned", this.scanned);
		json.put("consumedCapacity", this.capacity);
		json.put("complete", this.complete);
		// The seal is over the compact form of the rest, which a reader makes again from what it parses.
		json.put("mac", this.seal.seal(JSON.writeValueAsBytes(json)));
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

	/** A new SHA-256 of the output. */
	static MessageDigest sha256() {
		try {
			return MessageDigest.getInstance("SHA-256");
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("SHA-256 is not available", ex);
		}
	}

	/** The hex SHA-256 of what {@code digest} has taken so far; it goes on taking more. */
	static String hex(MessageDigest digest) {
		try {
			return HexFormat.of().formatHex(((MessageDigest) digest.clone()).digest());
		}
		catch (CloneNotSupportedException ex) {
			throw new IllegalStateException("SHA-256 cannot be copied", ex);
		}
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

	/**
	 * The fields of a parsed position file, each checked for its type: a file of another version of
	 * export is refused with the field it lacks, not a {@link ClassCastException}.
	 */
	private record Fields(Path file, Map<String, Object> json) {

		String string(String name) {
			return text(name, this.json.get(name));
		}

		String text(String name, Object value) {
			if (value instanceof String text) {
				return text;
			}
			throw wrong(name, "text");
		}

		@SuppressWarnings("unchecked")
		Map<String, Object> map(String name) {
			if (this.json.get(name) instanceof Map<?, ?> map) {
				return (Map<String, Object>) map;
			}
			throw wrong(name, "an object");
		}

		List<String> strings(String name, Object value) {
			if (!(value instanceof List<?> list)) {
				throw wrong(name, "an object of lists of text");
			}
			List<String> strings = new ArrayList<>();
			list.forEach((each) -> strings.add(text(name, each)));
			return strings;
		}

		long count(String name, long min, long max) {
			Object value = this.json.get(name);
			if ((value instanceof Integer || value instanceof Long) && ((Number) value).longValue() >= min
					&& ((Number) value).longValue() <= max) {
				return ((Number) value).longValue();
			}
			throw wrong(name, "a whole number from %,d".formatted(min));
		}

		int segment(String key) {
			try {
				int segment = Integer.parseInt(key);
				if (segment >= 0) {
					return segment;
				}
			}
			catch (NumberFormatException ex) {
				// refused below
			}
			throw wrong("cursors", "an object whose keys are segment numbers");
		}

		double number(String name) {
			if (this.json.get(name) instanceof Number number) {
				return number.doubleValue();
			}
			throw wrong(name, "a number");
		}

		boolean bool(String name) {
			if (this.json.get(name) instanceof Boolean bool) {
				return bool;
			}
			throw wrong(name, "true or false");
		}

		private ExportException wrong(String name, String what) {
			return ExportException.usage("%s is not an export's position file: its `%s` is not %s. %s".formatted(
					this.file, name, what, START_AGAIN));
		}

	}

}
