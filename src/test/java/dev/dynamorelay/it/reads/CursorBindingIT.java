package dev.dynamorelay.it.reads;

import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.springframework.graphql.GraphQlResponse;

import dev.dynamorelay.it.Documents;
import dev.dynamorelay.it.Errors;
import dev.dynamorelay.it.IntegrationTest;

import static org.assertj.core.api.Assertions.assertThat;

/** A cursor is valid only for the connection that issued it; anything else is refused before a read. */
class CursorBindingIT extends IntegrationTest {

	private static final long T0 = 1_720_000_000_000L;

	@Test
	void refusesACursorFromAnyOtherBindingBeforeReading() {
		String alice = this.fixtures.buyer("alice");
		String bob = this.fixtures.buyer("bob");
		this.fixtures.putPurchases(this.fixtures.purchases(alice, 5, T0, "books"));
		this.fixtures.putPurchases(this.fixtures.purchases(bob, 5, T0, "books"));
		String aliceCursor = this.walker
			.page(Documents.USER_PURCHASES, "user.purchases", Map.of("userId", alice, "first", 2))
			.endCursor();
		// The same position, read by the same connection, is fine, with any page size and direction.
		assertThat(this.walker.page(Documents.USER_PURCHASES, "user.purchases",
				Map.of("userId", alice, "first", 1, "after", aliceCursor)).edges()).hasSize(1);
		assertThat(this.walker.page(Documents.USER_PURCHASES, "user.purchases",
				Map.of("userId", alice, "last", 1, "before", aliceCursor)).edges()).hasSize(1);

		assertRefused(Documents.USER_PURCHASES, Map.of("userId", bob, "first", 2, "after", aliceCursor));
		assertRefused(Documents.USER_PURCHASES, Map.of("userId", alice, "first", 2, "after", aliceCursor, "order", "DESC"));
		assertRefused(Documents.USER_PURCHASES, Map.of("userId", alice, "first", 2, "after", aliceCursor, "minAmount", 1.0));
		assertRefused(Documents.BY_CATEGORY, Map.of("category", "books", "first", 2, "after", aliceCursor));

		String filtered = this.walker.page(Documents.USER_PURCHASES, "user.purchases",
				Map.of("userId", alice, "first", 1, "minAmount", 1.0)).endCursor();
		assertRefused(Documents.USER_PURCHASES, Map.of("userId", alice, "first", 2, "after", filtered, "minAmount", 2.0));
		assertRefused(Documents.USER_PURCHASES, Map.of("userId", alice, "first", 2, "after", filtered));

		String books = this.walker.page(Documents.BY_CATEGORY, "purchasesByCategory",
				Map.of("category", "books", "first", 1)).endCursor();
		assertRefused(Documents.BY_CATEGORY, Map.of("category", "games", "first", 2, "after", books));
		assertRefused(Documents.BY_CATEGORY, Map.of("category", "books", "last", 2, "before", books, "order", "DESC"));

		String movies = this.walker.page(Documents.MOVIES, "movies", Map.of("year", 2000, "first", 1)).endCursor();
		assertRefused(Documents.MOVIES, Map.of("year", 2001, "first", 2, "after", movies));
		assertRefused(Documents.MOVIES, Map.of("year", 2000, "first", 2, "after", movies, "titlePrefix", "The"));
		assertRefused(Documents.MOVIES, Map.of("year", 2000, "first", 2, "after", movies, "minRating", 5.0));
		assertRefused(Documents.USERS, Map.of("first", 2, "after", movies));

		String users = this.walker.page(Documents.USERS, "users", Map.of("first", 1)).endCursor();
		assertRefused(Documents.MOVIES, Map.of("year", 2000, "first", 2, "after", users));
	}

	@Test
	void refusesHundredsOfTamperedAndRandomCursors() {
		String cursor = this.walker.page(Documents.BY_CATEGORY, "purchasesByCategory",
				Map.of("category", "books", "first", 1)).endCursor();
		byte[] raw = Base64.getUrlDecoder().decode(cursor);
		Random random = new Random(7);
		for (int i = 0; i < 150; i++) {
			byte[] tampered = raw.clone();
			tampered[random.nextInt(tampered.length)] ^= (byte) (1 + random.nextInt(255));
			assertRefused(Documents.BY_CATEGORY, Map.of("category", "books", "first", 1, "after",
					Base64.getUrlEncoder().withoutPadding().encodeToString(tampered)));
		}
		for (int i = 0; i < 100; i++) {
			byte[] noise = new byte[1 + random.nextInt(60)];
			random.nextBytes(noise);
			assertRefused(Documents.BY_CATEGORY, Map.of("category", "books", "first", 1, "after",
					Base64.getUrlEncoder().withoutPadding().encodeToString(noise)));
		}
		for (String garbled : List.of("", " ", "null", "=", "a==", cursor.substring(0, cursor.length() - 3),
				cursor + "x", "../../etc/passwd", "😀", "x".repeat(10_000))) {
			assertRefused(Documents.BY_CATEGORY, Map.of("category", "books", "last", 1, "before", garbled));
		}
	}

	private void assertRefused(String document, Map<String, Object> variables) {
		GraphQlResponse response = execute(document, new HashMap<>(variables));
		Errors.assertCode(response, "INVALID_CURSOR");
		if (!document.contains("user(userId")) {
			assertThat(Errors.requests(response)).as("refused before any read").isZero();
		}
		else {
			assertThat(Errors.requests(response)).as("only the parent user was read").isEqualTo(1);
		}
	}

}
