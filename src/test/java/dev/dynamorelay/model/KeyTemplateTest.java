package dev.dynamorelay.model;

import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class KeyTemplateTest {

	private final KeyTemplate order = KeyTemplate.parse("CUSTOMER#{customerId}#ORDER#{orderId}");

	@Test
	void aKeyReadsBackAsTheValuesItWasMadeOf() {
		String key = this.order.fill(Map.of("customerId", "c-1", "orderId", "#7")::get);
		assertThat(key).isEqualTo("CUSTOMER#c-1#ORDER##7");
		assertThat(this.order.matchExactly(key)).hasValue(Map.of("customerId", "c-1", "orderId", "#7"));
	}

	@Test
	void aValueHoldingASeparatorIsRefused() {
		assertThat(this.order.refusal("customerId", "a#ORDER#b")).get().asString()
			.startsWith("must not contain `#ORDER#`");
		assertThat(KeyTemplate.parse("{userId}#{projectId}").refusal("projectId", "p#1")).get().asString()
			.startsWith("must not contain `#`");
	}

	/**
	 * customerId {@code a#ORDER} and orderId {@code #x} hold no separator, but make {@code CUSTOMER#a#ORDER#ORDER##x},
	 * which reads back as customerId {@code a} and orderId {@code ORDER##x}: an owner check on the key would take
	 * another customer's order for {@code a}'s. A value that ends with the beginning of the separator after it is
	 * refused, so that the key is only ever written by the values it reads back as.
	 */
	@Test
	void aValueThatEndsWithTheBeginningOfTheNextSeparatorIsRefused() {
		assertThat(this.order.refusal("customerId", "a#ORDER")).get().asString()
			.startsWith("must not end with `#ORDER`: in the key `CUSTOMER#{customerId}#ORDER#{orderId}` it is followed by "
					+ "`#ORDER#`");
		// `a#` then `#ORDER#`: the separator still first appears where it was written.
		assertThat(this.order.refusal("customerId", "a#")).isEmpty();
		assertThat(this.order.matchExactly("CUSTOMER#a##ORDER#x")).hasValue(Map.of("customerId", "a#", "orderId", "x"));
		assertThat(this.order.refusal("orderId", "#x")).as("the last value: nothing follows it").isEmpty();
		assertThat(this.order.refusal("customerId", "a")).isEmpty();
		assertThat(this.order.refusal("orderId", "ORDER##x")).isEmpty();
		assertThat(this.order.matchExactly("CUSTOMER#a#ORDER#ORDER##x"))
			.hasValue(Map.of("customerId", "a", "orderId", "ORDER##x"));
	}

	@Test
	void aOneCharacterSeparatorRefusesOnlyItself() {
		KeyTemplate template = KeyTemplate.parse("{userId}#{projectId}");
		assertThat(template.refusal("userId", "u-1")).isEmpty();
		assertThat(template.refusal("userId", "u#")).isPresent();
		assertThat(KeyTemplate.parse("{id}#PROFILE").refusal("id", "x#")).as("followed by `#PROFILE`, read back as `x#`")
			.isEmpty();
		assertThat(template.matchExactly("u-1#p-2")).hasValue(Map.of("userId", "u-1", "projectId", "p-2"));
	}

}
