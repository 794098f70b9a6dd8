package dev.dynamorelay.declaration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The names of the declared tables and whether to create them.
 *
 * @param prefix prepended to every declared table name
 * @param create create missing declared tables and global indexes, and the stream of new and old images a live
 * connection reads, at start; unset: only on the embedded engine (no {@code dynamo-relay.dynamodb.endpoint}), and
 * against any other endpoint the start only checks the tables and stops with the change to make; {@code true}
 * allows the changes against any endpoint
 */
@ConfigurationProperties("dynamo-relay.tables")
public record TablesProperties(@DefaultValue("") String prefix, Boolean create) {

	/** Whether to create what is missing, given whether DynamoDB is the embedded engine. */
	public boolean create(boolean embedded) {
		return (this.create != null) ? this.create : embedded;
	}

}
