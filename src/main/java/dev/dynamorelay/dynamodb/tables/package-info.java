/**
 * The declared tables made real at start: created where missing (when allowed), checked against
 * DescribeTable with one report of every mismatch, and DynamoDB's health reported by one of them.
 */
package dev.dynamorelay.dynamodb.tables;
