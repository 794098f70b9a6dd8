/**
 * What the jar's commands share ({@code Commands}): standard output holds the command's own output alone, a
 * failure is one line on standard error, and an unknown option or {@code dynamo-relay.*} property is refused
 * with what was most likely meant ({@code PropertyNames}, from the configuration metadata); the version
 * ({@code Version}) and {@code generate-completion}.
 */
package dev.dynamorelay.command.cli;
