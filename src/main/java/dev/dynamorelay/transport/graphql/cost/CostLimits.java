package dev.dynamorelay.transport.graphql.cost;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import graphql.ExecutionResult;
import graphql.GraphQLError;
import graphql.execution.AbortExecutionException;
import graphql.execution.ExecutionContext;
import graphql.execution.instrumentation.InstrumentationContext;
import graphql.execution.instrumentation.InstrumentationState;
import graphql.execution.instrumentation.SimpleInstrumentationContext;
import graphql.execution.instrumentation.SimplePerformantInstrumentation;
import graphql.execution.instrumentation.parameters.InstrumentationExecuteOperationParameters;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.stereotype.Component;

import dev.dynamorelay.access.Access;
import dev.dynamorelay.declaration.Declarations;
import dev.dynamorelay.declaration.DeclaredConnection;
import dev.dynamorelay.declaration.DeclaredLookup;
import dev.dynamorelay.declaration.DeclaredMutation;
import dev.dynamorelay.error.ErrorCode;
import dev.dynamorelay.error.GraphQlErrors;
import dev.dynamorelay.metrics.ServerMeters;
import dev.dynamorelay.model.NodeIds;
import dev.dynamorelay.pagination.PageSizes;
import dev.dynamorelay.pagination.ReadBudgets;
import dev.dynamorelay.transport.graphql.cost.RequestCost.Kind;
import dev.dynamorelay.transport.graphql.cost.RequestCost.Reader;
import dev.dynamorelay.transport.request.RequestScope;

/**
 * Refuses a request deeper, wider or costlier than {@link LimitsProperties} allow, after validation and
 * before any field runs: code {@code QUERY_TOO_COMPLEX}, a message naming the figure and the limit, and
 * nothing read ({@code extensions.dynamodb.requests} is 0).
 */
@Component
@EnableConfigurationProperties(LimitsProperties.class)
class CostLimits extends SimplePerformantInstrumentation {

	/**
	 * In an execution's GraphQLContext, the name of the operation it runs ({@link ServerMeters#ANONYMOUS}
	 * when the document names none); absent when the request was refused before an operation was chosen.
	 * Set here, where every operation passes before it runs, to spare an instrumentation of its own (each
	 * one more is called for every field).
	 */

	private static final Logger logger = LoggerFactory.getLogger(CostLimits.class);

	private final LimitsProperties limits;

	private final RequestCost.Sizes sizes;

	private final Map<String, Reader> readers = new HashMap<>();

	private final ServerMeters meters;

	CostLimits(LimitsProperties limits, Declarations declarations, PageSizes pages, ReadBudgets budgets, Access access,
			ServerMeters meters) {
		this.limits = limits;
		this.meters = meters;
		this.sizes = new RequestCost.Sizes(pages.defaultSize(), pages.maxSize(), budgets.readItems(),
				budgets.countItems(), NodeIds.MAX_PER_REQUEST);
		for (DeclaredConnection connection : declarations.connections()) {
			this.readers.put(key(connection.coordinates().getTypeName(), connection.coordinates().getFieldName()),
					new Reader(Kind.CONNECTION, connection.filterArguments().stream()
						.map(DeclaredConnection.FilterArgument::name)
						.collect(java.util.stream.Collectors.toSet()), access.mayFilterByOwner(connection)));
		}
		for (DeclaredLookup lookup : declarations.lookups()) {
			this.readers.put(key(lookup.coordinates().getTypeName(), lookup.coordinates().getFieldName()),
					Reader.of(Kind.LOOKUP));
		}
		for (DeclaredMutation mutation : declarations.mutations()) {
			this.readers.put(key(mutation.coordinates().getTypeName(), mutation.coordinates().getFieldName()),
					Reader.writing(mutation::itemsWritten));
		}
		this.readers.put("Query.node", Reader.of(Kind.NODE));
		this.readers.put("Query.nodes", Reader.of(Kind.NODES));
	}

	private static String key(String type, String field) {
		return type + '.' + field;
	}

	@Override
	public InstrumentationContext<ExecutionResult> beginExecuteOperation(
			InstrumentationExecuteOperationParameters parameters, InstrumentationState state) {
		ExecutionContext execution = parameters.getExecutionContext();
		RequestCost cost = new RequestCost(execution.getGraphQLSchema(), execution.getOperationDefinition(),
				execution.getFragmentsByName(), execution.getCoercedVariables(), this.readers, this.sizes,
				execution.getGraphQLContext(), execution.getLocale());
		// The name the request's meters know it by (ResponseInterceptor): the operation the document ran.
		String name = execution.getOperationDefinition().getName();
		RequestScope.of(execution.getGraphQLContext()).operationName((name != null) ? name : ServerMeters.ANONYMOUS);
		Refusal refusal = refusal(cost, this.limits);
		if (refusal != null) {
			this.meters.refusal(refusal.limit());
			throw new AbortExecutionException(List.of(error(refusal.message())));
		}
		return SimpleInstrumentationContext.noOp();
	}

	/**
	 * Why a request is refused.
	 * @param limit which limit it is over: {@code depth}, {@code root-fields}, {@code items} or {@code selections}
	 * @param message the error's message, naming the figure and the limit
	 */
	record Refusal(String limit, String message) {
	}

	/** Why the request is refused, or null when it is within every limit. */
	static Refusal refusal(RequestCost cost, LimitsProperties limits) {
		int depth = cost.depth();
		if (depth > limits.maxDepth()) {
			return new Refusal("depth", "The request nests fields %d deep; the limit is %d (dynamo-relay.limits.max-depth)."
				.formatted(depth, limits.maxDepth()));
		}
		try {
			int rootFields = cost.rootFields();
			if (rootFields > limits.maxRootFields()) {
				return new Refusal("root-fields", ("The request has %d root fields (each alias counts); the limit is %d "
						+ "(dynamo-relay.limits.max-root-fields).").formatted(rootFields, limits.maxRootFields()));
			}
			double items = cost.items();
			if (logger.isDebugEnabled()) {
				logger.debug("Request cost: depth {}, {} root fields, about {} items ({})", depth, rootFields,
						RequestCost.format(items), cost.largestPart());
			}
			if (items > limits.maxItems()) {
				return new Refusal("items", "The request may %s about %s items (the most: %s); the limit is %s "
					.formatted(cost.writes() ? "read or write" : "read", RequestCost.format(items), cost.largestPart(), RequestCost.format(limits.maxItems()))
						+ "(dynamo-relay.limits.max-items).");
			}
		}
		catch (RequestCost.TooManySelections ex) {
			return new Refusal("selections", "The request selects more than %s fields once its fragments are expanded; "
				.formatted(RequestCost.format(RequestCost.MAX_SELECTIONS))
					+ "the limit is %s.".formatted(RequestCost.format(RequestCost.MAX_SELECTIONS)));
		}
		return null;
	}

	private static GraphQLError error(String message) {
		return GraphQlErrors.builder(ErrorCode.QUERY_TOO_COMPLEX).message(message).build();
	}

}
