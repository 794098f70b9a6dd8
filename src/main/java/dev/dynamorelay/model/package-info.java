/**
 * The values every capability shares: a table and its keys ({@code Table}, {@code KeyAttribute}), a declared type
 * and its items ({@code Entity}, {@code Item}, {@code KeyTemplate}, {@code KeyValue}, {@code ValueType}), what a
 * connection reads ({@code ConnectionDefinition}, {@code KeyCondition}, {@code Filter}, {@code SortOrder}) and
 * DynamoDB's own rules on values ({@code AttributeValues}, {@code DynamoDbNumbers}, {@code IsoMillis}).
 *
 * <p>Made by the declarations, read by pagination, writes, live connections, the commands and the transports;
 * it knows none of them.
 */
package dev.dynamorelay.model;
