package dev.dynamorelay.live;

import java.util.Map;

import dev.dynamorelay.error.BusyException;

/**
 * A subscription ended because its subscriber fell too far behind: {@code UNAVAILABLE}, and where to resume,
 * {@code extensions.after}: the event id of the last change written to its connection (which the client receives
 * before this error; a few sent after it may come too, and come again on resuming), or of the place before the
 * first change it missed.
 */
public final class FellBehindException extends BusyException {

	/** The extension that holds the event id to resume after. */
	public static final String AFTER = "after";

	private final StreamPosition resume;

	FellBehindException(String why, StreamPosition resume) {
		super(why + ((resume != null)
				? ": subscribe again with `after` set to extensions.after, the eventId of the last change written to the connection."
				: ": nothing was sent to it yet to resume after; refetch the connection and subscribe again without "
						+ "`after`."));
		this.resume = resume;
	}

	@Override
	public Map<String, Object> extensions() {
		return (this.resume != null) ? Map.of(AFTER, this.resume.eventId()) : Map.of();
	}

}
