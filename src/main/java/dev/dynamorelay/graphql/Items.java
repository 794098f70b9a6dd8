package dev.dynamorelay.graphql;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Reads typed attribute values from DynamoDB items written by anyone: a missing or mistyped
 * optional attribute reads as {@code null} rather than failing the page.
 */
final class Items {

	private Items() {
	}

	static String string(Map<String, AttributeValue> item, String name) {
		AttributeValue value = item.get(name);
		return (value != null) ? value.s() : null;
	}

	static Double number(Map<String, AttributeValue> item, String name) {
		AttributeValue value = item.get(name);
		if (value == null || value.n() == null) {
			return null;
		}
		return new BigDecimal(value.n()).doubleValue();
	}

	static long wholeNumber(Map<String, AttributeValue> item, String name) {
		return new BigDecimal(item.get(name).n()).longValue();
	}

	static List<String> sortedStrings(Map<String, AttributeValue> item, String name) {
		AttributeValue value = item.get(name);
		if (value == null) {
			return null;
		}
		List<String> strings = new ArrayList<>();
		if (value.hasSs()) {
			strings.addAll(value.ss());
		}
		else if (value.hasL()) {
			value.l().stream().map(AttributeValue::s).filter((s) -> s != null).forEach(strings::add);
		}
		else {
			return null;
		}
		strings.sort(null);
		return strings;
	}

}
