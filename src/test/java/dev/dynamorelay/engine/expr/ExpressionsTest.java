package dev.dynamorelay.engine.expr;

import java.util.Map;

import org.junit.jupiter.api.Test;

import static dev.dynamorelay.engine.expr.Fixtures.map;
import static dev.dynamorelay.engine.expr.Fixtures.n;
import static dev.dynamorelay.engine.expr.Fixtures.names;
import static dev.dynamorelay.engine.expr.Fixtures.refused;
import static dev.dynamorelay.engine.expr.Fixtures.s;
import static org.assertj.core.api.Assertions.assertThat;

/** One request's expressions, its names and values, and what DynamoDB refuses of them as a whole. */
class ExpressionsTest {

	@Test
	void parsesEachExpressionOfARequestAgainstItsNamesAndValues() {
		Expressions expressions = Expressions.of(names("#a", "a"), map(":v", n("1.50"), ":w", s("x")));
		Update update = expressions.update("SET #a = :v");
		Condition condition = expressions.condition("attribute_not_exists(#a) OR begins_with(b, :w)");
		expressions.checkAllUsed();

		assertThat(update.apply(map("k", s("1")))).isEqualTo(map("k", s("1"), "a", n("1.5")));
		assertThat(condition.test(map())).isTrue();
		assertThat(condition.test(map("a", n("1"), "b", s("xy")))).isTrue();
		assertThat(condition.test(map("a", n("1"), "b", s("yx")))).isFalse();
	}

	@Test
	void refusesNamesAndValuesNoExpressionUses() {
		Expressions names = Expressions.of(names("#a", "a", "#b", "b", "#c", "c"), null);
		names.condition("#b = c");
		refused(names::checkAllUsed, "Value provided in ExpressionAttributeNames unused in expressions: keys: {#a, #c}");

		Expressions values = Expressions.of(null, map(":x", s("x"), ":y", s("y")));
		values.update("SET a = :y");
		refused(values::checkAllUsed, "Value provided in ExpressionAttributeValues unused in expressions: keys: {:x}");
	}

	@Test
	void reportsTheTokenAndTheTextAroundItOfASyntaxError() {
		Expressions none = Expressions.of(null, Map.of(":v", n("1")));
		refused(() -> none.update("INVALID SYNTAX HERE"),
				"Invalid UpdateExpression: Syntax error; token: \"INVALID\", near: \"INVALID SYNTAX\"");
		refused(() -> none.update("ADD hits : incr"), "Invalid UpdateExpression: Syntax error; token: \":\", near: \"hits : incr\"");
		refused(() -> none.update("SET path = VALUE 1"), "Invalid UpdateExpression: Syntax error; token: \"1\", near: \"VALUE 1\"");
		refused(() -> none.condition("foo"), "Invalid ConditionExpression: Syntax error; token: \"<EOF>\", near: \"foo\"");
		refused(() -> none.filter("things are not gonna be ok"),
				"Invalid FilterExpression: Syntax error; token: \"are\", near: \"things are not\"");
	}

	@Test
	void aNotUnderANotIsACondition() {
		// DynamoDB's grammar, condition ::= NOT condition, takes NOT NOT c; dynalite's refuses it.
		Expressions expressions = Expressions.of(null, map(":v", n("1")));
		Condition twice = expressions.condition("NOT NOT a = :v");
		assertThat(twice.test(map("a", n("1")))).isTrue();
		assertThat(twice.test(map("a", n("2")))).isFalse();
		assertThat(expressions.filter("NOT NOT NOT attribute_exists(a)").test(map("b", s("x")))).isTrue();
		assertThat(expressions.filter("NOT NOT NOT attribute_exists(a)").test(map("a", s("x")))).isFalse();
	}

}
