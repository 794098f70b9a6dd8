/**
 * Wiring declared fields to the engines: every declared field gets its data fetcher (connections through
 * the pagination engine, lookups batched into BatchGetItem, node ids), with the declaration language's
 * scalars. It knows nothing of how a cursor is encoded.
 */
package dev.dynamorelay.transport.graphql;
