package dev.dynamorelay.engine.expr;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.dynamorelay.engine.expr.Syntax.And;
import dev.dynamorelay.engine.expr.Syntax.Arithmetic;
import dev.dynamorelay.engine.expr.Syntax.Between;
import dev.dynamorelay.engine.expr.Syntax.Clause;
import dev.dynamorelay.engine.expr.Syntax.Compare;
import dev.dynamorelay.engine.expr.Syntax.CondGroup;
import dev.dynamorelay.engine.expr.Syntax.Elem;
import dev.dynamorelay.engine.expr.Syntax.Function;
import dev.dynamorelay.engine.expr.Syntax.FunctionCond;
import dev.dynamorelay.engine.expr.Syntax.In;
import dev.dynamorelay.engine.expr.Syntax.IndexElem;
import dev.dynamorelay.engine.expr.Syntax.NameElem;
import dev.dynamorelay.engine.expr.Syntax.Not;
import dev.dynamorelay.engine.expr.Syntax.OpndGroup;
import dev.dynamorelay.engine.expr.Syntax.Or;
import dev.dynamorelay.engine.expr.Syntax.PathRef;
import dev.dynamorelay.engine.expr.Syntax.ValueRef;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The grammars of DynamoDB's expressions, each part through the parser's entry points: the trees of the condition
 * grammar ({@link ConditionGrammar}), the update grammar ({@link UpdateGrammar}), operands and paths
 * ({@link OperandGrammar}) and projections, and the errors of the parse state ({@link ParserCore}).
 */
class ParserTest {

	private static final Compare A_IS_V = new Compare(Condition.Comparator.EQ, path("a"), new ValueRef(":v"));

	private static final Compare B_IS_W = new Compare(Condition.Comparator.EQ, path("b"), new ValueRef(":w"));

	private static final Compare C_IS_X = new Compare(Condition.Comparator.EQ, path("c"), new ValueRef(":x"));

	@Test
	void orBindsLooserThanAndAndAndLooserThanNot() {
		assertThat(Parser.condition("NOT a = :v AND b = :w OR c = :x")).isEqualTo(new Or(new And(new Not(A_IS_V), B_IS_W), C_IS_X));
		assertThat(Parser.condition("a = :v OR b = :w AND c = :x")).isEqualTo(new Or(A_IS_V, new And(B_IS_W, C_IS_X)));
	}

	@Test
	void aParenthesisStartsAConditionInParenthesesOrAComparisonOfAnOperandInParentheses() {
		assertThat(Parser.condition("(a = :v) AND b = :w")).isEqualTo(new And(new CondGroup(A_IS_V), B_IS_W));
		assertThat(Parser.condition("(a) = :v"))
			.isEqualTo(new Compare(Condition.Comparator.EQ, new OpndGroup(path("a")), new ValueRef(":v")));
	}

	@Test
	void readsBetweenInAndFunctionsOverPaths() {
		assertThat(Parser.condition("a BETWEEN :l AND :h")).isEqualTo(new Between(path("a"), new ValueRef(":l"), new ValueRef(":h")));
		assertThat(Parser.condition("a IN (:x, :y)")).isEqualTo(new In(path("a"), List.of(new ValueRef(":x"), new ValueRef(":y"))));
		PathRef nested = new PathRef(List.<Elem>of(new NameElem("a", false), new NameElem("#b", true), new IndexElem("0")));
		assertThat(Parser.condition("begins_with(a.#b[0], :p)"))
			.isEqualTo(new FunctionCond(new Function("begins_with", List.of(nested, new ValueRef(":p")))));
		assertThat(Parser.condition("size(a) > :n")).isEqualTo(
				new Compare(Condition.Comparator.GT, new Function("size", List.of(path("a"))), new ValueRef(":n")));
	}

	@Test
	void readsTheClausesOfAnUpdateInOrder() {
		List<Clause> clauses = Parser.update("SET a = b + :v, c = if_not_exists(c, :z) REMOVE d ADD e :e DELETE f :f");
		assertThat(clauses).extracting(Clause::keyword).containsExactly("SET", "REMOVE", "ADD", "DELETE");
		assertThat(clauses.get(0).actions()).containsExactly(
				new Syntax.SetAction(path("a"), new Arithmetic(path("b"), true, new ValueRef(":v"))),
				new Syntax.SetAction(path("c"), new Function("if_not_exists", List.of(path("c"), new ValueRef(":z")))));
		assertThat(clauses.get(1).actions()).containsExactly(new Syntax.RemoveAction(path("d")));
		assertThat(clauses.get(2).actions()).containsExactly(new Syntax.AddAction(path("e"), new ValueRef(":e")));
		assertThat(clauses.get(3).actions()).containsExactly(new Syntax.DeleteAction(path("f"), new ValueRef(":f")));
	}

	@Test
	void aSetValueMayStandInParentheses() {
		assertThat(Parser.update("SET a = (b - :v)").get(0).actions())
			.containsExactly(new Syntax.SetAction(path("a"), new OpndGroup(new Arithmetic(path("b"), false, new ValueRef(":v")))));
	}

	@Test
	void readsAProjectionsPathsInOrder() {
		assertThat(Parser.projection("a, #b[2], c.d")).containsExactly(path("a"),
				new PathRef(List.<Elem>of(new NameElem("#b", true), new IndexElem("2"))),
				new PathRef(List.<Elem>of(new NameElem("c", false), new NameElem("d", false))));
	}

	@Test
	void aSyntaxErrorNamesTheFurthestTokenTriedAndTheTextAroundIt() {
		assertThatThrownBy(() -> Parser.condition("things are not")).isInstanceOf(ParserCore.SyntaxException.class)
			.hasMessage("Syntax error; token: \"are\", near: \"things are not\"");
		// keywords of every grammar are never names
		assertThatThrownBy(() -> Parser.projection("a.in")).isInstanceOf(ParserCore.SyntaxException.class)
			.hasMessage("Syntax error; token: \"in\", near: \".in\"");
	}

	@Test
	void parenthesesDoubledAroundOneOperandOrConditionAreRefused() {
		assertThatThrownBy(() -> Parser.condition("((a = :v))")).isInstanceOf(ParserCore.RedundantParentheses.class)
			.hasMessage("The expression has redundant parentheses;");
		assertThatThrownBy(() -> Parser.update("SET a = ((b))")).isInstanceOf(ParserCore.RedundantParentheses.class);
	}

	private static PathRef path(String name) {
		return new PathRef(List.<Elem>of(new NameElem(name, false)));
	}

}
