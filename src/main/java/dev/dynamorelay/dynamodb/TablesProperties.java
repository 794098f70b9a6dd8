package dev.dynamorelay.dynamodb;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The names of the tables and whether to create them.
 *
 * @param prefix prepended to {@code Users}, {@code UserPurchases} and {@code Movies}
 * @param create create missing tables and the {@code ByCategory} index at start
 */
@ConfigurationProperties("dynamo-relay.tables")
public record TablesProperties(@DefaultValue("") String prefix, @DefaultValue("true") boolean create) {
}
