package dev.dynamorelay.pagination;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.budget.ReadStats;
import dev.dynamorelay.budget.RequestBudget;
import dev.dynamorelay.model.Filter;
import dev.dynamorelay.model.SortOrder;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The request's read budget and its limit on calls in flight, in the engine, over a fake partition of
 * 100 items: each read's {@code Limit} is at most what is left of the field's and the request's budget,
 * a page that finds the request's budget spent sends nothing and continues from where it would have
 * started, and a count past it is null.
 */
class PaginatorBudgetTest {

	private static final CursorCodec CURSORS = new CursorCodec("secret", List.of());

	private static final ConnectionQuery ALL = ConnectionQuery.partition(AttributeValue.fromS("p"), SortOrder.ASC);

	/** Amounts are sk % 10: 9 matches one item in ten. */
	private static final ConnectionQuery NINES = ALL
		.withFilters(List.of(new Filter("amount", Filter.Op.GE, List.of(AttributeValue.fromN("9")))));

	private final FakePartition partition = new FakePartition(100, null);

	private final Paginator paginator = paginator(this.partition, 1000);

	private static Paginator paginator(FakePartition partition, int readBudget) {
		return new Paginator(partition, CURSORS, new PageSizes(20, 100),
				new ReadBudgets(readBudget, 10_000, 1_000_000, Duration.ofSeconds(5)));
	}

	private static ReadStats request(long items) {
		return ReadStats.of(new RequestBudget(Duration.ofSeconds(5), items, 8));
	}

	private Page<Integer> page(ConnectionQuery query, Integer first, String after, Integer last, String before,
			ReadStats stats) {
		return this.paginator.prepare(FakePartition.CONNECTION, query, this.paginator.request(first, after, last, before))
			.page(stats)
			.join();
	}

	private static List<Integer> nodes(Page<Integer> page) {
		return page.edges().stream().map(Edge::node).toList();
	}

	@Test
	void aReadsLimitIsAtMostWhatIsLeftOfTheRequestsBudgetAndAPageCutByItContinuesFromItsLastEdge() {
		ReadStats stats = request(30);
		Page<Integer> first = page(ALL, 50, null, null, null, stats);
		assertThat(this.partition.limits).containsExactly(30);
		assertThat(nodes(first)).hasSize(30).startsWith(0).endsWith(29);
		assertThat(first.pageInfo().hasNextPage()).isTrue();
		assertThat(first.pageInfo().endCursor()).isEqualTo(first.edges().get(29).cursor());
		assertThat(stats.costs().scannedCount()).isEqualTo(30);
		Page<Integer> next = page(ALL, 50, first.pageInfo().endCursor(), null, null, request(1000));
		assertThat(nodes(next)).startsWith(30).hasSize(50);
	}

	@Test
	void whatAReadDidNotScanIsLeftForTheRequestsNextReads() {
		ReadStats stats = request(30);
		// 11 wanted (10 + 1 to tell hasNextPage), 11 scanned; 19 left for the next page of the same request.
		page(ALL, 10, null, null, null, stats);
		Page<Integer> filtered = page(NINES, 10, null, null, null, stats);
		assertThat(this.partition.limits).containsExactly(11, 11, 8);
		assertThat(stats.costs().scannedCount()).isEqualTo(30);
		assertThat(nodes(filtered)).containsExactly(9);
		assertThat(filtered.pageInfo().hasNextPage()).isTrue();
	}

	@Test
	void aFieldsOwnBudgetStillBoundsItsReads() {
		Paginator small = paginator(this.partition, 25);
		Page<Integer> page = small.prepare(FakePartition.CONNECTION, NINES, small.request(10, null, null, null))
			.page(request(1000))
			.join();
		assertThat(this.partition.limits.stream().mapToInt(Integer::intValue).sum()).isEqualTo(25);
		assertThat(nodes(page)).containsExactly(9, 19);
		assertThat(page.pageInfo().hasNextPage()).isTrue();
	}

	@Test
	void aPageThatFindsTheRequestsBudgetSpentSendsNothingAndContinuesFromTheStart() {
		ReadStats spent = request(0);
		Page<Integer> forward = page(ALL, 10, null, null, null, spent);
		assertThat(this.partition.limits).isEmpty();
		assertThat(spent.costs().requests()).isZero();
		assertThat(forward.edges()).isEmpty();
		assertThat(forward.pageInfo().hasNextPage()).isTrue();
		assertThat(forward.pageInfo().hasPreviousPage()).isFalse();
		assertThat(forward.pageInfo().endCursor()).isNotNull().isEqualTo(forward.pageInfo().startCursor());
		Page<Integer> resumed = page(ALL, 10, forward.pageInfo().endCursor(), null, null, request(1000));
		assertThat(nodes(resumed)).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
		assertThat(resumed.pageInfo().hasPreviousPage()).isTrue();
		// Nothing lies in front of the start.
		this.partition.limits.clear();
		Page<Integer> before = page(ALL, null, null, 10, forward.pageInfo().startCursor(), request(1000));
		assertThat(before.edges()).isEmpty();
		assertThat(before.pageInfo().hasPreviousPage()).isFalse();
		assertThat(before.pageInfo().startCursor()).isNull();
		assertThat(this.partition.limits).isEmpty();
	}

	@Test
	void aBackwardPageThatFindsTheRequestsBudgetSpentContinuesFromTheEnd() {
		Page<Integer> backward = page(ALL, null, null, 5, null, request(0));
		assertThat(backward.edges()).isEmpty();
		assertThat(backward.pageInfo().hasPreviousPage()).isTrue();
		assertThat(backward.pageInfo().hasNextPage()).isFalse();
		assertThat(backward.pageInfo().startCursor()).isNotNull();
		Page<Integer> resumed = page(ALL, null, null, 5, backward.pageInfo().startCursor(), request(1000));
		assertThat(nodes(resumed)).containsExactly(95, 96, 97, 98, 99);
		Page<Integer> after = page(ALL, 5, backward.pageInfo().startCursor(), null, null, request(1000));
		assertThat(after.edges()).isEmpty();
		assertThat(after.pageInfo().hasNextPage()).isFalse();
	}

