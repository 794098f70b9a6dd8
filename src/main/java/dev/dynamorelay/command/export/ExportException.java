package dev.dynamorelay.command.export;

/**
 * Why an export stopped, in one paragraph for its user, and the process's exit code: 2 for a command
 * line (or position file) that cannot be run, 1 for a failure while running it.
 */
final class ExportException extends RuntimeException {

	static final int USAGE = 2;

	static final int FAILED = 1;

	private final int exitCode;

	ExportException(int exitCode, String message, Throwable cause) {
		super(message, cause);
		this.exitCode = exitCode;
	}

	static ExportException usage(String message) {
		return new ExportException(USAGE, message, null);
	}

	static ExportException failed(String message, Throwable cause) {
		return new ExportException(FAILED, message, cause);
	}

	int exitCode() {
		return this.exitCode;
	}

}
