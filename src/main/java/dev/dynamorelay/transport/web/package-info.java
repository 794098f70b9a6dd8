/**
 * The pages the server serves from its own assets: the infinite-scroll page at {@code /} and
 * GraphiQL at {@code /graphiql}, both built from {@code web/} during the Maven build.
 */
package dev.dynamorelay.transport.web;
