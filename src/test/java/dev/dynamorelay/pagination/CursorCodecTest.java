package dev.dynamorelay.pagination;

import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.error.InvalidCursorException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CursorCodecTest {

	private static final ConnectionDefinition<Object> BY_CATEGORY = ConnectionDefinition.query("Query.byCategory",
			"UserPurchases", Optional.of("ByCategory"), true, KeyAttribute.string("category"),
			Optional.of(KeyAttribute.number("purchasedAt")),
			List.of(KeyAttribute.string("category"), KeyAttribute.number("purchasedAt"), KeyAttribute.string("userId")),
			false, (item) -> item);

	private static final ConnectionDefinition<Object> PURCHASES = ConnectionDefinition.query("User.purchases",
			"UserPurchases", Optional.empty(), false, KeyAttribute.string("userId"),
			Optional.of(KeyAttribute.number("purchasedAt")),
			List.of(KeyAttribute.string("userId"), KeyAttribute.number("purchasedAt")), false, (item) -> item);

	private static final Map<String, AttributeValue> ITEM = Map.of("category", AttributeValue.fromS("books"),
			"purchasedAt", AttributeValue.fromN("1735722000000"), "userId", AttributeValue.fromS("user-07"), "amount",
			AttributeValue.fromN("12.5"));

	private final CursorCodec codec = new CursorCodec("current-secret", List.of());

	private static Filter minimum(String amount) {
		return new Filter("amount", Filter.Op.GE, List.of(AttributeValue.fromN(amount)));
	}

	private static CursorBinding books(SortOrder order) {
		return CursorBinding.of(BY_CATEGORY, ConnectionQuery.partition(AttributeValue.fromS("books"), order));
	}

	@Test
	void aPrefixAndALowerBoundBindAsTheyDidBeforeOtherConditionsExisted() throws Exception {
		ConnectionQuery query = ConnectionQuery.partition(AttributeValue.fromN("1999"), SortOrder.DESC)
			.withSortCondition(Optional.of(KeyCondition.of(KeyCondition.Op.BEGINS_WITH, AttributeValue.fromS("The"))))
			.withFilters(List.of(new Filter("rating", Filter.Op.GE, List.of(AttributeValue.fromN("7.50")))));
		// The canonical form of version 1: field, partition (type, digits), prefix, minimum, order.
		java.security.MessageDigest digest = java.security.MessageDigest.getInstance("SHA-256");
		for (byte[] part : new byte[][] { bytes("dynamo-relay cursor v1"), bytes("User.purchases"), bytes("partition"),
				bytes("N"), bytes("1999"), bytes("prefix"), bytes("The"), bytes("min"), bytes("rating"), bytes("7.5"),
				bytes("order"), bytes("DESC") }) {
			digest.update(new byte[] { 0, 0, (byte) (part.length >>> 8), (byte) part.length });
			digest.update(part);
		}
		assertThat(CursorBinding.of(PURCHASES, query).fingerprint()).isEqualTo(digest.digest());
	}

	private static byte[] bytes(String text) {
		return text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
	}

	@Test
	void roundTripsTheExclusiveStartKeyIncludingTheBaseTableKey() {
		String cursor = this.codec.encode(books(SortOrder.ASC), ITEM);
		assertThat(cursor).matches("[A-Za-z0-9_-]+");
		assertThat(this.codec.decode(books(SortOrder.ASC), cursor).key()).isEqualTo(Map.of("category",
				AttributeValue.fromS("books"), "purchasedAt", AttributeValue.fromN("1735722000000"), "userId",
				AttributeValue.fromS("user-07")));
	}

	@Test
	void roundTripsBothEndsOfAConnection() {
		for (Position end : List.of(Position.BEFORE_FIRST, Position.AFTER_LAST)) {
			String cursor = this.codec.encode(books(SortOrder.ASC), end);
			assertThat(cursor).matches("[A-Za-z0-9_-]+");
			assertThat(this.codec.decode(books(SortOrder.ASC), cursor)).isSameAs(end);
		}
		assertThat(this.codec.encode(books(SortOrder.ASC), Position.BEFORE_FIRST))
			.isNotEqualTo(this.codec.encode(books(SortOrder.ASC), Position.AFTER_LAST));
		assertThat(this.codec.decode(books(SortOrder.ASC), this.codec.encode(books(SortOrder.ASC), Position.of(ITEM)))
			.key()).containsKey("userId");
	}

	@Test
	void refusesAnEndCursorOfAnotherConnectionAndEveryBitFlipOfOne() {
		String cursor = this.codec.encode(books(SortOrder.ASC), Position.BEFORE_FIRST);
		for (CursorBinding foreign : List.of(books(SortOrder.DESC),
				CursorBinding.of(BY_CATEGORY, ConnectionQuery.partition(AttributeValue.fromS("games"), SortOrder.ASC)),
				CursorBinding.of(PURCHASES, ConnectionQuery.partition(AttributeValue.fromS("books"), SortOrder.ASC)))) {
			assertThatThrownBy(() -> this.codec.decode(foreign, cursor)).isInstanceOf(InvalidCursorException.class);
		}
		assertEveryBitFlipRefused(cursor);
	}

	@Test
	void refusesSignedEndPayloadsThatAreNotOneKnownEnd() throws Exception {
		CursorBinding binding = books(SortOrder.ASC);
		for (byte[] payload : new byte[][] { { 2 }, { 2, 2 }, { 2, -1 }, { 2, 0, 0 }, { 3, 0 } }) {
			String forged = signed(binding, payload);
			assertThatThrownBy(() -> this.codec.decode(binding, forged)).isInstanceOf(InvalidCursorException.class);
		}
		// The same signing, of a well-formed payload, verifies: the refusals above are the payloads'.
		assertThat(this.codec.decode(binding, signed(binding, new byte[] { 2, 1 }))).isSameAs(Position.AFTER_LAST);
	}

	/** A cursor of {@code payload} signed as the codec signs, with its secret. */
	private static String signed(CursorBinding binding, byte[] payload) throws Exception {
		javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
		mac.init(new javax.crypto.spec.SecretKeySpec(bytes("current-secret"), "HmacSHA256"));
		mac.update(binding.fingerprint());
		byte[] signature = mac.doFinal(payload);
		byte[] cursor = java.util.Arrays.copyOf(payload, payload.length + CursorCodec.MAC_LENGTH);
		System.arraycopy(signature, 0, cursor, payload.length, CursorCodec.MAC_LENGTH);
		return Base64.getUrlEncoder().withoutPadding().encodeToString(cursor);
	}

	@Test
	void holdsNoPositionValueInTheClear() {
		Map<String, AttributeValue> item = Map.of("category", AttributeValue.fromS("books"), "purchasedAt",
				AttributeValue.fromN("1735722000000"), "userId", AttributeValue.fromS("someone-else-entirely"));
		String cursor = this.codec.encode(books(SortOrder.ASC), item);
		String raw = new String(Base64.getUrlDecoder().decode(cursor), java.nio.charset.StandardCharsets.ISO_8859_1);
		assertThat(raw).doesNotContain("someone").doesNotContain("else").doesNotContain("173572");
		assertThat(this.codec.decode(books(SortOrder.ASC), cursor).key()).containsEntry("userId",
				AttributeValue.fromS("someone-else-entirely"));
		assertThat(this.codec.encode(books(SortOrder.ASC), item)).as("deterministic").isEqualTo(cursor);
		assertThat(new CursorCodec("another-secret", List.of()).encode(books(SortOrder.ASC), item)).isNotEqualTo(cursor);
	}

	@Test
	void stillAcceptsSignedCursorsOfVersionOneWithTheirValuesInTheClear() throws Exception {
		java.io.ByteArrayOutputStream clear = new java.io.ByteArrayOutputStream();
		clear.write(1);
		clear.write(13);
		clear.writeBytes(bytes("1735722000000"));
		clear.write(7);
		clear.writeBytes(bytes("user-07"));
		String versionOne = signed(books(SortOrder.ASC), clear.toByteArray());
		assertThat(this.codec.decode(books(SortOrder.ASC), versionOne).key()).isEqualTo(Map.of("category",
				AttributeValue.fromS("books"), "purchasedAt", AttributeValue.fromN("1735722000000"), "userId",
				AttributeValue.fromS("user-07")));
		assertThatThrownBy(() -> this.codec.decode(books(SortOrder.DESC), versionOne))
			.isInstanceOf(InvalidCursorException.class);
	}

	@Test
	void isCompact() {
		assertThat(this.codec.encode(books(SortOrder.ASC), ITEM)).hasSizeLessThan(64);
	}

	@Test
	void refusesACursorOfAnotherPartitionOrderPrefixFilterOrField() {
		String cursor = this.codec.encode(books(SortOrder.ASC), ITEM);
		ConnectionQuery books = ConnectionQuery.partition(AttributeValue.fromS("books"), SortOrder.ASC);
		List<CursorBinding> foreign = List.of(books(SortOrder.DESC),
				CursorBinding.of(BY_CATEGORY, ConnectionQuery.partition(AttributeValue.fromS("games"), SortOrder.ASC)),
				CursorBinding.of(BY_CATEGORY, books.withSortCondition(
						Optional.of(KeyCondition.of(KeyCondition.Op.BEGINS_WITH, AttributeValue.fromS("a"))))),
				CursorBinding.of(BY_CATEGORY, books.withFilters(List.of(minimum("10")))),
				CursorBinding.of(PURCHASES, books));
		for (CursorBinding binding : foreign) {
			assertThatThrownBy(() -> this.codec.decode(binding, cursor)).isInstanceOf(InvalidCursorException.class);
		}
	}

	@Test
	void equalFilterBoundsInAnotherSpellingBindAlike() {
		ConnectionQuery query = ConnectionQuery.partition(AttributeValue.fromS("books"), SortOrder.ASC);
		CursorBinding ten = CursorBinding.of(BY_CATEGORY, query.withFilters(List.of(minimum("10"))));
		CursorBinding tenPointZero = CursorBinding.of(BY_CATEGORY, query.withFilters(List.of(minimum("10.0"))));
		assertThat(this.codec.decode(tenPointZero, this.codec.encode(ten, ITEM)).key()).containsKey("userId");
	}

	@Test
	void refusesEverySingleBitFlip() {
		assertEveryBitFlipRefused(this.codec.encode(books(SortOrder.ASC), ITEM));
	}

	/** Each of the cursor's bits flipped in turn: every such cursor is refused by the connection that issued it. */
	private void assertEveryBitFlipRefused(String cursor) {
		byte[] raw = Base64.getUrlDecoder().decode(cursor);
		for (int bit = 0; bit < raw.length * 8; bit++) {
			byte[] flipped = raw.clone();
			flipped[bit / 8] ^= (byte) (1 << (bit % 8));
			String tampered = Base64.getUrlEncoder().withoutPadding().encodeToString(flipped);
			assertThatThrownBy(() -> this.codec.decode(books(SortOrder.ASC), tampered))
				.isInstanceOf(InvalidCursorException.class);
		}
	}

	@Test
	void refusesTruncatedExtendedAndNonCanonicalSpellings() {
		String cursor = this.codec.encode(books(SortOrder.ASC), ITEM);
		Set<String> variants = new HashSet<>();
		for (int length = 0; length < cursor.length(); length++) {
			variants.add(cursor.substring(0, length));
		}
		variants.add(cursor + "A");
		variants.add(cursor + "==");
		variants.add(cursor.replace('-', '+').replace('_', '/'));
		variants.add(" " + cursor);
		// The last character carries unused low bits: another spelling of the same bytes.
		char last = cursor.charAt(cursor.length() - 1);
		String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
		for (int i = 1; i < 4; i++) {
			variants.add(cursor.substring(0, cursor.length() - 1) + alphabet.charAt((alphabet.indexOf(last) + i) % 64));
		}
		variants.remove(cursor);
		for (String variant : variants) {
			assertThatThrownBy(() -> this.codec.decode(books(SortOrder.ASC), variant))
				.as(variant)
				.isInstanceOf(InvalidCursorException.class);
		}
	}

	@Test
	void refusesHundredsOfRandomCursors() {
		Random random = new Random(42);
		String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
		for (int i = 0; i < 500; i++) {
			StringBuilder cursor = new StringBuilder();
			int length = 1 + random.nextInt(80);
			for (int j = 0; j < length; j++) {
				cursor.append(alphabet.charAt(random.nextInt(alphabet.length())));
			}
			assertThatThrownBy(() -> this.codec.decode(books(SortOrder.ASC), cursor.toString()))
				.isInstanceOf(InvalidCursorException.class);
		}
		assertThatThrownBy(() -> this.codec.decode(books(SortOrder.ASC), "x".repeat(5000)))
			.isInstanceOf(InvalidCursorException.class);
	}

	@Test
	void previousSecretsStillVerifyAndNewCursorsUseTheCurrentOne() {
		CursorCodec old = new CursorCodec("old-secret", List.of());
		CursorCodec rotated = new CursorCodec("new-secret", List.of("old-secret"));
		CursorCodec forgotten = new CursorCodec("new-secret", List.of());
		String oldCursor = old.encode(books(SortOrder.ASC), ITEM);
		assertThat(rotated.decode(books(SortOrder.ASC), oldCursor).key()).containsKey("userId");
		assertThatThrownBy(() -> forgotten.decode(books(SortOrder.ASC), oldCursor))
			.isInstanceOf(InvalidCursorException.class);
		String newCursor = rotated.encode(books(SortOrder.ASC), ITEM);
		assertThat(forgotten.decode(books(SortOrder.ASC), newCursor).key()).containsKey("userId");
		assertThatThrownBy(() -> old.decode(books(SortOrder.ASC), newCursor))
			.isInstanceOf(InvalidCursorException.class);
	}

	@Test
	void instancesWithTheSameSecretAcceptEachOthersCursors() {
		CursorCodec other = new CursorCodec("current-secret", List.of());
		assertThat(other.decode(books(SortOrder.ASC), this.codec.encode(books(SortOrder.ASC), ITEM)).key())
			.containsEntry("userId", AttributeValue.fromS("user-07"));
	}

	@Test
	void keepsUnicodeKeysIntact() {
		Map<String, AttributeValue> item = Map.of("userId", AttributeValue.fromS("ユーザー😀"), "purchasedAt",
				AttributeValue.fromN("-12.5"));
		CursorBinding binding = CursorBinding.of(PURCHASES,
				ConnectionQuery.partition(AttributeValue.fromS("ユーザー😀"), SortOrder.ASC));
		assertThat(this.codec.decode(binding, this.codec.encode(binding, item)).key()).isEqualTo(item);
	}

}
