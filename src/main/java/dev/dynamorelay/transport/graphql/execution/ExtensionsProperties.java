package dev.dynamorelay.transport.graphql.execution;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Response extensions.
 *
 * @param enabled add {@code extensions.dynamodb} (requests, scannedCount, count, consumedCapacity)
 */
@ConfigurationProperties("dynamo-relay.extensions")
public record ExtensionsProperties(@DefaultValue("true") boolean enabled) {
}
