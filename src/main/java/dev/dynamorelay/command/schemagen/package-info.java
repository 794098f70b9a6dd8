/**
 * {@code generate-schema}: the tables at an endpoint, sampled and described, become a schema file in the
 * declaration language that serves them as they are.
 */
package dev.dynamorelay.command.schemagen;
