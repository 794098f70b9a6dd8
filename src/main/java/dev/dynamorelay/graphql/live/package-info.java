/**
 * Wiring live connections to GraphQL: each {@code @live} subscription field's publisher of changes (the
 * caller's rules and limits checked when it subscribes), the WebSocket transport's callers and its closing on
 * shutdown, and the stream readers' configuration.
 */
package dev.dynamorelay.graphql.live;