	@Test
	void aPageFromACursorThatFindsTheRequestsBudgetSpentHandsBackThatPosition() {
		Page<Integer> first = page(ALL, 10, null, null, null, request(1000));
		String after = first.pageInfo().endCursor();
		Page<Integer> cut = page(ALL, 10, after, null, null, request(0));
		assertThat(cut.edges()).isEmpty();
		assertThat(cut.pageInfo().hasNextPage()).isTrue();
		assertThat(nodes(page(ALL, 3, cut.pageInfo().endCursor(), null, null, request(1000)))).containsExactly(10, 11, 12);
	}

	@Test
	void aCountPastTheRequestsBudgetIsNullAndScansNoMoreThanIt() {
		ConnectionRead<Integer> read = this.paginator.prepare(FakePartition.CONNECTION, ALL,
				this.paginator.request(1, null, null, null));
		ReadStats small = request(60);
		assertThat(read.count(small).join()).isEmpty();
		assertThat(small.costs().scannedCount()).isLessThanOrEqualTo(60);
		assertThat(read.count(request(101)).join()).contains(100);
		assertThat(read.count(request(100)).join()).as("100 scanned, but not past the end").isEmpty();
	}

	@Test
	void aCountReadsInStepsGrowingFromAPagesReadBudget() {
		FakePartition large = new FakePartition(20_000, null);
		Paginator paginator = paginator(large, 1000);
		ConnectionRead<Integer> read = paginator.prepare(FakePartition.CONNECTION, ALL,
				paginator.request(1, null, null, null));
		// 1,000, then 4,000, then the 5,001 left of the count budget (10,000 and one to see the range go on).
		assertThat(read.count(request(1_000_000)).join()).isEmpty();
		assertThat(large.limits).containsExactly(1_000, 4_000, 5_001);
	}

	@Test
	void countsOfSmallConnectionsLeaveTheRequestsBudgetToItsOtherFields() {
		// Two users' pages with their counts, as in `users(first: 2) { purchases(first: 2) { totalCount } }`,
		// in a request whose budget is far below two count budgets.
		ReadStats stats = request(2_500);
		List<CompletableFuture<?>> fields = new ArrayList<>();
		List<CompletableFuture<Optional<Integer>>> counts = new ArrayList<>();
		List<CompletableFuture<Page<Integer>>> pages = new ArrayList<>();
		for (int user = 0; user < 2; user++) {
			ConnectionRead<Integer> read = this.paginator.prepare(FakePartition.CONNECTION, ALL,
					this.paginator.request(2, null, null, null));
			counts.add(read.count(stats));
			pages.add(read.page(stats));
		}
		fields.addAll(counts);
		fields.addAll(pages);
		CompletableFuture.allOf(fields.toArray(CompletableFuture[]::new)).join();
		assertThat(counts).allSatisfy((count) -> assertThat(count.join()).contains(100));
		assertThat(pages).allSatisfy((page) -> assertThat(nodes(page.join())).containsExactly(0, 1));
	}

	@Test
	void concurrentPagesTogetherScanNoMoreThanTheRequestsBudgetWithAtMostItsCallsInFlight() {
		FakePartition slow;
		ExecutorService threads = Executors.newFixedThreadPool(16);
		try {
			slow = new FakePartition(100_000, threads);
			Paginator paginator = paginator(slow, 1000);
			ReadStats stats = ReadStats.of(new RequestBudget(Duration.ofSeconds(5), 2_500, 3));
			ConnectionQuery none = ALL
				.withFilters(List.of(new Filter("amount", Filter.Op.GE, List.of(AttributeValue.fromN("10")))));
			List<CompletableFuture<Page<Integer>>> pages = new ArrayList<>();
			for (int i = 0; i < 10; i++) {
				pages.add(paginator.prepare(FakePartition.CONNECTION, none, paginator.request(100, null, null, null))
					.page(stats));
			}
			CompletableFuture.allOf(pages.toArray(CompletableFuture[]::new)).join();
			assertThat(stats.costs().scannedCount()).isEqualTo(2_500);
			assertThat(slow.mostInFlight.get()).isEqualTo(3);
			for (CompletableFuture<Page<Integer>> page : pages) {
				assertThat(page.join().edges()).isEmpty();
				assertThat(page.join().pageInfo().hasNextPage()).isTrue();
				assertThat(page.join().pageInfo().endCursor()).isNotNull();
			}
		}
		finally {
			threads.shutdownNow();
		}
	}

	@Test
	void theStartCursorIsBoundToItsConnection() {
		Page<Integer> forward = page(ALL, 10, null, null, null, request(0));
		ConnectionQuery other = ConnectionQuery.partition(AttributeValue.fromS("q"), SortOrder.ASC);
		org.assertj.core.api.Assertions
			.assertThatThrownBy(() -> page(other, 10, forward.pageInfo().endCursor(), null, null, request(1000)))
			.isInstanceOf(dev.dynamorelay.error.InvalidCursorException.class);
		org.assertj.core.api.Assertions
			.assertThatThrownBy(() -> page(ALL.withSortCondition(Optional.empty()).withFilters(NINES.filters()), 10,
					forward.pageInfo().endCursor(), null, null, request(1000)))
			.isInstanceOf(dev.dynamorelay.error.InvalidCursorException.class);
	}

}
