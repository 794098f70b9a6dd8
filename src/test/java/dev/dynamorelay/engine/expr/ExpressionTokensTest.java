package dev.dynamorelay.engine.expr;

import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import dev.dynamorelay.engine.action.AwsError;

import static dev.dynamorelay.engine.expr.Fixtures.l;
import static dev.dynamorelay.engine.expr.Fixtures.m;
import static dev.dynamorelay.engine.expr.Fixtures.map;
import static dev.dynamorelay.engine.expr.Fixtures.n;
import static dev.dynamorelay.engine.expr.Fixtures.names;
import static dev.dynamorelay.engine.expr.Fixtures.s;
import static dev.dynamorelay.engine.expr.Fixtures.ss;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Any text a client sends as an expression is parsed or refused with a ValidationException, never anything else:
 * expressions made of the grammar's own tokens in random order, as a client's mistakes would be (any other
 * exception would reach the client as an HTTP 500 from the engine).
 */
class ExpressionTokensTest {

	private static final List<String> TOKENS = List.of("a", "b", "c", "#n", ":v", ":w", ":l", "size", "in", "IN",
			"AND", "OR", "NOT", "BETWEEN", "SET", "REMOVE", "ADD", "DELETE", "=", "<>", "<", "<=", ">", ">=", "+", "-",
			"(", ")", "[", "]", "[0]", "[1]", ".", ",", "attribute_exists", "attribute_not_exists", "attribute_type",
			"begins_with", "contains", "size", "if_not_exists", "list_append", "a.b", "a[0]", "#n.b", "", " ", "0",
			":", "#", "x.y.z");

	private static final Map<String, AttributeValue> ITEM = map("a", n("1"), "b", s("bee"), "c", l(n("1"), s("x")),
			"n", m("b", ss("p", "q")));

	@Test
	void everyTextIsParsedOrRefusedWithAValidationException() {
		Random random = new Random(31);
		for (int i = 0; i < 40_000; i++) {
			StringBuilder text = new StringBuilder();
			int length = 1 + random.nextInt(9);
			for (int t = 0; t < length; t++) {
				text.append(TOKENS.get(random.nextInt(TOKENS.size()))).append(random.nextInt(4) == 0 ? "" : " ");
			}
			String expression = text.toString();
			each(expression, (e) -> e.condition(expression).test(ITEM));
			each(expression, (e) -> e.filter(expression).test(ITEM));
			each(expression, (e) -> e.update(expression).apply(ITEM));
			each(expression, (e) -> e.projection(expression));
			each(expression, (e) -> e.keyCondition(expression));
		}
	}

	@Test
	void inWrittenInLowerCaseIsAComparisonOfItsOwn() {
		each("a in b", (e) -> e.condition("a in b").test(ITEM));
		each("a IN (b, c)", (e) -> assertThat(e.condition("a IN (b, c)").test(ITEM)).isFalse());
	}

	private static void each(String expression, Consumer<Expressions> use) {
		Expressions expressions = Expressions.of(names("#n", "n"), map(":v", n("1"), ":w", s("bee"), ":l", l(s("z"))));
		try {
			use.accept(expressions);
		}
		catch (AwsError error) {
			assertThat(error.type()).as(expression).isEqualTo("ValidationException");
		}
		catch (RuntimeException other) {
			fail("'" + expression + "' ended in " + other, other);
		}
	}

}
