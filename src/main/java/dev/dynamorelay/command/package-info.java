/**
 * The wing of the jar's commands, each a process of its own beside the server: what they share ({@code cli}),
 * {@code export}, {@code generate-schema} ({@code schemagen}), {@code generate-iam-policy} ({@code iam}),
 * {@code aot-cache} ({@code aot}), {@code check} and {@code dynamodb}, which runs the project's engine alone. The
 * commands use the capabilities and declarations as the server does, and never the transports.
 */
package dev.dynamorelay.command;
