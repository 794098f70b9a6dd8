package dev.dynamorelay.pagination;

import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

import dev.dynamorelay.error.InvalidCursorException;
import dev.dynamorelay.model.ConnectionDefinition;
import dev.dynamorelay.model.Filter;
import dev.dynamorelay.model.KeyAttribute;
import dev.dynamorelay.model.KeyCondition;
import dev.dynamorelay.model.SortOrder;

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


	private static final KeyAttribute BLOB = new KeyAttribute("blob", ScalarAttributeType.B);

	private static final ConnectionDefinition<Object> KEYS = ConnectionDefinition.scan("Query.keys", "Keys",
			Optional.empty(), false, List.of(KeyAttribute.string("name"), KeyAttribute.number("rank"), BLOB), false,
			(item) -> item);

	private static final ConnectionDefinition<Object> BLOBS = ConnectionDefinition.scan("Query.blobs", "Blobs",
			Optional.empty(), false, List.of(BLOB), false, (item) -> item);

	private static final ConnectionDefinition<Object> USERS_BY_ID = ConnectionDefinition.query("Query.userById",
			"Users", Optional.empty(), false, KeyAttribute.string("userId"), Optional.empty(),
			List.of(KeyAttribute.string("userId")), false, (item) -> item);

	private static CursorBinding userPurchases(String userId) {
		return CursorBinding.of(PURCHASES, ConnectionQuery.partition(AttributeValue.fromS(userId), SortOrder.DESC));
	}

	private static Map<String, AttributeValue> purchase(String userId, String purchasedAt) {
		return Map.of("userId", AttributeValue.fromS(userId), "purchasedAt", AttributeValue.fromN(purchasedAt));
	}

	private static AttributeValue blob(int... bytes) {
		byte[] value = new byte[bytes.length];
		for (int i = 0; i < bytes.length; i++) {
			value[i] = (byte) bytes[i];
		}
		return AttributeValue.fromB(SdkBytes.fromByteArray(value));
	}

	@Test
	void roundTripsEveryKindOfKeyValue() {
		CursorBinding keys = CursorBinding.of(KEYS, ConnectionQuery.scan());
		List<Map<String, AttributeValue>> items = List.of(
				Map.of("name", AttributeValue.fromS("a"), "rank", AttributeValue.fromN("0"), "blob", blob(0)),
				Map.of("name", AttributeValue.fromS("ユーザー😀 \u0000 \"quoted\""), "rank",
						AttributeValue.fromN("-123456789012345678901234567890.000000001"), "blob",
						blob(0, 1, 0x7f, 0x80, 0xfe, 0xff)),
				Map.of("name", AttributeValue.fromS("x".repeat(300)), "rank", AttributeValue.fromN("1E+125"), "blob",
						blob(new java.util.Random(3).ints(400, 0, 256).toArray())));
		for (Map<String, AttributeValue> item : items) {
			String cursor = this.codec.encode(keys, item);
			assertThat(cursor).matches("[A-Za-z0-9_-]+");
			assertThat(Base64.getUrlDecoder().decode(cursor)[0]).isEqualTo(CursorCodec.VERSION);
			assertThat(this.codec.decode(keys, cursor).key()).isEqualTo(item);
		}
		// A binding whose partition is the whole position carries nothing: the cursor is the version and the IV.
		CursorBinding alice = CursorBinding.of(USERS_BY_ID,
				ConnectionQuery.partition(AttributeValue.fromS("alice"), SortOrder.ASC));
		String empty = this.codec.encode(alice, Map.of("userId", AttributeValue.fromS("alice")));
		assertThat(Base64.getUrlDecoder().decode(empty)).hasSize(1 + CursorCodec.MAC_LENGTH);
		assertThat(this.codec.decode(alice, empty).key()).isEqualTo(Map.of("userId", AttributeValue.fromS("alice")));
	}

	@Test
	void isTheVersionByteThenAesSivOfTheValuesBoundByTheFingerprintAndVersion() throws Exception {
		// The key, derived here with javax alone (HKDF-SHA256 of RFC 5869: no salt, the fixed info), opens the
		// cursor with a plain Tink AES-SIV: no output prefix, the fingerprint and version byte as associated data.
		CursorBinding binding = userPurchases("user-07");
		byte[] raw = Base64.getUrlDecoder()
			.decode(this.codec.encode(binding, purchase("user-07", "1735722000000")));
		assertThat(raw[0]).isEqualTo((byte) 4);
		com.google.crypto.tink.subtle.AesSiv siv = new com.google.crypto.tink.subtle.AesSiv(
				hkdf(bytes("current-secret"), bytes("dynamo-relay cursor AES-SIV v4"), 64));
		byte[] associatedData = java.util.Arrays.copyOf(binding.fingerprint(), 33);
		associatedData[32] = 4;
		byte[] clear = siv.decryptDeterministically(java.util.Arrays.copyOfRange(raw, 1, raw.length), associatedData);
		byte[] expected = new byte[14];
		expected[0] = 13;
		System.arraycopy(bytes("1735722000000"), 0, expected, 1, 13);
		assertThat(clear).isEqualTo(expected);

		byte[] end = Base64.getUrlDecoder().decode(this.codec.encode(binding, Position.AFTER_LAST));
		assertThat(end).hasSize(1 + CursorCodec.MAC_LENGTH + 1);
		associatedData[32] = 5;
		assertThat(end[0]).isEqualTo((byte) 5);
		assertThat(siv.decryptDeterministically(java.util.Arrays.copyOfRange(end, 1, end.length), associatedData))
			.containsExactly(Position.End.AFTER_LAST.ordinal());
	}

	/** HKDF-SHA256 (RFC 5869) with no salt. */
	private static byte[] hkdf(byte[] secret, byte[] info, int length) throws Exception {
		javax.crypto.Mac extract = javax.crypto.Mac.getInstance("HmacSHA256");
		extract.init(new javax.crypto.spec.SecretKeySpec(new byte[32], "HmacSHA256"));
		byte[] prk = extract.doFinal(secret);
		java.io.ByteArrayOutputStream okm = new java.io.ByteArrayOutputStream();
		byte[] block = new byte[0];
		for (int i = 1; okm.size() < length; i++) {
			javax.crypto.Mac expand = javax.crypto.Mac.getInstance("HmacSHA256");
			expand.init(new javax.crypto.spec.SecretKeySpec(prk, "HmacSHA256"));
			expand.update(block);
			expand.update(info);
			block = expand.doFinal(new byte[] { (byte) i });
			okm.writeBytes(block);
		}
		return java.util.Arrays.copyOf(okm.toByteArray(), length);
	}

	@Test
	void refusesEveryBitFlipOfEveryKindOfCursor() {
		CursorBinding keys = CursorBinding.of(KEYS, ConnectionQuery.scan());
		String cursor = this.codec.encode(keys,
				Map.of("name", AttributeValue.fromS("n"), "rank", AttributeValue.fromN("7.25"), "blob", blob(9, 0xff)));
		byte[] raw = Base64.getUrlDecoder().decode(cursor);
		for (int bit = 0; bit < raw.length * 8; bit++) {
			byte[] flipped = raw.clone();
			flipped[bit / 8] ^= (byte) (1 << (bit % 8));
			String tampered = Base64.getUrlEncoder().withoutPadding().encodeToString(flipped);
			assertThatThrownBy(() -> this.codec.decode(keys, tampered)).isInstanceOf(InvalidCursorException.class);
		}
		// The version byte is bound: the same sealed bytes under the other current version do not open.
		for (Position position : List.of(Position.BEFORE_FIRST, Position.of(Map.of("name", AttributeValue.fromS("n"),
				"rank", AttributeValue.fromN("1"), "blob", blob(1))))) {
			byte[] sealed = Base64.getUrlDecoder().decode(this.codec.encode(keys, position));
			sealed[0] = (sealed[0] == CursorCodec.VERSION) ? CursorCodec.END_VERSION : CursorCodec.VERSION;
			String swapped = Base64.getUrlEncoder().withoutPadding().encodeToString(sealed);
			assertThatThrownBy(() -> this.codec.decode(keys, swapped)).isInstanceOf(InvalidCursorException.class);
		}
	}

	@Test
	void refusesACursorOfAnotherSegmentOrScan() {
		CursorBinding whole = CursorBinding.of(BLOBS, ConnectionQuery.scan());
		CursorBinding first = CursorBinding.of(BLOBS,
				ConnectionQuery.scan().withSegment(new ConnectionQuery.Segment(0, 2)));
		CursorBinding second = CursorBinding.of(BLOBS,
				ConnectionQuery.scan().withSegment(new ConnectionQuery.Segment(1, 2)));
		CursorBinding keys = CursorBinding.of(KEYS, ConnectionQuery.scan());
		for (Position position : List.of(Position.of(Map.of("blob", blob(1, 2, 3))), Position.AFTER_LAST)) {
			String cursor = this.codec.encode(first, position);
			assertThat(this.codec.decode(first, cursor)).isEqualTo(position);
			for (CursorBinding foreign : List.of(whole, second, keys)) {
				assertThatThrownBy(() -> this.codec.decode(foreign, cursor)).isInstanceOf(InvalidCursorException.class);
			}
		}
	}

	@Test
	void rotatedSecretsOpenPreviousCursorsOfEveryKindAndSealWithTheCurrentOne() {
		CursorCodec old = new CursorCodec("old-secret", List.of());
		CursorCodec current = new CursorCodec("new-secret", List.of());
		CursorCodec rotated = new CursorCodec("new-secret", List.of("", "older-secret", "old-secret"));
		CursorBinding binding = userPurchases("user-07");
		for (Position position : List.of(Position.BEFORE_FIRST, Position.AFTER_LAST,
				Position.of(purchase("user-07", "17")))) {
			assertThat(rotated.decode(binding, old.encode(binding, position))).isEqualTo(position);
			assertThat(rotated.encode(binding, position)).isEqualTo(current.encode(binding, position));
			assertThatThrownBy(() -> old.decode(binding, rotated.encode(binding, position)))
				.isInstanceOf(InvalidCursorException.class);
		}
		// And cursors of the code before Tink, issued under the previous secret.
		assertThat(new CursorCodec("new-secret", List.of("fixture-previous")).decode(binding, OLD_PREVIOUS).key())
			.isEqualTo(purchase("user-07", "1735722000000"));
	}

	// Cursors issued by the code before Tink (main at 39c9071), secret "fixture-secret" unless said otherwise:
	// they keep opening, to the same positions, for as long as that code accepted them.

	/** Version 3, User.purchases of user-07, DESC. */
	private static final String OLD_PURCHASE = "A1P0U0D9K0fPCRJwetBQpRJAfuqVmex8PfJHfbtQvA";

	/** Version 3, Query.byCategory of books, ASC, amount at least 10. */
	private static final String OLD_BOOK = "A-NZFVREmNfp8H0FdD_9F4vU_fEBtfjbUamayMRdG7IF67QfGBjBkw";

	/** Version 3, a Scan of a binary key. */
	private static final String OLD_BLOB = "Awk5ExG0_lJANOKmdBwDwL2lZjzvg10";

	/** Version 2, User.purchases of user-07, DESC: before the first item, and behind the last. */
	private static final String OLD_BEFORE_FIRST = "AgBDS48rVgSIY3LmksWB-mHh";

	private static final String OLD_AFTER_LAST = "AgF0RzIMvQVzxYA4T8oWa2ew";

	/** Version 3, as {@link #OLD_PURCHASE} but under the secret "fixture-previous". */
	private static final String OLD_PREVIOUS = "A5cN48VRufS-Bb8C8hxKPV2IJvGq1MMQPvugo2hLCg";

	/** Version 1 (values in the clear), as {@link #OLD_PURCHASE}. */
	private static final String OLD_CLEAR = "AQ0xNzM1NzIyMDAwMDAwcF7t5n0Np7ZYIU_XsOj7Eg";

	private static CursorBinding oldBooks() {
		return CursorBinding.of(BY_CATEGORY, ConnectionQuery.partition(AttributeValue.fromS("books"), SortOrder.ASC)
			.withFilters(List.of(minimum("10"))));
	}

	@Test
	void stillOpensCursorsIssuedBeforeTinkToTheSamePositions() {
		CursorCodec fixture = new CursorCodec("fixture-secret", List.of());
		CursorBinding purchases = userPurchases("user-07");
		assertThat(fixture.decode(purchases, OLD_PURCHASE).key()).isEqualTo(purchase("user-07", "1735722000000"));
		assertThat(fixture.decode(purchases, OLD_CLEAR).key()).isEqualTo(purchase("user-07", "1735722000000"));
		assertThat(fixture.decode(purchases, OLD_BEFORE_FIRST)).isSameAs(Position.BEFORE_FIRST);
		assertThat(fixture.decode(purchases, OLD_AFTER_LAST)).isSameAs(Position.AFTER_LAST);
		assertThat(fixture.decode(oldBooks(), OLD_BOOK).key()).isEqualTo(Map.of("category",
				AttributeValue.fromS("books"), "purchasedAt", AttributeValue.fromN("-12.5"), "userId",
				AttributeValue.fromS("ユーザー😀")));
		assertThat(fixture.decode(CursorBinding.of(BLOBS, ConnectionQuery.scan()), OLD_BLOB).key())
			.isEqualTo(Map.of("blob", blob(0, 1, 0xfe, 0xff, 42)));
		// As a previous secret too, behind a new current one.
		assertThat(new CursorCodec("next-secret", List.of("fixture-secret")).decode(purchases, OLD_PURCHASE).key())
			.isEqualTo(purchase("user-07", "1735722000000"));
		// New cursors of the same positions are the new version, of the same length.
		String renewed = fixture.encode(purchases, purchase("user-07", "1735722000000"));
		assertThat(renewed).isNotEqualTo(OLD_PURCHASE).hasSameSizeAs(OLD_PURCHASE);
		assertThat(fixture.encode(purchases, Position.AFTER_LAST)).hasSameSizeAs(OLD_AFTER_LAST);
	}

	@Test
	void refusesCursorsIssuedBeforeTinkElsewhereOrTampered() {
		CursorCodec fixture = new CursorCodec("fixture-secret", List.of());
		CursorBinding purchases = userPurchases("user-07");
		for (String old : List.of(OLD_PURCHASE, OLD_CLEAR, OLD_BEFORE_FIRST, OLD_AFTER_LAST)) {
			CursorBinding ascending = CursorBinding.of(PURCHASES,
					ConnectionQuery.partition(AttributeValue.fromS("user-07"), SortOrder.ASC));
			for (CursorBinding foreign : List.of(userPurchases("user-08"), ascending, oldBooks())) {
				assertThatThrownBy(() -> fixture.decode(foreign, old)).isInstanceOf(InvalidCursorException.class);
			}
			assertThatThrownBy(() -> this.codec.decode(purchases, old)).as("another secret")
				.isInstanceOf(InvalidCursorException.class);
			byte[] raw = Base64.getUrlDecoder().decode(old);
			for (int bit = 0; bit < raw.length * 8; bit++) {
				byte[] flipped = raw.clone();
				flipped[bit / 8] ^= (byte) (1 << (bit % 8));
				String tampered = Base64.getUrlEncoder().withoutPadding().encodeToString(flipped);
				assertThatThrownBy(() -> fixture.decode(purchases, tampered))
					.isInstanceOf(InvalidCursorException.class);
			}
		}
		assertThatThrownBy(() -> fixture.decode(purchases, OLD_PREVIOUS)).isInstanceOf(InvalidCursorException.class);
	}

	@Test
	void aPurchaseCursorIsFortyTwoCharactersAsBefore() {
		String cursor = this.codec.encode(userPurchases("user-07"), purchase("user-07", "1735722000000"));
		// version (1) + synthetic IV (16) + length and 13 digits (14) = 31 bytes; base64url without padding.
		assertThat(cursor).matches("[A-Za-z0-9_-]+").hasSize(42).hasSameSizeAs(OLD_PURCHASE);
		assertThat(this.codec.encode(userPurchases("user-07"), Position.BEFORE_FIRST)).matches("[A-Za-z0-9_-]+")
			.hasSize(24);
	}

}
