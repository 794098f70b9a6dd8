/**
 * Finding a request's document: parsed and validated documents kept by query text, Apollo's automatic
 * persisted queries, and mutations refused over transports that must not change anything.
 */
package dev.dynamorelay.transport.graphql.document;
