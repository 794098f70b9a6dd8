package dev.dynamorelay.transport.graphql.cost;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import graphql.Scalars;
import graphql.analysis.QueryTraversalOptions;
import graphql.analysis.QueryTraverser;
import graphql.analysis.QueryVisitorFieldEnvironment;
import graphql.analysis.QueryVisitorFragmentSpreadEnvironment;
import graphql.analysis.QueryVisitorInlineFragmentEnvironment;
import graphql.analysis.QueryVisitorStub;
import graphql.execution.CoercedVariables;
import graphql.introspection.Introspection;
import graphql.language.Field;
import graphql.language.FragmentDefinition;
import graphql.language.Node;
import graphql.language.Selection;
import graphql.language.SelectionSet;
import graphql.schema.GraphQLCompositeType;
import graphql.schema.GraphQLFieldDefinition;
import graphql.schema.GraphQLFieldsContainer;
import graphql.schema.GraphQLSchema;
import graphql.schema.GraphQLTypeUtil;
import graphql.schema.visibility.GraphqlFieldVisibility;
import graphql.util.TraversalControl;
import graphql.util.TraverserContext;

/**
 * An operation's document as graphql-java's {@link QueryTraverser} walks it, fragments expanded and
 * {@code @skip} and {@code @include} applied: the fields of a selection set, merged by response key as
 * execution merges them, and how deep a selection set nests.
 *
 * <p>Each walk is one selection set deep, so that what a field selects is walked only if the estimate
 * needs it; past {@link RequestCost#MAX_SELECTIONS} selections it throws
 * {@link RequestCost.TooManySelections}. A fragment's depth is walked once and remembered, so fragments
 * that spread each other many times cost no more than their text.
 */
final class OperationWalk {

	/** What a field the schema does not have stands for: it selects and reads nothing. */
	static final GraphQLFieldDefinition UNKNOWN = GraphQLFieldDefinition.newFieldDefinition()
		.name("unknown")
		.type(Scalars.GraphQLString)
		.build();

	/**
	 * The fields of one response key, on one parent type, merged as execution merges them.
	 *
	 * @param parent the type the field is on; null on a union (whose only field is {@code __typename})
	 * @param field the first of the fields
	 * @param definition the field's definition, {@link #UNKNOWN} for a field the schema does not have
	 * @param children what the fields select
	 */
	record Group(GraphQLFieldsContainer parent, Field field, GraphQLFieldDefinition definition,
			List<SelectionSet> children) {
	}

	private final GraphQLSchema schema;

	private final Map<String, FragmentDefinition> fragments;

	/** The fragments without their selections: the depth walk does not enter a fragment. */
	private final Map<String, FragmentDefinition> unentered = new HashMap<>();

	private final Map<String, Integer> fragmentDepths = new HashMap<>();

	private final CoercedVariables variables;

	private int selections;

	OperationWalk(GraphQLSchema schema, Map<String, FragmentDefinition> fragments, CoercedVariables variables) {
		this.schema = total(schema);
		this.fragments = fragments;
		this.variables = variables;
		fragments.forEach((name, fragment) -> this.unentered.put(name,
				fragment.transform((builder) -> builder.selectionSet(SelectionSet.newSelectionSet().build()))));
	}

	/**
	 * The schema with {@link #UNKNOWN} for a field it does not have, where graphql-java's traverser would
	 * stop with an assertion. Validation refuses such a document before any estimate; this keeps the
	 * estimate total regardless, as it reads what it can.
	 */
	private static GraphQLSchema total(GraphQLSchema schema) {
		GraphqlFieldVisibility visibility = schema.getCodeRegistry().getFieldVisibility();
		GraphqlFieldVisibility total = new GraphqlFieldVisibility() {

			@Override
			public List<GraphQLFieldDefinition> getFieldDefinitions(GraphQLFieldsContainer container) {
				return visibility.getFieldDefinitions(container);
			}

			@Override
			public GraphQLFieldDefinition getFieldDefinition(GraphQLFieldsContainer container, String name) {
				GraphQLFieldDefinition definition = visibility.getFieldDefinition(container, name);
				return (definition != null) ? definition : UNKNOWN;
			}

		};
		return schema.transformWithoutTypes((builder) -> builder
			.codeRegistry(schema.getCodeRegistry().transform((registry) -> registry.fieldVisibility(total))));
	}

