package dev.dynamorelay.pagination;

import java.util.List;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The secrets cursors are signed with.
 *
 * @param secret signs new cursors; required unless DynamoDB is embedded (then random per process)
 * @param previousSecrets earlier secrets whose cursors are still accepted (comma-separated)
 */
@ConfigurationProperties("dynamo-relay.cursor")
public record CursorProperties(String secret, @DefaultValue List<String> previousSecrets) {
}
