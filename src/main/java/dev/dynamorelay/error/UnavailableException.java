package dev.dynamorelay.error;

/** DynamoDB could not serve a request in time: unreachable, throttled past retries, or silent. */
public class UnavailableException extends ApiException {

	public UnavailableException(String message, Throwable cause) {
		super(message, cause);
	}

	@Override
	public ErrorCode code() {
		return ErrorCode.UNAVAILABLE;
	}

}
