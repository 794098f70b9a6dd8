/**
 * The {@code aot-cache} command: a JVM AOT cache (Java 25) for {@code java -jar} users, made by a training run
 * of the server under {@link dev.dynamorelay.command.aot.TrainingLoad}.
 */
package dev.dynamorelay.command.aot;
