package dev.dynamorelay.engine.expr;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.engine.action.AwsError;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Values, items and assertions the expression tests share. */
final class Fixtures {

	private Fixtures() {
	}

	static AttributeValue s(String value) {
		return AttributeValue.fromS(value);
	}

	static AttributeValue n(String value) {
		return AttributeValue.fromN(value);
	}

	static AttributeValue b(int... bytes) {
		byte[] raw = new byte[bytes.length];
		for (int i = 0; i < bytes.length; i++) {
			raw[i] = (byte) bytes[i];
		}
		return AttributeValue.fromB(SdkBytes.fromByteArray(raw));
	}

	static AttributeValue ss(String... values) {
		return AttributeValue.fromSs(Arrays.asList(values));
	}

	static AttributeValue ns(String... values) {
		return AttributeValue.fromNs(Arrays.asList(values));
	}

	static AttributeValue bs(AttributeValue... binaries) {
		return AttributeValue.fromBs(Arrays.stream(binaries).map(AttributeValue::b).toList());
	}

	static AttributeValue bool(boolean value) {
		return AttributeValue.fromBool(value);
	}

	static AttributeValue nul() {
		return AttributeValue.fromNul(true);
	}

	static AttributeValue l(AttributeValue... values) {
		return AttributeValue.fromL(List.of(values));
	}

	/** A map value of alternating names and values. */
	static AttributeValue m(Object... entries) {
		return AttributeValue.fromM(map(entries));
	}

	/** An item (or map) of alternating names and values. */
	static Map<String, AttributeValue> map(Object... entries) {
		Map<String, AttributeValue> map = new LinkedHashMap<>();
		for (int i = 0; i < entries.length; i += 2) {
			map.put((String) entries[i], (AttributeValue) entries[i + 1]);
		}
		return map;
	}

	/** Names of alternating placeholders and names. */
	static Map<String, String> names(String... entries) {
		Map<String, String> map = new LinkedHashMap<>();
		for (int i = 0; i < entries.length; i += 2) {
			map.put(entries[i], entries[i + 1]);
		}
		return map;
	}

	static void refused(Runnable call, String message) {
		assertThatThrownBy(call::run).isInstanceOf(AwsError.class)
			.hasMessage(message)
			.satisfies(error -> org.assertj.core.api.Assertions.assertThat(((AwsError) error).type()).isEqualTo("ValidationException"));
	}

}
