package dev.dynamorelay.error;

/** An item the operation depends on does not exist. */
public class NotFoundException extends ApiException {

	public NotFoundException(String message) {
		super(message);
	}

	@Override
	public ErrorCode code() {
		return ErrorCode.NOT_FOUND;
	}

}
