package dev.dynamorelay.graphql.cost;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import graphql.GraphQLContext;
import graphql.execution.CoercedVariables;
import graphql.execution.ValuesResolver;
import graphql.language.BooleanValue;
import graphql.language.Directive;
import graphql.language.DirectivesContainer;
import graphql.language.Field;
import graphql.language.FragmentDefinition;
import graphql.language.FragmentSpread;
import graphql.language.InlineFragment;
import graphql.language.OperationDefinition;
import graphql.language.Selection;
import graphql.language.SelectionSet;
import graphql.language.TypeName;
import graphql.language.Value;
import graphql.language.VariableReference;
import graphql.schema.GraphQLCompositeType;
import graphql.schema.GraphQLFieldDefinition;
import graphql.schema.GraphQLFieldsContainer;
import graphql.schema.GraphQLInterfaceType;
import graphql.schema.GraphQLObjectType;
import graphql.schema.GraphQLSchema;
import graphql.schema.GraphQLType;
import graphql.schema.GraphQLTypeUtil;

import dev.dynamorelay.graphql.Selections;

/**
 * What one operation may cost, read from its document and variables before anything runs: how deep
 * it nests, how many root fields it has, and about how many items it may read from DynamoDB.
 *
 * <p>The estimate walks the operation as graphql-java executes it: fragments expanded, {@code @skip}
 * and {@code @include} applied, fields of one response key merged. Every field that reads adds its
 * reads, multiplied by how many times it runs (the product of the page sizes and id counts above it):
 * <ul>
 * <li>a connection reads its page size ({@code first}, {@code last}, or the default size); with a
 * filter argument given, up to the read budget, since it keeps reading until its page is full. Its
 * children run once per edge: the page size;
 * <li>{@code totalCount} selected on a connection reads up to the count budget;
 * <li>a lookup and {@code node} read 1 item, {@code nodes} one per id;
 * <li>a page size or id list that the field itself refuses (negative, above the maximum) reads nothing;
 * <li>any other field ({@code edges}, {@code node}, {@code pageInfo}, mutations, fields of one's own
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
		NODES

	}

	/**
	 * A field that reads from DynamoDB.
	 *
	 * @param kind how it reads
	 * @param filterArguments for a connection, the arguments that become filters
	 * @param ownerFiltered for a connection, whether an {@code @auth} owner rule may filter it (its key does
	 * not hold the owner): weighed as a filtered page whatever the arguments
	 */
	record Reader(Kind kind, Set<String> filterArguments, boolean ownerFiltered) {

		Reader {
			filterArguments = Set.copyOf(filterArguments);
		}

		static Reader of(Kind kind) {
			return new Reader(kind, Set.of(), false);
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

	private final Map<String, FragmentDefinition> fragments;

	private final CoercedVariables variables;

	private final Map<String, Reader> readers;

	private final Sizes sizes;

	private final GraphQLContext context;

	private final Locale locale;

	private int selections;

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
		this.fragments = fragments;
		this.variables = variables;
		this.readers = readers;
		this.sizes = sizes;
		this.context = context;
		this.locale = locale;
	}

	/** How deep the deepest field is; a root field is at depth 1. */
	int depth() {
		return depth(this.operation.getSelectionSet(), new HashMap<>());
	}

	/** The root fields of the operation, each alias counted; {@link TooManySelections} past the limit. */
	int rootFields() {
		Set<String> keys = new HashSet<>();
		for (Group group : collect(rootType(), List.of(this.operation.getSelectionSet())).values()) {
			keys.add(group.field.getResultKey());
		}
		return keys.size();
	}

	/** About how many items the operation may read; {@link TooManySelections} past the limit. */
	double items() {
		this.items = 0;
		this.largest = -1;
		this.largestPart = null;
		walk(collect(rootType(), List.of(this.operation.getSelectionSet())), 1, null);
		return this.items;
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

	private int depth(SelectionSet set, Map<String, Integer> byFragment) {
		if (set == null) {
			return 0;
		}
		int deepest = 0;
		for (Selection<?> selection : set.getSelections()) {
			if (!included(selection)) {
				continue;
			}
			int depth = 0;
			if (selection instanceof Field field) {
				depth = 1 + (introspection(field) ? 0 : depth(field.getSelectionSet(), byFragment));
			}
			else if (selection instanceof InlineFragment inline) {
				depth = depth(inline.getSelectionSet(), byFragment);
			}
			else if (selection instanceof FragmentSpread spread) {
				Integer known = byFragment.get(spread.getName());
				if (known == null) {
					// Validation refuses fragment cycles; the placeholder keeps this finite regardless.
					byFragment.put(spread.getName(), 0);
					FragmentDefinition fragment = this.fragments.get(spread.getName());
					known = (fragment != null && included(fragment)) ? depth(fragment.getSelectionSet(), byFragment) : 0;
					byFragment.put(spread.getName(), known);
				}
				depth = known;
			}
			deepest = Math.max(deepest, depth);
		}
		return deepest;
	}

	private static boolean introspection(Field field) {
		return field.getName().equals("__schema") || field.getName().equals("__type");
	}

	/** The fields of one response key, on one parent type, merged as execution merges them. */
	private static final class Group {

		final GraphQLCompositeType parent;

		final Field field;

		final List<SelectionSet> children = new ArrayList<>(1);

		Group(GraphQLCompositeType parent, Field field) {
			this.parent = parent;
			this.field = field;
		}

	}

	private Map<String, Group> collect(GraphQLCompositeType parent, List<SelectionSet> sets) {
		Map<String, Group> groups = new LinkedHashMap<>();
		for (SelectionSet set : sets) {
			collect(parent, set, groups);
		}
		return groups;
	}

	private void collect(GraphQLCompositeType parent, SelectionSet set, Map<String, Group> groups) {
		if (set == null) {
			return;
		}
		for (Selection<?> selection : set.getSelections()) {
			if (++this.selections > MAX_SELECTIONS) {
				throw new TooManySelections();
			}
			if (!included(selection)) {
				continue;
			}
			if (selection instanceof Field field) {
				String key = field.getResultKey() + ' ' + parent.getName() + ' ' + field.getName();
				Group group = groups.computeIfAbsent(key, (name) -> new Group(parent, field));
				if (field.getSelectionSet() != null) {
					group.children.add(field.getSelectionSet());
				}
			}
			else if (selection instanceof InlineFragment inline) {
				collect(type(inline.getTypeCondition(), parent), inline.getSelectionSet(), groups);
			}
			else if (selection instanceof FragmentSpread spread) {
				FragmentDefinition fragment = this.fragments.get(spread.getName());
				if (fragment != null && included(fragment)) {
					collect(type(fragment.getTypeCondition(), parent), fragment.getSelectionSet(), groups);
				}
			}
		}
	}

	private GraphQLCompositeType type(TypeName condition, GraphQLCompositeType otherwise) {
		if (condition == null) {
			return otherwise;
		}
		return (this.schema.getType(condition.getName()) instanceof GraphQLCompositeType type) ? type : otherwise;
	}

	/** Adds the reads of {@code groups}, each run {@code runs} times, and of everything below them. */
	private void walk(Map<String, Group> groups, double runs, Factor path) {
		for (Group group : groups.values()) {
			String name = group.field.getName();
			if (name.startsWith("__") || !(group.parent instanceof GraphQLFieldsContainer container)) {
				continue;
			}
			GraphQLFieldDefinition definition = container.getFieldDefinition(name);
			if (definition == null) {
				continue;
			}
			GraphQLType type = GraphQLTypeUtil.unwrapAll(definition.getType());
			GraphQLCompositeType child = (type instanceof GraphQLCompositeType composite) ? composite : null;
			Map<String, Group> children = (child != null) ? collect(child, group.children) : Map.of();
			Reader reader = reader(container, name);
			double below = runs;
			Factor belowPath = path;
			if (reader != null) {
				switch (reader.kind()) {
					case CONNECTION -> {
						Map<String, Object> arguments = arguments(definition, group.field);
						int size = pageSize(arguments);
						boolean filtered = reader.ownerFiltered()
								|| reader.filterArguments().stream().anyMatch((each) -> arguments.get(each) != null);
						if (size >= 0) {
							Factor page = new Factor(path, count(size, name));
							add(runs * (filtered ? this.sizes.readBudget() : size), filtered ? new Factor(path,
									count(this.sizes.readBudget(), name) + " read (a filtered page: read budget)") : page);
							if (selects(children, "totalCount")) {
								add(runs * this.sizes.countBudget(),
										new Factor(path, count(this.sizes.countBudget(), name) + " counted (count budget)"));
							}
							below = runs * size;
							belowPath = page;
						}
						else {
							below = 0;
						}
					}
					case LOOKUP, NODE -> {
						belowPath = new Factor(path, "1 " + name);
						add(runs, belowPath);
					}
					case NODES -> {
						Object ids = arguments(definition, group.field).get("ids");
						int count = (ids instanceof List<?> list) ? list.size() : (ids != null) ? 1 : 0;
						if (count > this.sizes.maxIds()) {
							count = 0;
						}
						below = runs * count;
						belowPath = new Factor(path, count(count, name));
						add(below, belowPath);
					}
				}
			}
			if (below > 0 && !children.isEmpty()) {
				walk(children, below, belowPath);
			}
		}
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

	private static boolean selects(Map<String, Group> groups, String name) {
		for (Group group : groups.values()) {
			if (group.field.getName().equals(name)) {
				return true;
			}
		}
		return false;
	}

	/** The reader of a field; on an interface, the costliest reader of its implementations' field. */
	private Reader reader(GraphQLFieldsContainer container, String field) {
		Reader reader = this.readers.get(container.getName() + '.' + field);
		if (reader != null || !(container instanceof GraphQLInterfaceType face)) {
			return reader;
		}
		Set<String> filters = new HashSet<>();
		boolean ownerFiltered = false;
		Reader costliest = null;
		for (GraphQLObjectType implementation : this.schema.getImplementations(face)) {
			Reader each = this.readers.get(implementation.getName() + '.' + field);
			if (each == null) {
				continue;
			}
			filters.addAll(each.filterArguments());
			ownerFiltered |= each.ownerFiltered();
			if (costliest == null || each.kind() == Kind.CONNECTION) {
				costliest = each;
			}
		}
		return (costliest != null) ? new Reader(costliest.kind(), filters, ownerFiltered) : null;
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
	private Map<String, Object> arguments(GraphQLFieldDefinition definition, Field field) {
		try {
			return ValuesResolver.getArgumentValues(definition.getArguments(), field.getArguments(), this.variables,
					this.context, this.locale);
		}
		catch (RuntimeException ex) {
			// The field itself will refuse what cannot be read; the estimate takes the defaults.
			return Map.of();
		}
	}

	private boolean included(Selection<?> selection) {
		return !(selection instanceof DirectivesContainer<?> container) || included(container);
	}

	private boolean included(DirectivesContainer<?> container) {
		for (Directive directive : container.getDirectives()) {
			boolean skip = directive.getName().equals("skip");
			if (skip || directive.getName().equals("include")) {
				if (skip == condition(directive)) {
					return false;
				}
			}
		}
		return true;
	}

	private boolean condition(Directive directive) {
		var argument = directive.getArgument("if");
		Value<?> value = (argument != null) ? argument.getValue() : null;
		if (value instanceof BooleanValue literal) {
			return literal.isValue();
		}
		if (value instanceof VariableReference variable) {
			return Boolean.TRUE.equals(this.variables.get(variable.getName()));
		}
		return false;
	}

	/** One factor of a product, e.g. {@code 20 users}, after the factors of the fields above it. */
	private record Factor(Factor parent, String text) {
	}

}
