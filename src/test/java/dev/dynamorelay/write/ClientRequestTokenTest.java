package dev.dynamorelay.write;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code ClientRequestToken} of an idempotency key is its writer's own: the same for one writer's retries,
 * another for another writer's equal key, and never the key itself; as long as DynamoDB takes (36 characters).
 */
class ClientRequestTokenTest {

	@Test
	void aKeysTokenIsItsWritersOwn() {
		String alice = Mutations.clientRequestToken("sub 6:issueralice", "c0ffee00-0000-4000-8000-000000000001");
		assertThat(alice).hasSize(36).matches("[A-Za-z0-9_-]+")
			.isEqualTo(Mutations.clientRequestToken("sub 6:issueralice", "c0ffee00-0000-4000-8000-000000000001"))
			.isNotEqualTo(Mutations.clientRequestToken("sub 6:issuerbob", "c0ffee00-0000-4000-8000-000000000001"))
			.isNotEqualTo(Mutations.clientRequestToken("", "c0ffee00-0000-4000-8000-000000000001"))
			.isNotEqualTo("c0ffee00-0000-4000-8000-000000000001");
		// The writer and the key are told apart: no pair reads as another.
		assertThat(Mutations.clientRequestToken("a", "b\nc")).isNotEqualTo(Mutations.clientRequestToken("a\nb", "c"));
	}

}
