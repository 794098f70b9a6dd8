package dev.dynamorelay.transport.graphql.live;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The size in UTF-8 that bounds a WebSocket message, counted without encoding it. */
class LiveWebSocketHandlerTest {

	private static final long NO_BOUND = Long.MAX_VALUE;

	@Test
	void countsEachCharAsUtf8EncodesIt() {
		for (String text : new String[] { "", "subscribe", "\u007f", "\u00e9t\u00e9", "\u0080\u07ff", "\u20ac 5",
				"\u0800\uffff", "\ud83d\ude00", "a\ud83d\ude00b\u00e9\u20ac" }) {
			assertThat(LiveWebSocketHandler.utf8Length(text, NO_BOUND)).as(text)
				.isEqualTo(text.getBytes(StandardCharsets.UTF_8).length);
		}
	}

	@Test
	void aSurrogatePairSplitBetweenTwoPartsCountsFourBytes() {
		String pair = "\ud83d\ude00";
		assertThat(LiveWebSocketHandler.utf8Length(pair.substring(0, 1), NO_BOUND)
				+ LiveWebSocketHandler.utf8Length(pair.substring(1), NO_BOUND)).isEqualTo(4);
	}

	@Test
	void exactUpToTheBound() {
		assertThat(LiveWebSocketHandler.utf8Length("\u20ac".repeat(10), 30)).isEqualTo(30);
		assertThat(LiveWebSocketHandler.utf8Length("\u00e9".repeat(10), 20)).isEqualTo(20);
		assertThat(LiveWebSocketHandler.utf8Length("a".repeat(30), 30)).isEqualTo(30);
	}

	@Test
	void aboveTheBoundSomeNumberAboveIt() {
		// Counting stops once past the bound.
		assertThat(LiveWebSocketHandler.utf8Length("\u20ac".repeat(1_000), 100)).isGreaterThan(100).isLessThan(3_000);
		assertThat(LiveWebSocketHandler.utf8Length("\u20ac".repeat(10), 29)).isGreaterThan(29);
		// More chars than the bound: over it by its length alone, a byte a char at least.
		assertThat(LiveWebSocketHandler.utf8Length("a".repeat(101), 100)).isEqualTo(101);
		assertThat(LiveWebSocketHandler.utf8Length("\ud83d\ude00".repeat(60), 100)).isEqualTo(120);
	}

}
