package dev.dynamorelay.command.schemagen;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class GraphQlNamesTest {

	@Test
	void typeNamesAreSingularPascalCase() {
		assertThat(GraphQlNames.typeName("Movies")).isEqualTo("Movie");
		assertThat(GraphQlNames.typeName("UserPurchases")).isEqualTo("UserPurchase");
		assertThat(GraphQlNames.typeName("order-lines")).isEqualTo("OrderLine");
		assertThat(GraphQlNames.typeName("user_sessions")).isEqualTo("UserSession");
		assertThat(GraphQlNames.typeName("USERS")).isEqualTo("User");
		assertThat(GraphQlNames.typeName("Categories")).isEqualTo("Category");
		assertThat(GraphQlNames.typeName("Addresses")).isEqualTo("Address");
		assertThat(GraphQlNames.typeName("Boxes")).isEqualTo("Box");
		assertThat(GraphQlNames.typeName("Matches")).isEqualTo("Match");
		assertThat(GraphQlNames.typeName("Status")).isEqualTo("Status");
		assertThat(GraphQlNames.typeName("TvSeries")).isEqualTo("TvSeries");
		assertThat(GraphQlNames.typeName("People")).isEqualTo("Person");
		assertThat(GraphQlNames.typeName("Cookies")).isEqualTo("Cookie");
		assertThat(GraphQlNames.typeName("Éclairs")).isEqualTo("Eclair");
		assertThat(GraphQlNames.typeName("Data")).isEqualTo("Data");
		assertThat(GraphQlNames.typeName("2024-logs")).isEqualTo("Table2024Log");
		assertThat(GraphQlNames.typeName("---")).isEqualTo("Item");
	}

	@Test
	void keyPrefixesNameTypes() {
		assertThat(GraphQlNames.typeName("CUSTOMER#")).isEqualTo("Customer");
		assertThat(GraphQlNames.typeName("ORDER_ITEMS#")).isEqualTo("OrderItem");
		assertThat(GraphQlNames.typeName("GSI1")).isEqualTo("GSI1");
	}

	@Test
	void fieldNamesKeepValidAttributeNames() {
		assertThat(GraphQlNames.field("title")).isEqualTo("title");
		assertThat(GraphQlNames.field("Title")).isEqualTo("Title");
		assertThat(GraphQlNames.field("user_id")).isEqualTo("user_id");
		assertThat(GraphQlNames.field("purchasedAt")).isEqualTo("purchasedAt");
	}

	@Test
	void fieldNamesOfInvalidAttributeNamesAreLowerCamelCase() {
		assertThat(GraphQlNames.field("user-id")).isEqualTo("userId");
		assertThat(GraphQlNames.field("first name")).isEqualTo("firstName");
		assertThat(GraphQlNames.field("User-ID")).isEqualTo("userID");
		assertThat(GraphQlNames.field("shippedAt-utc")).isEqualTo("shippedAtUtc");
		assertThat(GraphQlNames.field("2fa")).isEqualTo("_2fa");
		assertThat(GraphQlNames.field("__meta")).isEqualTo("meta");
		assertThat(GraphQlNames.field("naïve")).isEqualTo("naive");
		assertThat(GraphQlNames.field("€")).isEqualTo("attribute");
		for (String attribute : new String[] { "user-id", "2fa", "__meta", "€", "a.b", "x y" }) {
			assertThat(GraphQlNames.isValid(GraphQlNames.field(attribute))).as(attribute).isTrue();
		}
	}

	@Test
	void rootFieldNamesComeFromTableAndIndexNames() {
		assertThat(GraphQlNames.lowerCamel(GraphQlNames.tablePascal("Movies"))).isEqualTo("movies");
		assertThat(GraphQlNames.lowerCamel(GraphQlNames.tablePascal("user_purchases"))).isEqualTo("userPurchases");
		assertThat(GraphQlNames.lowerCamel(GraphQlNames.tablePascal("URLMappings"))).isEqualTo("urlMappings");
		assertThat(GraphQlNames.lowerCamel(GraphQlNames.tablePascal("2024-logs"))).isEqualTo("table2024Logs");
		assertThat(GraphQlNames.indexSuffix("ByCategory")).isEqualTo("ByCategory");
		assertThat(GraphQlNames.indexSuffix("by_status")).isEqualTo("ByStatus");
		assertThat(GraphQlNames.indexSuffix("category-index")).isEqualTo("ByCategory");
		assertThat(GraphQlNames.indexSuffix("GSI1")).isEqualTo("ByGSI1");
		assertThat(GraphQlNames.indexSuffix("Byline")).isEqualTo("ByByline");
		assertThat(GraphQlNames.indexSuffix("Index")).isEqualTo("ByIndex");
	}

	@Test
	void takenNamesGetNumbers() {
		UniqueNames names = new UniqueNames("Query");
		assertThat(names.claim("Query")).isEqualTo("Query2");
		assertThat(names.claim("Movie", "Connection", "Edge")).isEqualTo("Movie");
		assertThat(names.claim("Movie", "Connection", "Edge")).isEqualTo("Movie2");
		assertThat(names.claim("MovieConnection")).isEqualTo("MovieConnection2");
		assertThat(names.claim("Film")).isEqualTo("Film");
		assertThat(names.claim("Fi", "lm")).isEqualTo("Fi2");
	}

}
