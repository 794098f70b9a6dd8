/**
 * {@code check}: the schema files read and, given an endpoint, compared with the tables, as the server's start
 * does, without starting a server.
 */
package dev.dynamorelay.command.check;
