package dev.dynamorelay.graphql;

import graphql.GraphQLContext;
import graphql.schema.DataFetchingEnvironment;

import dev.dynamorelay.pagination.ReadStats;

/** Finds the request's {@link ReadStats} in the GraphQL context, where the response interceptor put it. */
public final class RequestStats {

	private RequestStats() {
	}

	public static ReadStats of(DataFetchingEnvironment environment) {
		return of(environment.getGraphQlContext());
	}

	static ReadStats of(GraphQLContext context) {
		ReadStats stats = (context != null) ? context.get(ReadStats.class) : null;
		return (stats != null) ? stats : new ReadStats();
	}

	static void install(GraphQLContext context, ReadStats stats) {
		context.put(ReadStats.class, stats);
	}

}
