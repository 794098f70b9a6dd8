package dev.dynamorelay.graphql;

import java.util.List;
import java.util.Optional;

import org.springframework.stereotype.Component;

import dev.dynamorelay.dynamodb.Tables;
import dev.dynamorelay.pagination.ConnectionDefinition;
import dev.dynamorelay.pagination.KeyAttribute;

/**
 * The schema's four connections, each declared over its table or index.
 *
 * <p>A position key lists every attribute of DynamoDB's {@code ExclusiveStartKey}: for the GSI, the
 * index keys and then the base table's keys, which also order items sharing one index key.
 */
@Component
public class Connections {

	private static final KeyAttribute USER_ID = KeyAttribute.string("userId");

	private static final KeyAttribute PURCHASED_AT = KeyAttribute.number("purchasedAt");

	private static final KeyAttribute CATEGORY = KeyAttribute.string("category");

	private static final KeyAttribute YEAR = KeyAttribute.number("year");

	private static final KeyAttribute TITLE = KeyAttribute.string("title");

	final ConnectionDefinition<User> users;

	final ConnectionDefinition<Purchase> userPurchases;

	final ConnectionDefinition<Purchase> purchasesByCategory;

	final ConnectionDefinition<Movie> movies;

	public Connections(Tables tables) {
		this.users = ConnectionDefinition.scan("Query.users", tables.users(), List.of(USER_ID), User::from);
		this.userPurchases = ConnectionDefinition.query("User.purchases", tables.purchases(), Optional.empty(),
				USER_ID, PURCHASED_AT, List.of(USER_ID, PURCHASED_AT), Purchase::from);
		this.purchasesByCategory = ConnectionDefinition.query("Query.purchasesByCategory", tables.purchases(),
				Optional.of(Tables.BY_CATEGORY), CATEGORY, PURCHASED_AT, List.of(CATEGORY, PURCHASED_AT, USER_ID),
				Purchase::from);
		this.movies = ConnectionDefinition.query("Query.movies", tables.movies(), Optional.empty(), YEAR, TITLE,
				List.of(YEAR, TITLE), Movie::from);
	}

}
