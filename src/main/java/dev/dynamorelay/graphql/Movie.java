package dev.dynamorelay.graphql;

import java.util.List;
import java.util.Map;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The GraphQL {@code Movie}: an item of the {@code Movies} table. */
public record Movie(int year, String title, Double rating, List<String> genres, String plot) {

	static Movie from(Map<String, AttributeValue> item) {
		return new Movie((int) Items.wholeNumber(item, "year"), Items.string(item, "title"), Items.number(item, "rating"),
				Items.sortedStrings(item, "genres"), Items.string(item, "plot"));
	}

	public String id() {
		return new NodeId.MovieId(this.year, this.title).encode();
	}

}
