package dev.dynamorelay.engine.journal;

import java.io.IOException;

/**
 * An engine cannot start on its {@code path}: another engine uses the directory, it cannot be written, or its
 * journal is damaged ({@link JournalDamagedException}). The message says which, and what to do.
 */
public final class JournalUnusableException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	public JournalUnusableException(IOException cause) {
		super(cause.getMessage(), cause);
	}

}
