package dev.dynamorelay.transport.graphql.cost;

import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.ToIntFunction;

import graphql.GraphQLContext;
import graphql.analysis.QueryTraverser;
import graphql.execution.CoercedVariables;
import graphql.execution.ValuesResolver;
import graphql.language.FragmentDefinition;
import graphql.language.OperationDefinition;
import graphql.schema.GraphQLCompositeType;
import graphql.schema.GraphQLObjectType;
import graphql.schema.GraphQLSchema;
import graphql.schema.GraphQLTypeUtil;

import dev.dynamorelay.transport.graphql.cost.OperationWalk.Group;

/**
 * What one operation may cost, read from its document and variables before anything runs: how deep
 * it nests, how many root fields it has, and about how many items it may read from DynamoDB.
 *
 * <p>The estimate walks the operation as graphql-java executes it: fragments expanded, {@code @skip}
 * and {@code @include} applied, fields of one response key merged ({@link OperationWalk}, on graphql-java's
 * {@link QueryTraverser}). Every field that reads adds its reads, multiplied by how many times it runs
 * (the product of the page sizes and id counts above it):
 * <ul>
 * <li>a connection reads its page size ({@code first}, {@code last}, or the default size); with a
 * filter argument given, up to the read budget, since it keeps reading until its page is full. Its
 * children run once per edge: the page size;
 * <li>{@code totalCount} selected on a connection reads up to the count budget;
 * <li>a lookup and {@code node} read 1 item, {@code nodes} one per id;
 * <li>a declared mutation weighs the items it writes: 1, or one per input object of a list, with the
 * children of its {@code @children} lists; its payload is selected once;
 * <li>a page size or id list that the field itself refuses (negative, above the maximum) reads nothing;
 * <li>any other field ({@code edges}, {@code node}, {@code pageInfo}, fields of one's own
 * resolvers) reads nothing itself, and what it selects runs as often as it does.
 * </ul>
 * Introspection ({@code __schema}, {@code __type}) reads nothing and is bounded by graphql-java's own
 * good-faith introspection check; it counts as a root field of depth 1.
 *
 * <p>Walking is linear in the document with its fragments expanded; past {@value #MAX_SELECTIONS}
 * selections (a document whose fragments multiply each other) it stops and the request is too complex.
 */
final class RequestCost {

	/** Selections walked at most, fragments expanded. */
	static final int MAX_SELECTIONS = 100_000;

	/** What a field reads. */
	enum Kind {

		/** A connection: a page of items. */
		CONNECTION,

		/** One item by a key from the arguments or the parent. */
		LOOKUP,

		/** {@code node(id)}: one item. */
		NODE,

		/** {@code nodes(ids)}: one item per id. */
		NODES,

		/** A declared mutation: the items it writes. */
		WRITE

	}

	/**
	 * A field that reads from DynamoDB.
	 *
	 * @param kind how it reads
	 * @param filterArguments for a connection, the arguments that become filters
	 * @param ownerFiltered for a connection, whether an {@code @auth} owner rule may filter it (its key does
	 * not hold the owner): weighed as a filtered page whatever the arguments
	 * @param written for a mutation, the items a call writes, from its arguments
	 */
	record Reader(Kind kind, Set<String> filterArguments, boolean ownerFiltered,
			ToIntFunction<Map<String, Object>> written) {

		Reader {
			filterArguments = Set.copyOf(filterArguments);
		}

		Reader(Kind kind, Set<String> filterArguments, boolean ownerFiltered) {
			this(kind, filterArguments, ownerFiltered, (arguments) -> 0);
		}

		static Reader of(Kind kind) {
			return new Reader(kind, Set.of(), false);
		}

		static Reader writing(ToIntFunction<Map<String, Object>> written) {
			return new Reader(Kind.WRITE, Set.of(), false, written);
		}

	}

