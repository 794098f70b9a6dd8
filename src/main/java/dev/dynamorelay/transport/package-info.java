/**
 * The wing that answers clients: GraphQL over HTTP, WebSocket and Server-Sent Events ({@code graphql}), the
 * REST view ({@code rest}), the servlet's guards and the server's own pages ({@code web}), and one request's
 * scope whatever brought it ({@code request}). It turns requests into calls of the capabilities below it and
 * their answers into the contract's shapes; nothing below it knows a transport.
 */
package dev.dynamorelay.transport;
