package dev.dynamorelay.engine.journal;

import java.io.IOException;

/**
 * The journal's files are of a format this engine does not read (written by an engine of another version): the
 * engine does not start rather than misread them or take them for damage. Its message names the directory, the
 * file and both formats, and says what to do.
 */
public final class JournalFormatException extends IOException {

	private static final long serialVersionUID = 1L;

	public JournalFormatException(String message) {
		super(message);
	}

}
