package dev.dynamorelay.error;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A write whose condition does not hold: the item exists already (a create), its version is not the
 * expected one, or a declared condition fails; nothing was written.
 */
public class ConflictException extends ApiException {

	private final Map<String, Object> extensions;

	/**
	 * @param message what did not hold, and what to do
	 * @param currentVersion the stored item's version, where known
	 * @param part the part of the input the failed write came from (e.g. {@code input[2]}), in a transaction
	 */
	public ConflictException(String message, Optional<Long> currentVersion, Optional<String> part) {
		super(message);
		Map<String, Object> extensions = new LinkedHashMap<>();
		currentVersion.ifPresent((version) -> extensions.put("currentVersion", version));
		part.ifPresent((name) -> extensions.put("part", name));
		this.extensions = Map.copyOf(extensions);
	}

	@Override
	public ErrorCode code() {
		return ErrorCode.CONFLICT;
	}

	@Override
	public Map<String, Object> extensions() {
		return this.extensions;
	}

}
