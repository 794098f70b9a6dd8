/**
 * Wiring live connections to GraphQL: each {@code @live} subscription field's publisher of changes (the
 * caller's rules and limits checked when it subscribes), each subscription tied to its transport connection's
 * account of bytes, the WebSocket transport's callers, the messages it takes (4400 for what is no protocol
 * message), what it tells written, its closing on shutdown, and the stream readers' configuration.
 */
package dev.dynamorelay.transport.graphql.live;
