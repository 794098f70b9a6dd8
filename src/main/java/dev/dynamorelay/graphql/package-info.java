/**
 * The GraphQL layer: the schema's data fetchers, connection declarations, node ids, error mapping
 * and response extensions. It knows nothing of how a cursor is encoded.
 */
package dev.dynamorelay.graphql;
