/**
 * Reaching DynamoDB: the client and its timeouts, the embedded DynamoDB engine (the project's own,
 * {@code dev.dynamorelay.engine}, embedded by {@code EmbeddedDynamoDb}), what a failed call means, batched item
 * loads, and the start's own patient calls; the declared tables made real at start are {@code tables}'s. Nothing
 * here but {@code tables} knows the declarations.
 */
package dev.dynamorelay.dynamodb;
