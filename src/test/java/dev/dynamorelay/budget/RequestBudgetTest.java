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

class RequestBudgetTest {

	@Test
	void grantsAtMostWhatIsLeftAndTakesBackWhatAReadDidNotScan() {
		RequestBudget budget = new RequestBudget(Duration.ofSeconds(5), 100, 8);
		assertThat(budget.takeItems(51)).isEqualTo(51);
		assertThat(budget.takeItems(80)).isEqualTo(49);
		assertThat(budget.hasItemsLeft()).isFalse();
		assertThat(budget.takeItems(1)).isZero();
		budget.returnItems(30);
		assertThat(budget.hasItemsLeft()).isTrue();
		assertThat(budget.takeItems(1000)).isEqualTo(30);
		assertThat(budget.takeItems(0)).isZero();
		budget.returnItems(0);
		budget.returnItems(-5);
		assertThat(budget.takeItems(1)).isZero();
	}

	@Test
	void aRequestWithoutABudgetOfItsOwnIsNeverCut() {
		RequestBudget budget = new RequestBudget();
		for (int i = 0; i < 1000; i++) {
			assertThat(budget.takeItems(Integer.MAX_VALUE)).isEqualTo(Integer.MAX_VALUE);
		}
		assertThat(budget.hasItemsLeft()).isTrue();
	}

	@Test
	void concurrentReadsTogetherNeverTakeMoreThanTheBudget() throws Exception {
		RequestBudget budget = new RequestBudget(Duration.ofSeconds(5), 10_000, 8);
		ExecutorService threads = Executors.newFixedThreadPool(8);
		try {
			List<Callable<Long>> readers = new ArrayList<>();
			for (int t = 0; t < 8; t++) {
				readers.add(() -> {
					long kept = 0;
					for (int i = 0; i < 20_000; i++) {
						int granted = budget.takeItems(1 + i % 37);
						// Half of what each read is granted it "scans", the rest goes back.
						int scanned = (granted + 1) / 2;
						budget.returnItems(granted - scanned);
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
			assertThat(budget.hasItemsLeft()).isFalse();
		}
		finally {
			threads.shutdownNow();
		}
	}

}
