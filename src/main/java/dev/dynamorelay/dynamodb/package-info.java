/**
 * Reaching DynamoDB: the client and its timeouts, the embedded DynamoDB engine (the project's own,
 * {@code dev.dynamorelay.engine}) and the jar's {@code dynamodb} command that runs it on its own, what a failed
 * call means, batched item loads, and the start's own patient calls. Nothing here knows the declarations.
 */
package dev.dynamorelay.dynamodb;
