/**
 * Everything about reaching DynamoDB: the client, the embedded DynamoDB Local, the tables and their
 * sample data, batched item loads and health.
 */
package dev.dynamorelay.dynamodb;
