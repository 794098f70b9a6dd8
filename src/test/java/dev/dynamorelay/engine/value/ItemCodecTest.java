package dev.dynamorelay.engine.value;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ItemCodecTest {

	@Test
	void readsBackEveryTypeAsWritten() {
		Map<String, AttributeValue> item = new LinkedHashMap<>();
		item.put("s", AttributeValue.fromS("héllo 😀"));
		item.put("empty", AttributeValue.fromS(""));
		item.put("n", AttributeValue.fromN("-12.5"));
		item.put("big", AttributeValue.fromN("1" + "0".repeat(125)));
		item.put("b", AttributeValue.fromB(SdkBytes.fromByteArray(new byte[] { 0, -1, 127, -128 })));
		item.put("ss", AttributeValue.fromSs(List.of("a", "ü")));
		item.put("ns", AttributeValue.fromNs(List.of("1", "0.5")));
		item.put("bs", AttributeValue.fromBs(List.of(SdkBytes.fromUtf8String("x"), SdkBytes.fromByteArray(new byte[0]))));
		item.put("t", AttributeValue.fromBool(true));
		item.put("f", AttributeValue.fromBool(false));
		item.put("null", AttributeValue.fromNul(true));
		item.put("l", AttributeValue.fromL(List.of(AttributeValue.fromS("x"), AttributeValue.fromL(List.of()),
				AttributeValue.fromM(Map.of("k", AttributeValue.fromN("3"))))));
		item.put("m", AttributeValue.fromM(Map.of("inner", AttributeValue.fromM(Map.of()), "ün", AttributeValue.fromNul(true))));

		byte[] bytes = ItemCodec.encode(item, null);

		assertThat(ItemCodec.decode(bytes)).isEqualTo(item);
		assertThat(ItemCodec.decode(bytes).keySet()).containsExactlyElementsOf(item.keySet());
		assertThat(ItemCodec.size(bytes)).isEqualTo((int) ItemSize.of(item));
		assertThat(ItemCodec.pageSize(bytes)).isEqualTo((int) ItemSize.pageSize(item, null));
	}

	@Test
	void findsOneAttributeWithoutDecodingTheOthers() {
		Map<String, AttributeValue> item = new LinkedHashMap<>();
		item.put("l", AttributeValue.fromL(List.of(AttributeValue.fromM(Map.of("x", AttributeValue.fromSs(List.of("a")))))));
		item.put("ns", AttributeValue.fromNs(List.of("1")));
		item.put("ttl", AttributeValue.fromN("1700000000"));
		item.put("t", AttributeValue.fromBool(true));
		byte[] bytes = ItemCodec.encode(item, null);

		assertThat(ItemCodec.attribute(bytes, "ttl")).isEqualTo(AttributeValue.fromN("1700000000"));
		assertThat(ItemCodec.attribute(bytes, "t")).isEqualTo(AttributeValue.fromBool(true));
		assertThat(ItemCodec.attribute(bytes, "l")).isEqualTo(item.get("l"));
		assertThat(ItemCodec.attribute(bytes, "tt")).isNull();
	}

	@Test
	void holdsALargeItemCompactly() {
		Random random = new Random(7);
		Map<String, AttributeValue> item = new LinkedHashMap<>();
		for (int i = 0; i < 300; i++) {
			byte[] value = new byte[random.nextInt(1000)];
			random.nextBytes(value);
			item.put("attribute" + i, AttributeValue.fromB(SdkBytes.fromByteArray(value)));
		}
		byte[] bytes = ItemCodec.encode(item, null);
		assertThat(ItemCodec.decode(bytes)).isEqualTo(item);
		// names and values, a tag and a length or two an attribute
		assertThat((long) bytes.length).isLessThan(ItemSize.of(item) + 300 * 4 + 8);
	}

	@Test
	void writesAttributesWithoutTheStoredSizesAndReadsThemBackInOrder() {
		Map<String, AttributeValue> key = new LinkedHashMap<>();
		key.put("pk", AttributeValue.fromS("ü"));
		key.put("sk", AttributeValue.fromN("-1.5"));
		Map<String, AttributeValue> image = new LinkedHashMap<>(key);
		image.put("l", AttributeValue.fromL(List.of(AttributeValue.fromM(Map.of("x", AttributeValue.fromBs(List.of(SdkBytes.fromUtf8String("b"))))))));
		ByteSink out = new ByteSink(16);
		out.write(7);
		ItemCodec.writeAttributes(out, key);
		ItemCodec.writeAttributes(out, image);
		ItemCodec.writeAttributes(out, Map.of());

		ByteSource in = new ByteSource(out.toByteArray());
		assertThat(in.readByte()).isEqualTo(7);
		assertThat(ItemCodec.readAttributes(in)).containsExactlyEntriesOf(key);
		assertThat(ItemCodec.readAttributes(in)).containsExactlyEntriesOf(image);
		assertThat(ItemCodec.readAttributes(in)).isEmpty();
		assertThat(in.atEnd()).isTrue();
		// the stored form is the same attributes after its two sizes
		byte[] stored = ItemCodec.encode(image, null);
		ByteSource afterSizes = new ByteSource(stored);
		afterSizes.readVarint();
		afterSizes.readVarint();
		assertThat(ItemCodec.readAttributes(afterSizes)).isEqualTo(image);
	}

	@Test
	void refusesBytesCutShortInsteadOfReadingPastThem() {
		ByteSink out = new ByteSink(16);
		ItemCodec.writeAttributes(out, Map.of("name", AttributeValue.fromS("a long enough value")));
		byte[] bytes = out.toByteArray();

		for (int length = 0; length < bytes.length; length++) {
			ByteSource cut = new ByteSource(bytes, 0, length);
			assertThatThrownBy(() -> ItemCodec.readAttributes(cut)).isInstanceOf(IllegalArgumentException.class);
		}
		assertThatThrownBy(() -> ItemCodec.readAttributes(new ByteSource(new byte[] { 1, 1, 'a', 99 })))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessage("not an item's bytes: tag 99 at 3");
	}

	@Test
	void sinkAndSourceAgreeOnLongsVarintsStringsAndArrays() {
		ByteSink out = new ByteSink(1);
		out.writeLong(-2);
		out.writeVarLong(Long.MAX_VALUE);
		out.writeVarLong(300);
		out.writeString("shardId-😀");
		out.writeByteArray(new byte[] { 0, -1 });

		ByteSource in = new ByteSource(out.toByteArray());
		assertThat(in.readLong()).isEqualTo(-2);
		assertThat(in.readVarLong()).isEqualTo(Long.MAX_VALUE);
		assertThat(in.readVarint()).isEqualTo(300);
		assertThat(in.readString()).isEqualTo("shardId-😀");
		assertThat(in.readByteArray()).containsExactly(0, -1);
		assertThat(in.atEnd()).isTrue();
		assertThatThrownBy(in::readByte).isInstanceOf(IllegalArgumentException.class);
	}

}
