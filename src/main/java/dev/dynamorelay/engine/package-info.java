/**
 * The project's own DynamoDB: an in-memory (or journalled) engine that speaks DynamoDB's and DynamoDB
 * Streams' JSON wire protocol, so that the AWS SDKs and the aws CLI talk to it unchanged. The server embeds
 * it when no endpoint is configured; the jar's {@code dynamodb} command runs it on its own.
 *
 * <p>This package and its subpackages import nothing else of the project (an architecture test says so):
 * requests and answers are the AWS SDK's own model classes, the rules are DynamoDB's documented ones.
 */
package dev.dynamorelay.engine;
