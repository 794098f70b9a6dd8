package dev.dynamorelay.it;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;

import org.springframework.graphql.GraphQlResponse;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Walks a connection page by page over GraphQL, checking the page-info invariants of the contract on
 * every page.
 */
public final class Walker {

	private final BiFunction<String, Map<String, Object>, GraphQlResponse> execute;

	public Walker(BiFunction<String, Map<String, Object>, GraphQlResponse> execute) {
		this.execute = execute;
	}

	/** One page of the connection at {@code path} (e.g. {@code user.purchases}). */
	@SuppressWarnings("unchecked")
	public Page page(String document, String path, Map<String, Object> variables) {
		GraphQlResponse response = this.execute.apply(document, variables);
		assertThat(response.getErrors()).as("errors of %s", variables).isEmpty();
		Map<String, Object> connection = response.field(path).getValue();
		Map<Object, Object> extensions = response.getExtensions();
		return new Page((List<Map<String, Object>>) connection.get("edges"),
				(Map<String, Object>) connection.get("pageInfo"), connection.get("totalCount"),
				(Map<String, Object>) extensions.get("dynamodb"));
	}

	/**
	 * Walks forwards from the start to the end; with {@code exact}, also checks that
	 * {@code hasNextPage} is never true in front of an empty page and pages are full until the end.
	 */
	public List<Map<String, Object>> forward(String document, String path, Map<String, Object> arguments, int pageSize,
			boolean exact) {
		return forwardFrom(document, path, arguments, pageSize, exact, null);
	}

	public List<Map<String, Object>> forwardFrom(String document, String path, Map<String, Object> arguments,
			int pageSize, boolean exact, String start) {
		List<Map<String, Object>> nodes = new ArrayList<>();
		Set<String> cursors = new HashSet<>();
		String after = start;
		for (int pages = 0;; pages++) {
			assertThat(pages).as("pages of a walk").isLessThan(100_000);
			Map<String, Object> variables = new HashMap<>(arguments);
			variables.put("first", pageSize);
			variables.put("after", after);
			Page page = page(document, path, variables);
			assertThat(page.hasPreviousPage()).as("hasPreviousPage is true exactly when after was given")
				.isEqualTo(after != null);
			checkCursors(page, cursors);
			if (exact) {
				assertThat(page.edges()).hasSize(page.hasNextPage() ? pageSize : page.edges().size());
				if (after != null) {
					assertThat(page.edges()).as("no empty page behind hasNextPage: true").isNotEmpty();
				}
			}
			page.edges().forEach((edge) -> nodes.add(node(edge)));
			if (!page.hasNextPage()) {
				return nodes;
			}
			assertThat(page.endCursor()).as("a page with a next page has an endCursor").isNotNull();
			after = page.endCursor();
		}
	}

	/** Walks backwards from the end to the start; nodes come back in the connection's order. */
	public List<Map<String, Object>> backward(String document, String path, Map<String, Object> arguments, int pageSize,
			boolean exact) {
		return backwardFrom(document, path, arguments, pageSize, exact, null);
	}

	public List<Map<String, Object>> backwardFrom(String document, String path, Map<String, Object> arguments,
			int pageSize, boolean exact, String start) {
		List<Map<String, Object>> nodes = new ArrayList<>();
		Set<String> cursors = new HashSet<>();
		String before = start;
		for (int pages = 0;; pages++) {
			assertThat(pages).as("pages of a walk").isLessThan(100_000);
			Map<String, Object> variables = new HashMap<>(arguments);
			variables.put("last", pageSize);
			variables.put("before", before);
			Page page = page(document, path, variables);
			assertThat(page.hasNextPage()).as("hasNextPage is true exactly when before was given")
				.isEqualTo(before != null);
			checkCursors(page, cursors);
			if (exact) {
				assertThat(page.edges()).hasSize(page.hasPreviousPage() ? pageSize : page.edges().size());
				if (before != null) {
					assertThat(page.edges()).as("no empty page behind hasPreviousPage: true").isNotEmpty();
				}
			}
			List<Map<String, Object>> pageNodes = page.edges().stream().map(Walker::node).toList();
			nodes.addAll(0, pageNodes);
			if (!page.hasPreviousPage()) {
				return nodes;
			}
			assertThat(page.startCursor()).as("a page with a previous page has a startCursor").isNotNull();
			before = page.startCursor();
		}
	}

	private static void checkCursors(Page page, Set<String> seen) {
		if (!page.edges().isEmpty()) {
			assertThat(page.startCursor()).isEqualTo(page.edges().get(0).get("cursor"));
			assertThat(page.endCursor()).isEqualTo(page.edges().get(page.edges().size() - 1).get("cursor"));
		}
		for (Map<String, Object> edge : page.edges()) {
			String cursor = (String) edge.get("cursor");
			assertThat(cursor).matches("[A-Za-z0-9_-]+");
			assertThat(seen.add(cursor)).as("every edge has its own cursor").isTrue();
		}
	}

	@SuppressWarnings("unchecked")
	public static Map<String, Object> node(Map<String, Object> edge) {
		return (Map<String, Object>) edge.get("node");
	}

	/** One page as the client saw it. */
	public record Page(List<Map<String, Object>> edges, Map<String, Object> pageInfo, Object totalCount,
			Map<String, Object> dynamodb) {

		public boolean hasNextPage() {
			return (Boolean) this.pageInfo.get("hasNextPage");
		}

		public boolean hasPreviousPage() {
			return (Boolean) this.pageInfo.get("hasPreviousPage");
		}

		public String startCursor() {
			return (String) this.pageInfo.get("startCursor");
		}

		public String endCursor() {
			return (String) this.pageInfo.get("endCursor");
		}

		public List<String> cursors() {
			return this.edges.stream().map((edge) -> (String) edge.get("cursor")).toList();
		}

		public long requests() {
			return ((Number) this.dynamodb.get("requests")).longValue();
		}

		public long scannedCount() {
			return ((Number) this.dynamodb.get("scannedCount")).longValue();
		}

	}

}
