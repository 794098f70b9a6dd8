package dev.dynamorelay.transport.graphql;

import java.util.Map;

import graphql.language.BooleanValue;
import graphql.language.Directive;
import graphql.language.DirectivesContainer;
import graphql.language.Field;
import graphql.language.FragmentDefinition;
import graphql.language.FragmentSpread;
import graphql.language.InlineFragment;
import graphql.language.Selection;
import graphql.language.SelectionSet;
import graphql.language.Value;
import graphql.language.VariableReference;
import graphql.schema.DataFetchingEnvironment;

/**
 * Whether a field's selection names a direct sub-field, read straight from the query document.
 *
 * <p>{@link DataFetchingEnvironment#getSelectionSet()} answers the same question but first builds
 * the normalized form of the whole operation: about 4% of a 50-edge page (measured with JFR). This
 * walks only the field's own selection, through fragment spreads and inline fragments, and honours
 * {@code @skip} and {@code @include}.
 */
public final class Selections {

	private Selections() {
	}

	/** Whether {@code name} is selected directly under the field being fetched. */
	public static boolean selects(DataFetchingEnvironment environment, String name) {
		for (Field field : environment.getMergedField().getFields()) {
			if (selects(field.getSelectionSet(), name, environment)) {
				return true;
			}
		}
		return false;
	}

	private static boolean selects(SelectionSet selections, String name, DataFetchingEnvironment environment) {
		if (selections == null) {
			return false;
		}
		for (Selection<?> selection : selections.getSelections()) {
			if (!(selection instanceof DirectivesContainer<?> container) || !included(container, environment)) {
				continue;
			}
			if (selection instanceof Field field) {
				if (field.getName().equals(name)) {
					return true;
				}
			}
			else if (selection instanceof InlineFragment inline) {
				if (selects(inline.getSelectionSet(), name, environment)) {
					return true;
				}
			}
			else if (selection instanceof FragmentSpread spread) {
				FragmentDefinition fragment = environment.getFragmentsByName().get(spread.getName());
				if (fragment != null && included(fragment, environment)
						&& selects(fragment.getSelectionSet(), name, environment)) {
					return true;
				}
			}
		}
		return false;
	}

	private static boolean included(DirectivesContainer<?> container, DataFetchingEnvironment environment) {
		for (Directive directive : container.getDirectives()) {
			boolean skip = directive.getName().equals("skip");
			if (skip || directive.getName().equals("include")) {
				boolean condition = condition(directive, environment.getVariables());
				if (skip == condition) {
					return false;
				}
			}
		}
		return true;
	}

	private static boolean condition(Directive directive, Map<String, Object> variables) {
		var argument = directive.getArgument("if");
		Value<?> value = (argument != null) ? argument.getValue() : null;
		if (value instanceof BooleanValue literal) {
			return literal.isValue();
		}
		if (value instanceof VariableReference variable) {
			return Boolean.TRUE.equals(variables.get(variable.getName()));
		}
		return false;
	}

}