	/** The fields {@code sets} select on {@code parent}; {@link RequestCost.TooManySelections} past the limit. */
	Collection<Group> fields(GraphQLCompositeType parent, List<SelectionSet> sets) {
		Map<Key, Group> groups = new LinkedHashMap<>();
		if (plain(sets)) {
			// Fields alone need nothing of the traverser, which costs more to set up than they to read.
			for (SelectionSet set : sets) {
				for (Selection<?> selection : set.getSelections()) {
					Field field = (Field) selection;
					add(groups, parent, field, Introspection.getFieldDef(this.schema, parent, field.getName()));
				}
			}
			return groups.values();
		}
		SelectionSet set = (sets.size() == 1) ? sets.get(0) : SelectionSet
			.newSelectionSet(sets.stream().flatMap((each) -> each.getSelections().stream()).toList())
			.build();
		traverser(set, parent, this.fragments).visitPreOrder(new QueryVisitorStub() {

			@Override
			public TraversalControl visitFieldWithControl(QueryVisitorFieldEnvironment environment) {
				add(groups, (GraphQLCompositeType) GraphQLTypeUtil.unwrapAll(environment.getParentType()),
						environment.getField(), environment.getFieldDefinition());
				return TraversalControl.ABORT; // what it selects is the next walk's
			}

			@Override
			public void visitInlineFragment(QueryVisitorInlineFragmentEnvironment environment) {
				count();
			}

			@Override
			public void visitFragmentSpread(QueryVisitorFragmentSpreadEnvironment environment) {
				count();
			}

		});
		return groups.values();
	}

	/** Whether {@code sets} have only fields, none with {@code @skip} or {@code @include}. */
	private static boolean plain(List<SelectionSet> sets) {
		for (SelectionSet set : sets) {
			for (Selection<?> selection : set.getSelections()) {
				if (!(selection instanceof Field field) || !field.getDirectives().isEmpty()) {
					return false;
				}
			}
		}
		return true;
	}

	/** A response key on a parent type: the fields execution merges. */
	private record Key(String resultKey, GraphQLCompositeType parent, String name) {
	}

	/** Adds {@code field} of {@code parent} to the group of its response key. */
	private void add(Map<Key, Group> groups, GraphQLCompositeType parent, Field field,
			GraphQLFieldDefinition definition) {
		count();
		Key key = new Key(field.getResultKey(), parent, field.getName());
		Group group = groups.computeIfAbsent(key, (known) -> new Group(
				(parent instanceof GraphQLFieldsContainer container) ? container : null, field, definition,
				new ArrayList<>(1)));
		if (field.getSelectionSet() != null) {
			group.children().add(field.getSelectionSet());
		}
	}

	private void count() {
		if (++this.selections > RequestCost.MAX_SELECTIONS) {
			throw new RequestCost.TooManySelections();
		}
	}

	/** How deep {@code set} nests, a field of its own at depth 1; introspection is one level deep. */
	int depth(SelectionSet set, GraphQLCompositeType type) {
		int[] deepest = { 0 };
		traverser(set, type, this.unentered).visitPreOrder(new QueryVisitorStub() {

			@Override
			public TraversalControl visitFieldWithControl(QueryVisitorFieldEnvironment field) {
				deepest[0] = Math.max(deepest[0], fieldsAbove(field.getTraverserContext()) + 1);
				String name = field.getField().getName();
				boolean leaf = name.equals("__schema") || name.equals("__type") || field.getFieldDefinition() == UNKNOWN;
				return leaf ? TraversalControl.ABORT : TraversalControl.CONTINUE;
			}

			@Override
			public void visitFragmentSpread(QueryVisitorFragmentSpreadEnvironment spread) {
				int below = fragmentDepth(spread.getFragmentSpread().getName());
				deepest[0] = Math.max(deepest[0], fieldsAbove(spread.getTraverserContext()) + below);
			}

		});
		return deepest[0];
	}

	private int fragmentDepth(String name) {
		Integer known = this.fragmentDepths.get(name);
		if (known == null) {
			// Validation refuses fragment cycles; the placeholder keeps this finite regardless.
			this.fragmentDepths.put(name, 0);
			FragmentDefinition fragment = this.fragments.get(name);
			known = depth(fragment.getSelectionSet(),
					(GraphQLCompositeType) this.schema.getType(fragment.getTypeCondition().getName()));
			this.fragmentDepths.put(name, known);
		}
		return known;
	}

	private static int fieldsAbove(TraverserContext<Node> context) {
		return (int) context.getParentNodes().stream().filter(Field.class::isInstance).count();
	}

	/** graphql-java's walk of {@code set}; arguments are read by the estimate, only where they count. */
	private QueryTraverser traverser(SelectionSet set, GraphQLCompositeType type,
			Map<String, FragmentDefinition> fragments) {
		return QueryTraverser.newQueryTraverser()
			.schema(this.schema)
			.root(set)
			.rootParentType(type)
			.fragmentsByName(fragments)
			.coercedVariables(this.variables)
			.options(QueryTraversalOptions.defaultOptions().coerceFieldArguments(false))
			.build();
	}

}
