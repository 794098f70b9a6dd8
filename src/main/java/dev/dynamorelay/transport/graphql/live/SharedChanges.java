package dev.dynamorelay.transport.graphql.live;

import java.lang.ref.WeakReference;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

import graphql.GraphQLError;
import graphql.execution.DataFetcherExceptionHandler;
import graphql.execution.ExecutionContext;
import graphql.execution.ExecutionStrategyParameters;
import graphql.execution.FetchedValue;
import graphql.execution.FieldValueInfo;
import graphql.execution.SubscriptionExecutionStrategy;
import graphql.execution.incremental.AlternativeCallContext;
import graphql.language.OperationDefinition;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.util.RawValue;

import dev.dynamorelay.access.Caller;
import dev.dynamorelay.live.Change;
import dev.dynamorelay.live.LiveMeters;
import dev.dynamorelay.transport.request.RequestScope;

/**
 * graphql-java's execution of subscriptions, where subscriptions of one shape share each change's answer: the
 * subscription field's selection is executed and serialized to JSON once for a change, and every other
 * subscription of the same shape handed the very same change is answered those bytes (with the errors the
 * execution had), spliced into its own message: a graphql-ws {@code next} with its own {@code id}, or an SSE
 * event.
 *
 * <p>The same change: subscribers of equal queries are handed one {@link Change} object for a record
 * ({@code TableSubscribers} judges it once for them), so a change is told by its identity, never by its content:
 * two callers whose owner filters differ are never handed the same object. The same shape: the same document,
 * operation and variables, over the same transport, and the same caller's rights: the token's claims (the subject,
 * groups and scopes that {@code @auth} rules and owner rules read), less those that only time or name the token
 * ({@value #TIMING_CLAIMS}). Anonymous callers share one shape.
 *
 * <p>The answers of the last {@value #ENTRIES} changes are kept, within {@value #MAX_CHARS} chars of JSON in all; an
 * answer already dropped is made again, as for a subscription of its own. Each change's answer is serialized once,
 * and then written as it is ({@link RawValue}) into each message that carries it.
 */
final class SharedChanges extends SubscriptionExecutionStrategy {

	/** How many changes' answers are kept for the other subscriptions of their shape. */
	static final int ENTRIES = 1024;

	/** The most chars of answers kept: past it the oldest go first. */
	static final long MAX_CHARS = 8L * 1024 * 1024;

	/** Claims that differ between two tokens of one caller and no access rule reads. */
	static final String TIMING_CLAIMS = "exp, iat, nbf, jti, auth_time";

	private static final Set<String> TIMING = Set.of("exp", "iat", "nbf", "jti", "auth_time");

	private final JsonMapper json;

	private final LiveMeters meters;

	/** The answers made lately, by change and shape, oldest first. Guarded by itself. */
	private final LinkedHashMap<Key, Kept> answers = new LinkedHashMap<>();

	/** The chars of the answers kept. Guarded by {@link #answers}. */
	private long chars;

	SharedChanges(DataFetcherExceptionHandler exceptionHandler, JsonMapper json, LiveMeters meters) {
		super(exceptionHandler);
		this.json = json;
		this.meters = meters;
	}

	/**
	 * The subscription field's value for one event: for a change, its answer made once for its shape (here, when this
	 * is the first subscription of the shape to ask), else the execution's own.
	 */
	@Override
	protected FieldValueInfo completeField(ExecutionContext context, ExecutionStrategyParameters parameters,
			Object fetched) {
		Object value = FetchedValue.getFetchedValue(fetched);
		AlternativeCallContext event = parameters.getDeferredCallContext();
		if (!(value instanceof Change change) || event == null || parameters.getPath().getLevel() != 1) {
			return super.completeField(context, parameters, fetched);
		}
		String field = context.getGraphQLSchema().getSubscriptionType().getName() + "."
				+ parameters.getField().getName();
		Shape shape = shape(context);
		if (shape == null) {
			return answer(context, parameters, fetched, field, new Kept(new CompletableFuture<>()));
		}
		Key key = new Key(change, shape);
		Kept mine = new Kept(new CompletableFuture<>());
		Kept first;
		synchronized (this.answers) {
			first = this.answers.putIfAbsent(key, mine);
			if (first == null && this.answers.size() > ENTRIES) {
				evictOldest();
			}
		}
		if (first == null) {
			return answer(context, parameters, fetched, field, mine);
		}
		this.meters.shared(field);
		CompletableFuture<Object> shared = first.answer.thenApply((answer) -> {
			if (!answer.errors().isEmpty()) {
				event.addErrors(answer.errors());
			}
			return answer.value();
		});
		return new FieldValueInfo(FieldValueInfo.CompleteValueType.OBJECT, shared);
	}

