package dev.dynamorelay.error;

/** A request beyond a configured limit: deeper, wider or costlier, or one subscription too many. */
public class QueryTooComplexException extends ApiException {

	public QueryTooComplexException(String message) {
		super(message);
	}

	@Override
	public ErrorCode code() {
		return ErrorCode.QUERY_TOO_COMPLEX;
	}

}
