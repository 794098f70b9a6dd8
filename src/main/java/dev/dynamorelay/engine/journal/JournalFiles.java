package dev.dynamorelay.engine.journal;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import dev.dynamorelay.engine.value.ItemCodec;

/**

/**
 * The journal's files in its directory: their names, their headers' magic numbers (with the format's version), the
 * types of a snapshot's parts, and the directory's listing and forcing.
 *
 * <p>A log file is {@code log-N.log}, N the number of its first entry (20 digits), and holds a 16-byte header
 * ({@code DRJLOG} and the format, then N) and frames of entries ({@link Frames}); a snapshot is
 * {@code snapshot-P.snap}, P the entry it was taken before, with the header {@code DRJSNP}, the format and P, then
 * its parts in frames: each table (its description and time to live) followed by its items, then the streams'
 * checkpoint and an end.
 */
final class JournalFiles {

	/**
	 * The version of the files' format, the last two characters of their magic numbers. 02: items, keys and images
	 * in the engine's one binary form of items ({@code ItemCodec}); 01 (never released) had the streams' own.
	 */
	static final String FORMAT = "02";

	static final String LOG_PREFIX = "DRJLOG";

	static final String SNAPSHOT_PREFIX = "DRJSNP";

	static final byte[] LOG_MAGIC = (LOG_PREFIX + FORMAT).getBytes(StandardCharsets.US_ASCII);

	static final byte[] SNAPSHOT_MAGIC = (SNAPSHOT_PREFIX + FORMAT).getBytes(StandardCharsets.US_ASCII);

	static final int FILE_HEADER = 16;

	static final Pattern LOG_FILE = Pattern.compile("log-(\\d{20})\\.log");

	static final Pattern SNAPSHOT_FILE = Pattern.compile("snapshot-(\\d{20})\\.snap");

	static final byte SNAPSHOT_TABLE = 1;

	static final byte SNAPSHOT_ITEM = 2;

	static final byte SNAPSHOT_STREAMS = 3;

	static final byte SNAPSHOT_END = 4;

	private JournalFiles() {
	}

	static String logName(long first) {
		return String.format("log-%020d.log", first);
	}

	static String snapshotName(long position) {
		return String.format("snapshot-%020d.snap", position);
	}

	/** The directory's files whose names match, by the number in their name. */
	static TreeMap<Long, Path> files(Path directory, Pattern name) throws IOException {
		TreeMap<Long, Path> files = new TreeMap<>();
		try (Stream<Path> listed = Files.list(directory)) {
			for (Path path : (Iterable<Path>) listed::iterator) {
				Matcher matcher = name.matcher(path.getFileName().toString());
				if (matcher.matches()) {
					files.put(Long.parseLong(matcher.group(1)), path);
				}
			}
		}
		return files;
	}

	/** Makes the directory's entries (a file created, renamed) durable. */
	static void forceDirectory(Path directory) throws IOException {
		try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
			channel.force(true);
		}
		catch (IOException ex) {
			// Some systems cannot open a directory as a file; there, a rename is as durable as they make it.
			if (!System.getProperty("os.name", "").startsWith("Windows")) {
				throw ex;
			}
		}
	}

	static void writeBytes(DataOutputStream out, byte[] bytes) throws IOException {
		out.writeInt(bytes.length);
		out.write(bytes);
	}

	static byte[] readBytes(DataInputStream in) throws IOException {
		int length = in.readInt();
		if (length < 0 || length > Frames.MAX_PAYLOAD) {
			throw new IOException("impossible length " + length);
		}
		byte[] bytes = new byte[length];
		in.readFully(bytes);
		return bytes;
	}

}
