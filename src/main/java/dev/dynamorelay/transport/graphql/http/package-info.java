/**
 * GraphQL over HTTP: the endpoint's routes (POST, GET, Server-Sent Events), what a request body may be,
 * and the answers to requests that are not GraphQL requests at all.
 */
package dev.dynamorelay.transport.graphql.http;
