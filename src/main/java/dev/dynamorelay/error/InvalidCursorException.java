package dev.dynamorelay.error;

/** A cursor that the connection it was passed to did not issue: garbled, tampered or foreign. */
public class InvalidCursorException extends ApiException {

	public InvalidCursorException(String message) {
		super(message);
	}

	@Override
	public ErrorCode code() {
		return ErrorCode.INVALID_CURSOR;
	}

}
