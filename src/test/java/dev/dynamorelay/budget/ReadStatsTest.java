package dev.dynamorelay.budget;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ReadStatsTest {

	@Test
	void grantsAtMostWhatIsLeftAndTakesBackWhatAReadDidNotScan() {
		ReadStats stats = new ReadStats(Duration.ofSeconds(5), 100, 8);
		assertThat(stats.takeItems(51)).isEqualTo(51);
		assertThat(stats.takeItems(80)).isEqualTo(49);
		assertThat(stats.hasItemsLeft()).isFalse();
		assertThat(stats.takeItems(1)).isZero();
		stats.returnItems(30);
		assertThat(stats.hasItemsLeft()).isTrue();
		assertThat(stats.takeItems(1000)).isEqualTo(30);
		assertThat(stats.takeItems(0)).isZero();
		stats.returnItems(0);
		stats.returnItems(-5);
		assertThat(stats.takeItems(1)).isZero();
	}

	@Test
	void aRequestWithoutABudgetOfItsOwnIsNeverCut() {
		ReadStats stats = new ReadStats();
		for (int i = 0; i < 1000; i++) {
			assertThat(stats.takeItems(Integer.MAX_VALUE)).isEqualTo(Integer.MAX_VALUE);
		}
		assertThat(stats.hasItemsLeft()).isTrue();
	}

	@Test
	void concurrentReadsTogetherNeverTakeMoreThanTheBudget() throws Exception {
		ReadStats stats = new ReadStats(Duration.ofSeconds(5), 10_000, 8);
		ExecutorService threads = Executors.newFixedThreadPool(8);
		try {
			List<Callable<Long>> readers = new ArrayList<>();
			for (int t = 0; t < 8; t++) {
				readers.add(() -> {
					long kept = 0;
					for (int i = 0; i < 20_000; i++) {
						int granted = stats.takeItems(1 + i % 37);
						// Half of what each read is granted it "scans", the rest goes back.
						int scanned = (granted + 1) / 2;
						stats.returnItems(granted - scanned);
						kept += scanned;
					}
					return kept;
				});
			}
			long total = 0;
			for (Future<Long> kept : threads.invokeAll(readers)) {
				total += kept.get();
			}
			assertThat(total).isEqualTo(10_000);
			assertThat(stats.hasItemsLeft()).isFalse();
		}
		finally {
			threads.shutdownNow();
		}
	}

}
