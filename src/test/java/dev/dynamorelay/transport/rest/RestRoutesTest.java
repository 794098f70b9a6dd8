package dev.dynamorelay.transport.rest;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The REST path rule's collection names. */
class RestRoutesTest {

	@Test
	void collectionsAreLowerCamelPlurals() {
		assertThat(RestRoutes.collection("User")).isEqualTo("users");
		assertThat(RestRoutes.collection("OrderItem")).isEqualTo("orderItems");
		assertThat(RestRoutes.collection("Category")).isEqualTo("categories");
		assertThat(RestRoutes.collection("Day")).isEqualTo("days");
		assertThat(RestRoutes.collection("Address")).isEqualTo("addresses");
		assertThat(RestRoutes.collection("Box")).isEqualTo("boxes");
		assertThat(RestRoutes.collection("Match")).isEqualTo("matches");
	}

}
