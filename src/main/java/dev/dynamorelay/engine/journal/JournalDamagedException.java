package dev.dynamorelay.engine.journal;

import java.io.IOException;

/**
 * The journal's files hold damage that no crash makes: a record in the middle of the log, or a snapshot, that fails
 * its checksum, or records missing between others. Acknowledged writes would be lost past it, so the engine does
 * not start; its message says which file, where, and what to do.
 */
public final class JournalDamagedException extends IOException {

	private static final long serialVersionUID = 1L;

	public JournalDamagedException(String message) {
		super(message);
	}

}
