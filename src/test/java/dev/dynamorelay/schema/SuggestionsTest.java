package dev.dynamorelay.schema;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The "did you mean" of a problem names the known name a typo is closest to, and nothing when none is
 * close.
 */
class SuggestionsTest {

	@Test
	void aTypoSuggestsTheNameItIsClosestTo() {
		List<String> directives = List.of("query", "scan", "lookup", "table", "timestamp", "sortKey", "filter");
		assertThat(Suggestions.closest("qurey", directives)).contains("query");
		assertThat(Suggestions.closest("tabel", directives)).contains("table");
		assertThat(Suggestions.closest("timestmp", directives)).contains("timestamp");
		assertThat(Suggestions.closest("sortkey", directives)).contains("sortKey");
		assertThat(Suggestions.closest("userld", List.of("userId", "name", "id"))).contains("userId");
	}

	@Test
	void theClosestOfSeveralIsSuggested() {
		assertThat(Suggestions.closest("ByOwnr", List.of("ByOwner", "ByOwnerAndDate", "ByScore"))).contains("ByOwner");
	}

	@Test
	void nothingIsSuggestedForANameFarFromEveryOneOrKnown() {
		assertThat(Suggestions.closest("cacheControl", List.of("query", "scan", "table"))).isEmpty();
		assertThat(Suggestions.closest("query", List.of("query", "scan"))).isEmpty();
		assertThat(Suggestions.closest("ab", List.of("xy"))).isEmpty();
		assertThat(Suggestions.didYouMean("cacheControl", List.of("query"))).isEmpty();
	}

	@Test
	void theSentenceEndsWithWhatToDo() {
		assertThat(Suggestions.didYouMean("qurey", List.of("query"))).isEqualTo(" Did you mean `query`?");
		assertThat(Suggestions.orElse("qurey", List.of("query"), "add it."))
			.isEqualTo(". Did you mean `query`? Otherwise add it.");
		assertThat(Suggestions.orElse("cacheControl", List.of("query"), "add it.")).isEqualTo(": add it.");
	}

	@Test
	void aSwapOfTwoNeighboursIsOneEdit() {
		assertThat(Suggestions.distance("qurey", "query")).isEqualTo(1);
		assertThat(Suggestions.distance("categroy", "category")).isEqualTo(1);
		assertThat(Suggestions.distance("kitten", "sitting")).isEqualTo(3);
		assertThat(Suggestions.distance("", "abc")).isEqualTo(3);
	}

}
