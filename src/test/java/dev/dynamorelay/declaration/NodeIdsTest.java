package dev.dynamorelay.graphql;

import java.util.Base64;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.dynamorelay.error.InvalidArgumentException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class NodeIdTest {

	@Test
	void roundTripsEveryKindOfId() {
		List<NodeId> ids = List.of(new NodeId.UserId("user-01"), new NodeId.UserId("ユーザー"),
				new NodeId.PurchaseId("user-01", 1735722000000L), new NodeId.MovieId(1999, "The Silent River"),
				new NodeId.MovieId(-5, "x".repeat(300)));
		for (NodeId id : ids) {
			String encoded = id.encode();
			assertThat(encoded).matches("[A-Za-z0-9_-]+");
			assertThat(NodeId.decode(encoded)).isEqualTo(id);
		}
	}

	@Test
	void refusesMalformedIds() {
		String valid = new NodeId.PurchaseId("user-01", 1735722000000L).encode();
		List<String> malformed = List.of("", "!", "a b", valid + "=", valid.substring(0, valid.length() - 2),
				valid + "AA", encode("X\u0001a"), encode("U"), encode("P\u0001a"), encode("P\u0001a\u0003abc"),
				encode("M\u0002xx\u0001t"), encode("P\u0001a\u0002+5"), encode("P\u0001a\u000205"), "x".repeat(5000));
		for (String id : malformed) {
			assertThatThrownBy(() -> NodeId.decode(id)).as(id)
				.isInstanceOf(InvalidArgumentException.class)
				.hasMessageContaining("not a node id");
		}
	}

	private static String encode(String raw) {
		return Base64.getUrlEncoder().withoutPadding().encodeToString(raw.getBytes(java.nio.charset.StandardCharsets.UTF_8));
	}

}
