package dev.dynamorelay.command.export;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * How many segments an export reads at once by default (4 per core, no more than its heap holds pages
 * of), and how many segments it takes at most.
 */
class ExportOptionsTest {

	private static final long MB = 1L << 20;

	@Test
	void theHeapBoundsTheSegmentsReadAtOnce() {
		assertThat(ExportOptions.defaultConcurrency(2, 128 * MB)).isEqualTo(2);
		assertThat(ExportOptions.defaultConcurrency(2, 256 * MB)).isEqualTo(5);
		assertThat(ExportOptions.defaultConcurrency(2, 4096 * MB)).as("4 per core").isEqualTo(8);
		assertThat(ExportOptions.defaultConcurrency(16, 4096 * MB)).isEqualTo(64);
		assertThat(ExportOptions.defaultConcurrency(16, 64 * MB)).as("at least one").isEqualTo(1);
	}

	@Test
	void pagesAreDynamoDbsOwnUnlessAsked() {
		assertThat(ExportOptions.parse("Query.users", "--out", "u.jsonl").pageSize()).isNull();
		assertThat(ExportOptions.parse("Query.users", "--out", "u.jsonl", "--page-size", "500").pageSize()).isEqualTo(500);
		assertThat(ExportOptions.parse("Query.users", "--out", "u.jsonl", "--concurrency", "3").concurrency()).isEqualTo(3);
	}

	@Test
	void segmentsAreAtMostTheSegmentsReadAtOnce() {
		assertThat(ExportOptions.parse("Query.users", "--out", "u.jsonl", "--segments", "1024").segments()).isEqualTo(1024);
		ExportException refused = catchThrowableOfType(ExportException.class,
				() -> ExportOptions.parse("Query.users", "--out", "u.jsonl", "--segments", "1000000"));
		assertThat(refused).isNotNull();
		assertThat(refused.exitCode()).isEqualTo(ExportException.USAGE);
		assertThat(refused.getMessage()).startsWith("`--segments 1000000`: give at most 1,024 segments.")
			.contains("--concurrency", "--segment-range");
		assertThat(catchThrowableOfType(ExportException.class,
				() -> ExportOptions.parse("Query.users", "--out", "u.jsonl", "--concurrency", "1025")))
			.as("no more segments read at once than there may be")
			.isNotNull();
	}

}
