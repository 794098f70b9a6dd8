package dev.dynamorelay.transport.request;

/** How a GraphQL request reached the server, which decides what it may do. */
public enum Transport {

	/** {@code POST /graphql}, or an execution of the server's own (an export, a test). */
	POST,

	/** {@code GET /graphql}: queries only (GraphQL over HTTP: GET must not change anything). */
	GET,

	/** A page of the REST view, run as a GraphQL query. */
	REST,

	/** A WebSocket connection ({@code graphql-transport-ws}): subscriptions, and queries and mutations too. */
	WEBSOCKET;

	/** The request attribute in which the transport says which it is; {@link #POST} when absent. */
	public static final String ATTRIBUTE = Transport.class.getName();

	/** Whether a mutation may run over this transport. */
	public boolean allowsMutations() {
		return this != GET;
	}

}