	/**
	 * The sizes the estimate multiplies.
	 *
	 * @param defaultPageSize edges of a page that names no size
	 * @param maxPageSize the largest page size a connection accepts
	 * @param readBudget items one filtered page may read
	 * @param countBudget items one {@code totalCount} may read
	 * @param maxIds the most ids {@code nodes} accepts
	 */
	record Sizes(int defaultPageSize, int maxPageSize, int readBudget, int countBudget, int maxIds) {
	}

	/** The walk went past {@link #MAX_SELECTIONS}. */
	static final class TooManySelections extends RuntimeException {

		TooManySelections() {
			super(null, null, false, false);
		}

	}

	private final GraphQLSchema schema;

	private final OperationDefinition operation;

	private final OperationWalk walk;

	private final CoercedVariables variables;

	private final FieldReaders readers;

	private final Sizes sizes;

	private final GraphQLContext context;

	private final Locale locale;

	private double items;

	private double largest = -1;

	private Factor largestPart;

	/**
	 * @param readers the fields that read, by {@code Type.field}
	 */
	RequestCost(GraphQLSchema schema, OperationDefinition operation, Map<String, FragmentDefinition> fragments,
			CoercedVariables variables, Map<String, Reader> readers, Sizes sizes, GraphQLContext context,
			Locale locale) {
		this.schema = schema;
		this.operation = operation;
		this.walk = new OperationWalk(schema, fragments, variables);
		this.variables = variables;
		this.readers = new FieldReaders(readers, schema);
		this.sizes = sizes;
		this.context = context;
		this.locale = locale;
	}

	/** How deep the deepest field is; a root field is at depth 1. */
	int depth() {
		return this.walk.depth(this.operation.getSelectionSet(), rootType());
	}

	/** The root fields of the operation, each alias counted; {@link TooManySelections} past the limit. */
	int rootFields() {
		Set<String> keys = new HashSet<>();
		for (Group group : this.walk.fields(rootType(), List.of(this.operation.getSelectionSet()))) {
			keys.add(group.field().getResultKey());
		}
		return keys.size();
	}

	/** About how many items the operation may read or write; {@link TooManySelections} past the limit. */
	double items() {
		this.items = 0;
		this.largest = -1;
		this.largestPart = null;
		walk(this.walk.fields(rootType(), List.of(this.operation.getSelectionSet())), 1, null);
		return this.items;
	}

	/** Whether the operation is a mutation, whose estimate counts the items it writes. */
	boolean writes() {
		return this.operation.getOperation() == OperationDefinition.Operation.MUTATION;
	}

	/**
	 * The largest single part of the last {@link #items()} estimate and its arithmetic, e.g.
	 * {@code 20 users x 100 purchases = 2,000}; null when nothing reads.
	 */
	String largestPart() {
		if (this.largestPart == null) {
			return null;
		}
		Deque<String> factors = new ArrayDeque<>();
		for (Factor factor = this.largestPart; factor != null; factor = factor.parent) {
			factors.push(factor.text);
		}
		String product = String.join(" x ", factors);
		return (factors.size() > 1) ? product + " = " + format(this.largest) : product;
	}

	static String format(double figure) {
		return String.format(Locale.ROOT, "%,.0f", figure);
	}

	private GraphQLObjectType rootType() {
		GraphQLObjectType root = switch (this.operation.getOperation()) {
			case MUTATION -> this.schema.getMutationType();
			case SUBSCRIPTION -> this.schema.getSubscriptionType();
			default -> this.schema.getQueryType();
		};
		// Validation refuses an operation of a kind the schema does not have; this keeps the walk total.
		return (root != null) ? root : this.schema.getQueryType();
	}

