/**
 * One execution from start to answer: its request scope made and installed, every failure mapped to the
 * contract's code, {@code extensions.dynamodb} added, and one log line for the fields DynamoDB did not serve.
 */
package dev.dynamorelay.transport.graphql.execution;
