package dev.dynamorelay.declaration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The names of the declared tables and whether to create them.
 *
 * @param prefix prepended to every declared table name
 * @param create create missing declared tables and global indexes at start
 */
@ConfigurationProperties("dynamo-relay.tables")
public record TablesProperties(@DefaultValue("") String prefix, @DefaultValue("true") boolean create) {
}
