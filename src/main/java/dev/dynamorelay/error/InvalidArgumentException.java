package dev.dynamorelay.error;

/** An argument a client passed cannot be served as given. */
public class InvalidArgumentException extends ApiException {

	public InvalidArgumentException(String message) {
		super(message);
	}

	@Override
	public ErrorCode code() {
		return ErrorCode.INVALID_ARGUMENT;
	}

}
