package dev.dynamorelay.engine.journal;

/**
 * How the journal writes.
 *
 * @param groupCommit whether writers that commit while the log is being forced to disk share the next force (one
 * frame, one fsync for all of them); without, each commit is written and forced alone (for measurement)
 * @param snapshotBytes the bytes of log written since the last snapshot at which a new snapshot is written in the
 * background: what bounds the time a start takes to replay the log
 */
public record JournalOptions(boolean groupCommit, long snapshotBytes) {

	public JournalOptions {
		if (snapshotBytes < 1) {
			throw new IllegalArgumentException("snapshotBytes must be positive");
		}
	}

	/** Group commit, and a snapshot every 64 MiB of log. */
	public static JournalOptions defaults() {
		return new JournalOptions(true, 64L << 20);
	}

}
