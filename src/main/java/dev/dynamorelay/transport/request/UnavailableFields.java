package dev.dynamorelay.transport.request;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The fields of one execution answered {@code UNAVAILABLE}, gathered so that the request logs one line
 * for all of them, not one per field: a request whose time runs out fails
 * every field still reading at once, a thousand of them for a wide request's nested lookups.
 *
 * <p>It keeps the number of fields, the first one's path, and the causes told apart by their class (the
 * first message of each) with the fields of each, the first few classes only. Thread-safe: fields fail
 * on any thread.
 */
public final class UnavailableFields {

	/** Causes told apart in the line; the rest are counted together. */
	private static final int MAX_CAUSES = 3;

	private int fields;

	private String firstPath;

	/** By the cause's class: the first message of the class, and the fields it failed. */
	private final Map<Class<?>, Cause> causes = new LinkedHashMap<>();

	private int otherCauses;

	public synchronized void add(Object path, Throwable cause) {
		this.fields++;
		if (this.firstPath == null) {
			this.firstPath = String.valueOf(path);
		}
		Cause known = this.causes.get(cause.getClass());
		if (known != null) {
			known.fields++;
		}
		else if (this.causes.size() < MAX_CAUSES) {
			this.causes.put(cause.getClass(), new Cause(cause.toString()));
		}
		else {
			this.otherCauses++;
		}
	}

	public synchronized int fields() {
		return this.fields;
	}

	/** E.g. {@code 20 fields (the first at /f0): ApiCallTimeoutException: ... (2 fields); ...}. */
	public synchronized String summary() {
		String causes = this.causes.values()
			.stream()
			.map((cause) -> cause.described + " (" + fields(cause.fields) + ")")
			.collect(Collectors.joining("; "));
		if (this.otherCauses > 0) {
			causes += "; other causes (" + fields(this.otherCauses) + ")";
		}
		return fields(this.fields) + " (the first at " + this.firstPath + "): " + causes;
	}

	private static String fields(int count) {
		return count + ((count == 1) ? " field" : " fields");
	}

	private static final class Cause {

		private final String described;

		private int fields = 1;

		Cause(String described) {
			this.described = described;
		}

	}

}
