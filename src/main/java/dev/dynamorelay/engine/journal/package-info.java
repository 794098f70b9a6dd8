/**
 * The engine's durability with {@code --path DIR}: {@link dev.dynamorelay.engine.journal.Journal}, a write-ahead
 * log of every commit and table change forced to disk before the operation answers (group commit), snapshots in
 * the background, and recovery at start; {@link dev.dynamorelay.engine.journal.DatabaseJournal} puts it between
 * the engine's {@link dev.dynamorelay.engine.store.Database} and its {@link dev.dynamorelay.engine.streams.Streams}.
 *
 * <p>Files in the directory: {@code lock} (held while an engine uses it), {@code log-<first entry>.log} (frames of
 * entries, each frame forced before the next is written), {@code snapshot-<entry>.snap} (the tables, their items
 * and the streams as of that entry; the log before it is deleted once it is in place).
 */
package dev.dynamorelay.engine.journal;
