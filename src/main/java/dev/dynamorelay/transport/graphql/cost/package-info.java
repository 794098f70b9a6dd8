/**
 * What one operation may cost, estimated from its document and variables before anything runs, and the
 * limits that refuse it ({@code QUERY_TOO_COMPLEX}).
 */
package dev.dynamorelay.transport.graphql.cost;
