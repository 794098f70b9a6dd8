/**
 * {@code export <Type.field>} ({@code ExportCommand}): every node of a declared connection written to a file as
 * JSON Lines, through the same pagination engine, declarations and cursors as GraphQL, resumable from a sealed
 * position file.
 */
package dev.dynamorelay.command.export;
