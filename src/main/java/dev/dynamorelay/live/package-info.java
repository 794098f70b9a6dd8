/**
 * Live connections: each table's DynamoDB Stream read once per process (every shard, a child after its
 * parent, each record once: {@link StreamReader}), every record routed to the subscriptions of its partition only
 * (who is subscribed to what is {@link Subscriptions}', apart from the reading), and each subscription's changes
 * judged on the record's old and new images and handed to its subscriber through a buffer bounded in changes and,
 * with what its transport has not yet written, in bytes ({@link LiveMemory}); resumes read the stream again
 * together ({@link Replays}), through the same {@link StreamShards} as the live reading, where each stream record
 * becomes a {@link ChangeRecord}.
 *
 * <p>This package knows nothing of the GraphQL transport: a subscription is a connection's definition and
 * query (with the caller's owner filters), and its changes are values ({@link Change}). Its settings
 * ({@code dynamo-relay.live.*}) and beans are its own ({@link LiveConfiguration}).
 */
package dev.dynamorelay.live;
