/**
 * The REST view of the declared connections ({@code RestView}): {@code GET /api/...} answered with
 * {@code {"<field>": [nodes], "nextToken": "<cursor>" | null}}, each page run as a GraphQL operation generated at
 * start, through the same handler as GraphQL over HTTP, and its OpenAPI document.
 */
package dev.dynamorelay.transport.rest;
