package dev.dynamorelay.pagination;

/** Which way a page is read relative to the connection's own order. */
public enum Direction {

	/** {@code first}/{@code after}: items behind the cursor. */
	FORWARD,

	/** {@code last}/{@code before}: items in front of the cursor, read in reverse. */
	BACKWARD

}