	/**
	 * Executes the field's selection on the change, serializes what it made, and completes {@code answer} with the
	 * JSON and the execution's errors, for the other subscriptions of the shape.
	 */
	private FieldValueInfo answer(ExecutionContext context, ExecutionStrategyParameters parameters, Object fetched,
			String field, Kept kept) {
		FieldValueInfo completed = super.completeField(context, parameters, fetched);
		CompletableFuture<Object> serialized = completed.getFieldValueFuture().thenApply((value) -> {
			if (value == null) {
				return null;
			}
			this.meters.serialized(field);
			String text = this.json.writeValueAsString(value);
			return new RawValue(text);
		});
		serialized.whenComplete((value, failure) -> {
			if (failure != null) {
				kept.answer.completeExceptionally(failure);
				return;
			}
			List<GraphQLError> errors = List.copyOf(parameters.getDeferredCallContext().getErrors());
			kept.answer.complete(new Answer(value, errors));
			if (value instanceof RawValue raw) {
				kept(kept, raw.rawValue().toString().length());
			}
		});
		return new FieldValueInfo(completed.getCompleteValueType(), serialized, completed.getFieldValueInfos());
	}

	/**
	 * Counts an answer's chars among those kept (unless it was dropped meanwhile), and drops the oldest answers past
	 * {@link #MAX_CHARS}.
	 */
	private void kept(Kept kept, long length) {
		synchronized (this.answers) {
			if (kept.dropped) {
				return;
			}
			kept.chars = length;
			this.chars += length;
			while (this.chars > MAX_CHARS && !this.answers.isEmpty()) {
				evictOldest();
			}
		}
	}

	/** Drops the oldest answer kept. Guarded by {@link #answers}. */
	private void evictOldest() {
		Iterator<Map.Entry<Key, Kept>> oldest = this.answers.entrySet().iterator();
		Kept kept = oldest.next().getValue();
		oldest.remove();
		kept.dropped = true;
		this.chars -= kept.chars;
	}

	/**
	 * What an event's answer depends on besides its change, or null when it cannot be told (no document text, no
	 * operation): the document, operation and variables, the transport, and the caller's rights.
	 */
	private static Shape shape(ExecutionContext context) {
		String document = context.getExecutionInput().getQuery();
		OperationDefinition operation = context.getOperationDefinition();
		if (document == null || document.isBlank() || operation == null) {
			return null;
		}
		RequestScope scope = RequestScope.of(context.getGraphQLContext());
		return new Shape(document, String.valueOf(operation.getName()), context.getCoercedVariables().toMap(),
				scope.transport().name(), rights(scope.caller()));
	}

	/** The caller's claims that rules may read; empty for an anonymous caller. */
	private static Map<String, Object> rights(Caller caller) {
		Map<String, Object> rights = new TreeMap<>();
		caller.claims().ifPresent((claims) -> claims.forEach((name, value) -> {
			if (!TIMING.contains(name)) {
				rights.put(name, value);
			}
		}));
		return rights;
	}

	/**
	 * An answer kept for a change and shape: made, or being made by the first subscription that asked; its chars
	 * once made, while kept. Its fields but the answer are guarded by {@link SharedChanges#answers}.
	 */
	private static final class Kept {

		final CompletableFuture<Answer> answer;

		long chars;

		boolean dropped;

		Kept(CompletableFuture<Answer> answer) {
			this.answer = answer;
		}

	}

	/** An answer made: the field's value as JSON (null for a null value), and the errors its execution had. */
	private record Answer(Object value, List<GraphQLError> errors) {
	}

	/** What an event's answer depends on besides its change. */
	private record Shape(String document, String operation, Map<String, Object> variables, String transport,
			Map<String, Object> rights) {
	}

	/**
	 * A change, by identity (held weakly: an answer kept holds no change, whose item may be large), and a shape.
	 */
	private static final class Key {

		private final WeakReference<Change> change;

		private final int identity;

		private final Shape shape;

		private final int hash;

		Key(Change change, Shape shape) {
			this.change = new WeakReference<>(change);
			this.identity = System.identityHashCode(change);
			this.shape = shape;
			this.hash = 31 * this.identity + shape.hashCode();
		}

		@Override
		public boolean equals(Object other) {
			if (!(other instanceof Key key) || key.identity != this.identity) {
				return false;
			}
			Change change = this.change.get();
			return change != null && change == key.change.get() && this.shape.equals(key.shape);
		}

		@Override
		public int hashCode() {
			return this.hash;
		}

	}

}
