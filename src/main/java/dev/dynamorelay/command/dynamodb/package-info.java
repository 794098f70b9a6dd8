/**
 * {@code dynamodb} ({@code DynamoDbCommand}): the project's own DynamoDB engine run as a process of its own, for
 * other programs, several servers and the benchmark (docs/engine.md).
 */
package dev.dynamorelay.command.dynamodb;
