package dev.dynamorelay.command.export;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * A position file is read back as it was written, under its secret or a previous one, and refused
 * (exit code 2, one message) when it is sealed under another secret, has a field of the wrong type, or
 * its output is not the one it covers.
 */
class PositionFileTest {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final PositionSeal SEAL = new PositionSeal("secret", List.of());

	@TempDir
	Path folder;

	@Test
	void aPositionReadsBackAsWrittenUnderItsSecretOrAPreviousOne() throws Exception {
		Path file = this.folder.resolve("u.jsonl.position");
		written().write(file);
		for (PositionSeal seal : List.of(SEAL, new PositionSeal("next", List.of("secret")))) {
			PositionFile read = PositionFile.read(file, seal);
			assertThat(read.sameExport(options())).isTrue();
			assertThat(read.cursors).containsExactly(Map.entry(0, PositionFile.DONE), Map.entry(2, "abc"));
			assertThat(read.outputBytes).isEqualTo(8);
			assertThat(read.outputSha256).isEqualTo(written().outputSha256);
			assertThat(read.items).isEqualTo(2);
			assertThat(read.capacity).isEqualTo(1.5);
			assertThat(read.complete).isFalse();
		}
		assertThat(refused(() -> PositionFile.read(file, new PositionSeal("another", List.of()))))
			.contains("was changed since the export wrote it, or was written with another cursor secret");
	}

	@Test
	void aSealedFieldOfTheWrongTypeIsNamed() throws Exception {
		Path file = this.folder.resolve("u.jsonl.position");
		written().write(file);
		@SuppressWarnings("unchecked")
		Map<String, Object> json = JSON.readValue(file.toFile(), Map.class);
		json.remove("mac");
		json.put("items", "2");
		json.put("mac", SEAL.seal(JSON.writeValueAsBytes(json)));
		Files.write(file, JSON.writeValueAsBytes(json));
		assertThat(refused(() -> PositionFile.read(file, SEAL))).contains("its `items` is not a whole number");
	}

	@Test
	void theOutputMustBeTheOneThePositionCovers() throws Exception {
		Path out = this.folder.resolve("u.jsonl");
		PositionFile position = written();
		Files.writeString(out, "{\"a\":1}\n{\"b\"", StandardCharsets.UTF_8);
		assertThat(PositionFile.hex(position.checkOutput(out))).as("the lines it covers, not the torn one after")
			.isEqualTo(position.outputSha256);
		Files.writeString(out, "{\"a\":1", StandardCharsets.UTF_8);
		assertThat(refused(() -> position.checkOutput(out))).contains("holds 6 bytes, but its position file covers 8");
		Files.writeString(out, "{\"a\":2}\n{\"b\"", StandardCharsets.UTF_8);
		assertThat(refused(() -> position.checkOutput(out))).contains("are not the ones the export wrote");
		Files.delete(out);
		assertThat(refused(() -> position.checkOutput(out))).contains("is gone");
	}

	private static ExportOptions options() {
		return ExportOptions.parse("Query.users", "--out", "u.jsonl", "--segments", "4");
	}

	private static PositionFile written() {
		PositionFile position = PositionFile.start(options(), SEAL);
		position.cursors.put(0, PositionFile.DONE);
		position.cursors.put(2, "abc");
		byte[] lines = "{\"a\":1}\n{\"b\"".getBytes(StandardCharsets.UTF_8);
		var digest = PositionFile.sha256();
		digest.update(lines, 0, 8);
		position.outputBytes = 8;
		position.outputSha256 = PositionFile.hex(digest);
		position.items = 2;
		position.pages = 1;
		position.capacity = 1.5;
		return position;
	}

	/** The message of the refusal {@code action} ends in, which must be a usage error. */
	private static String refused(Runnable action) {
		ExportException refused = catchThrowableOfType(ExportException.class, action::run);
		assertThat(refused).as("refused").isNotNull();
		assertThat(refused.exitCode()).isEqualTo(ExportException.USAGE);
		assertThat(refused.getMessage()).contains(PositionFile.START_AGAIN).doesNotContain("Exception");
		return refused.getMessage();
	}

}
