package dev.dynamorelay.it;

import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.springframework.graphql.GraphQlResponse;

import static org.assertj.core.api.Assertions.assertThat;

/** Ten connection fields of the sample, which graphql-java starts at once: ten Queries of one request. */
public final class TenPages {

	/** Fields {@code f0} to {@code f9}, the {@code i}th a page of {@code i + 1} books purchases. */
	public static final String DOCUMENT = IntStream.range(0, 10)
		.mapToObj((i) -> "f%d: purchasesByCategory(category: \"books\", first: %d) { edges { cursor } }".formatted(i,
				i + 1))
		.collect(Collectors.joining("\n", "{ ", " }"));

	private TenPages() {
	}

	/** Every field served, whole, in one DynamoDB call each. */
	public static void assertServedWhole(GraphQlResponse response) {
		assertThat(response.getErrors()).isEmpty();
		for (int i = 0; i < 10; i++) {
			assertThat(response.field("f" + i + ".edges").<List<?>>getValue()).hasSize(i + 1);
		}
		assertThat(Errors.requests(response)).isEqualTo(10);
	}

}