	/** Adds the reads of {@code groups}, each run {@code runs} times, and of everything below them. */
	private void walk(Collection<Group> groups, double runs, Factor path) {
		for (Group group : groups) {
			if (group.field().getName().startsWith("__") || group.definition() == OperationWalk.UNKNOWN) {
				continue;
			}
			Collection<Group> children = (GraphQLTypeUtil.unwrapAll(group.definition().getType())
					instanceof GraphQLCompositeType child) ? this.walk.fields(child, group.children()) : List.of();
			Reader reader = this.readers.of(group.parent(), group.field().getName());
			Runs below = (reader != null) ? read(reader, group, children, runs, path) : new Runs(runs, path);
			if (below.times() > 0 && !children.isEmpty()) {
				walk(children, below.times(), below.path());
			}
		}
	}

	/** Adds what {@code group} reads, run {@code runs} times; answers how often what it selects runs. */
	private Runs read(Reader reader, Group group, Collection<Group> children, double runs, Factor path) {
		String name = group.field().getName();
		switch (reader.kind()) {
			case CONNECTION -> {
				Map<String, Object> arguments = arguments(group);
				int size = pageSize(arguments);
				if (size < 0) {
					return new Runs(0, path);
				}
				boolean filtered = reader.ownerFiltered()
						|| reader.filterArguments().stream().anyMatch((each) -> arguments.get(each) != null);
				Factor page = new Factor(path, count(size, name));
				add(runs * (filtered ? this.sizes.readBudget() : size), filtered ? new Factor(path,
						count(this.sizes.readBudget(), name) + " read (a filtered page: read budget)") : page);
				if (selects(children, "totalCount")) {
					add(runs * this.sizes.countBudget(),
							new Factor(path, count(this.sizes.countBudget(), name) + " counted (count budget)"));
				}
				return new Runs(runs * size, page);
			}
			case NODES -> {
				Object ids = arguments(group).get("ids");
				int count = (ids instanceof List<?> list) ? list.size() : (ids != null) ? 1 : 0;
				if (count > this.sizes.maxIds()) {
					count = 0;
				}
				Factor nodes = new Factor(path, count(count, name));
				add(runs * count, nodes);
				return new Runs(runs * count, nodes);
			}
			case WRITE -> {
				int written = reader.written().applyAsInt(arguments(group));
				Factor items = new Factor(path, count(written, name) + " written");
				add(runs * written, items);
				return new Runs(runs, items);
			}
			default -> { // LOOKUP, NODE
				Factor one = new Factor(path, "1 " + name);
				add(runs, one);
				return new Runs(runs, one);
			}
		}
	}

	private static boolean selects(Collection<Group> groups, String name) {
		for (Group group : groups) {
			if (group.field().getName().equals(name)) {
				return true;
			}
		}
		return false;
	}

	private static String count(int count, String name) {
		return format(count) + " " + name;
	}

	private void add(double reads, Factor part) {
		this.items += reads;
		if (reads > this.largest) {
			this.largest = reads;
			this.largestPart = part;
		}
	}

	/** The size of the page a connection reads; -1 for a size it refuses (it then reads nothing). */
	private int pageSize(Map<String, Object> arguments) {
		Object first = arguments.get("first");
		Object last = arguments.get("last");
		Object given = (first != null) ? first : last;
		int size = (given instanceof Number number) ? number.intValue() : this.sizes.defaultPageSize();
		return (size < 0 || size > this.sizes.maxPageSize()) ? -1 : size;
	}

	/** The field's arguments with variables and defaults, as its data fetcher will see them. */
	private Map<String, Object> arguments(Group group) {
		try {
			return ValuesResolver.getArgumentValues(group.definition().getArguments(), group.field().getArguments(),
					this.variables, this.context, this.locale);
		}
		catch (RuntimeException ex) {
			// The field itself will refuse what cannot be read; the estimate takes the defaults.
			return Map.of();
		}
	}

	/** How many times the fields below run, and the factors of that product. */
	private record Runs(double times, Factor path) {
	}

	/** One factor of a product, e.g. {@code 20 users}, after the factors of the fields above it. */
	private record Factor(Factor parent, String text) {
	}

}
