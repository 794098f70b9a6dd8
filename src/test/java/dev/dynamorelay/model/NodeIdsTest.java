package dev.dynamorelay.model;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.error.InvalidArgumentException;
import dev.dynamorelay.model.KeyAttribute;
import dev.dynamorelay.schema.Location;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class NodeIdsTest {

	private static final Entity USER = entity("User", new KeyAttribute("userId", software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType.S), null);

	private static final Entity PURCHASE = entity("Purchase", KeyAttribute.string("userId"), KeyAttribute.number("purchasedAt"));

	private static final Entity MOVIE = entity("Movie", KeyAttribute.number("year"), KeyAttribute.string("title"));

	private static final Entity BLOB = entity("Blob", new KeyAttribute("hash", software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType.B), null);

	@Test
	void roundTripsEveryKindOfId() {
		List<NodeIds.Key> keys = List.of(key(USER, "userId", AttributeValue.fromS("user-01")),
				key(USER, "userId", AttributeValue.fromS("ユーザー")),
				key(PURCHASE, "userId", AttributeValue.fromS("user-01"), "purchasedAt", AttributeValue.fromN("1735722000000")),
				key(MOVIE, "year", AttributeValue.fromN("1999"), "title", AttributeValue.fromS("The Silent River")),
				key(MOVIE, "year", AttributeValue.fromN("-5"), "title", AttributeValue.fromS("x".repeat(300))),
				key(BLOB, "hash", AttributeValue.fromB(SdkBytes.fromByteArray(new byte[] { 0, -1, 7 }))));
		for (NodeIds.Key key : keys) {
			String encoded = NodeIds.encode(key.entity(), key.key());
			assertThat(encoded).matches("[A-Za-z0-9_-]+");
			NodeIds.Key decoded = NodeIds.decode(encoded, NodeIdsTest::type);
			assertThat(decoded.entity()).isSameAs(key.entity());
			assertThat(decoded.key()).isEqualTo(key.key());
		}
	}

	@Test
	void refusesMalformedIds() {
		String valid = NodeIds.encode(PURCHASE,
				Map.of("userId", AttributeValue.fromS("user-01"), "purchasedAt", AttributeValue.fromN("1735722000000")));
		List<String> malformed = List.of("", "!", "a b", valid + "=", valid.substring(0, valid.length() - 2),
				valid + "AA", encode("\u0001X\u0001a"), encode("\u0004User"), encode("\u0008Purchase\u0001a"),
				encode("\u0008Purchase\u0001a\u0003abc"), encode("\u0005Movie\u0002xx\u0001t"),
				encode("\u0008Purchase\u0001a\u0002+5"), encode("\u0008Purchase\u0001a\u000205"),
				encode("\u0004User\u0000"), "x".repeat(5000));
		for (String id : malformed) {
			assertThatThrownBy(() -> NodeIds.decode(id, NodeIdsTest::type)).as(id)
				.isInstanceOf(InvalidArgumentException.class)
				.hasMessageContaining("not a node id");
		}
	}

	@Test
	void refusesIdsOfKeysDynamoDbCannotHold() {
		List<String> forged = List.of(movie("123456789012345678901234567890123456789", "t"), movie("1" + "0".repeat(126), "t"),
				movie("0." + "0".repeat(130) + "1", "t"), movie("1999", "t".repeat(1025)),
				NodeIds.encode(USER, Map.of("userId", AttributeValue.fromS("é".repeat(1025)))),
				NodeIds.encode(BLOB, Map.of("hash", AttributeValue.fromB(SdkBytes.fromByteArray(new byte[2049])))),
				// Not our spelling either, and its plain form would be a billion digits long.
				encode("\u0005Movie\u000c1E+999999999\u0001t"));
		for (String id : forged) {
			assertThatThrownBy(() -> NodeIds.decode(id, NodeIdsTest::type)).as(id)
				.isInstanceOf(InvalidArgumentException.class)
				.hasMessageContaining("not a node id");
		}
		for (String id : List.of(movie("1" + "0".repeat(38), "t"), movie("-" + "9".repeat(38) + "0".repeat(88), "t"),
				movie("0." + "0".repeat(129) + "1", "t"), movie("1999", "t".repeat(1024)),
				NodeIds.encode(USER, Map.of("userId", AttributeValue.fromS("é".repeat(1024)))))) {
			assertThat(NodeIds.decode(id, NodeIdsTest::type).key()).isNotEmpty();
		}
	}

	/**
	 * A key that is one field holds what that field's type holds: the sample's {@code Movie.year: Int} is never
	 * {@code 1.5}, though DynamoDB holds that number; such an id names no movie this server could serve.
	 */
	@Test
	void refusesIdsWhoseKeyFieldCannotHoldTheirValue() {
		Entity typed = typedMovie();
		for (String year : List.of("1.5", "1999.5", "2147483648", "-2147483649", "1" + "0".repeat(38))) {
			String id = NodeIds.encode(typed, Map.of("year", AttributeValue.fromN(year), "title", AttributeValue.fromS("t")));
			assertThatThrownBy(() -> NodeIds.decode(id, (name) -> Optional.of(typed))).as(year)
				.isInstanceOf(InvalidArgumentException.class)
				.hasMessageContaining("not a node id");
		}
		for (String year : List.of("1999", "0", "-5", "2147483647", "-2147483648")) {
			String id = NodeIds.encode(typed, Map.of("year", AttributeValue.fromN(year), "title", AttributeValue.fromS("t")));
			assertThat(NodeIds.decode(id, (name) -> Optional.of(typed)).key()).containsEntry("year", AttributeValue.fromN(year));
		}
	}

	private static Entity typedMovie() {
		Table table = new Table("Movies", "Movies", KeyAttribute.number("year"), Optional.of(KeyAttribute.string("title")),
				Map.of(), Optional.empty(), new Location("test", 1));
		return new Entity("Movie", table, KeyTemplate.of("year"), Optional.of(KeyTemplate.of("title")), Optional.empty(),
				Map.of("year", new Entity.AttributeField("year", "year", new ValueType.Number(ValueType.Number.Kind.INT)),
						"title", new Entity.AttributeField("title", "title", new ValueType.Text())),
				true, new Location("test", 1));
	}

	private static String movie(String year, String title) {
		return NodeIds.encode(MOVIE, Map.of("year", AttributeValue.fromN(year), "title", AttributeValue.fromS(title)));
	}

	private static Optional<Entity> type(String name) {
		return List.of(USER, PURCHASE, MOVIE, BLOB).stream().filter((entity) -> entity.name().equals(name)).findFirst();
	}

	private static NodeIds.Key key(Entity entity, Object... pairs) {
		Map<String, AttributeValue> key = new java.util.LinkedHashMap<>();
		for (int i = 0; i < pairs.length; i += 2) {
			key.put((String) pairs[i], (AttributeValue) pairs[i + 1]);
		}
		return new NodeIds.Key(entity, key);
	}

	private static Entity entity(String name, KeyAttribute partition, KeyAttribute sort) {
		Table table = new Table(name + "s", name + "s", partition, Optional.ofNullable(sort), Map.of(), Optional.empty(),
				new Location("test", 1));
		return new Entity(name, table, KeyTemplate.of(partition.name()),
				Optional.ofNullable(sort).map((key) -> KeyTemplate.of(key.name())), Optional.empty(), Map.of(), true,
				new Location("test", 1));
	}

	private static String encode(String raw) {
		return Base64.getUrlEncoder().withoutPadding().encodeToString(raw.getBytes(StandardCharsets.UTF_8));
	}

}
