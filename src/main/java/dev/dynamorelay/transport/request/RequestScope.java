package dev.dynamorelay.transport.request;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

import graphql.GraphQLContext;
import graphql.schema.DataFetchingEnvironment;

import dev.dynamorelay.access.Caller;
import dev.dynamorelay.budget.ReadStats;

/**
 * One GraphQL execution's scope: who sent it, how, under which id, with what budgets, and what it did
 * that its transport answers by (a mutation refused over GET, a page cut by its budget, the operation
 * it ran).
 *
 * <p>Made once per execution, by the interceptor every request passes, from what the transport left in
 * the request's attributes ({@link Caller#ATTRIBUTE}, {@link Transport#ATTRIBUTE}), and put in the
 * execution's GraphQL context, where every data fetcher finds it ({@link #of}). Thread-safe: fields run
 * on any thread.
 */
public final class RequestScope {

	private final Optional<String> id;

	private final Caller caller;

	private final Transport transport;

	private final ReadStats stats;

	private final UnavailableFields unavailable = new UnavailableFields();

	private final AtomicBoolean cut = new AtomicBoolean();

	private final AtomicBoolean refusedMutation = new AtomicBoolean();

	private volatile String operationName;

	/** The client's network address, where the transport knows it. */
	private volatile String client;

	/**
	 * @param id the request's id, as logged and answered in {@code X-Request-Id}
	 * @param caller who sent it
	 * @param transport how it came
	 * @param stats its deadline, item budget and DynamoDB calls, and what they cost
	 */
	public RequestScope(Optional<String> id, Caller caller, Transport transport, ReadStats stats) {
		this.id = Objects.requireNonNull(id, "id");
		this.caller = Objects.requireNonNull(caller, "caller");
		this.transport = Objects.requireNonNull(transport, "transport");
		this.stats = Objects.requireNonNull(stats, "stats");
	}

	/**
	 * The scope of a request that came with {@code attributes}: its caller and transport as the transport
	 * left them there (anonymous and {@link Transport#POST} when it left nothing).
	 */
	public static RequestScope of(Optional<String> id, Map<String, Object> attributes, ReadStats stats) {
		Caller caller = (attributes.get(Caller.ATTRIBUTE) instanceof Caller given) ? given : Caller.ANONYMOUS;
		Transport transport = (attributes.get(Transport.ATTRIBUTE) instanceof Transport given) ? given : Transport.POST;
		return new RequestScope(id, caller, transport, stats);
	}

	/**
	 * The scope of the execution {@code environment} belongs to: one event's own, within a subscription (its
	 * fetchers' local context), else the request's.
	 */
	public static RequestScope of(DataFetchingEnvironment environment) {
		if (environment.getLocalContext() instanceof RequestScope event) {
			return event;
		}
		return of(environment.getGraphQlContext());
	}

	/**
	 * The scope of one event of a subscription made in this scope: the same caller, id and transport, and
	 * budgets of its own ({@code stats}), so that a long-lived subscription's events read within their own
	 * deadline, not the subscription's first.
	 */
	public RequestScope event(ReadStats stats) {
		RequestScope event = new RequestScope(this.id, this.caller, this.transport, stats);
		event.client = this.client;
		return event;
	}

	/** Records the client's network address (the transport's remote address). */
	public RequestScope client(String address) {
		this.client = address;
		return this;
	}

	/** The client's network address, where the transport tells it. */
	public Optional<String> client() {
		return Optional.ofNullable(this.client);
	}

	/**
	 * The scope installed in {@code context}; for an execution that no transport scoped (run directly on
	 * graphql-java), an anonymous one without deadline or budgets of its own.
	 */
	public static RequestScope of(GraphQLContext context) {
		return in(context).orElseGet(
				() -> new RequestScope(Optional.empty(), Caller.ANONYMOUS, Transport.POST, new ReadStats()));
	}

	/** The scope installed in {@code context}, if a transport scoped the execution. */
	public static Optional<RequestScope> in(GraphQLContext context) {
		return Optional.ofNullable((context != null) ? context.get(RequestScope.class) : null);
	}

	/** Puts this scope in an execution's context. */
	public void install(GraphQLContext context) {
		context.put(RequestScope.class, this);
	}

	public Optional<String> id() {
		return this.id;
	}

	public Caller caller() {
		return this.caller;
	}

	public Transport transport() {
		return this.transport;
	}

	public ReadStats stats() {
		return this.stats;
	}

	/** The fields answered {@code UNAVAILABLE}, logged in one line for the request. */
	public UnavailableFields unavailable() {
		return this.unavailable;
	}

	/** Records that a connection's page was cut by a read budget (the REST view then reads on). */
	public void pageCut() {
		this.cut.set(true);
	}

	/** Whether a connection's page was cut by a read budget. */
	public boolean cut() {
		return this.cut.get();
	}

	/** Records that the operation was a mutation its transport does not allow, refused before it ran. */
	public void refuseMutation() {
		this.refusedMutation.set(true);
	}

	public boolean refusedMutation() {
		return this.refusedMutation.get();
	}

	/** Records the name of the operation the document ran (as metrics name it). */
	public void operationName(String name) {
		this.operationName = name;
	}

	/** The operation the document ran, once chosen. */
	public Optional<String> operationName() {
		return Optional.ofNullable(this.operationName);
	}

}
