package dev.dynamorelay.declaration;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A mistake file whose header does not say exactly what is reported fails its test: the files of
 * {@code mistakes/wrong/} are {@code lookups/lookup-returning-a-list.graphqls} with one thing wrong each.
 */
class MistakeFileTest {

	@Test
	void theFileTheWrongOnesVaryPasses() {
		assertThatCode(() -> MistakeFile.read("declaration/lookups", "lookup-returning-a-list.graphqls")
			.assertReportedBy(MistakeFile.DECLARATIONS)).doesNotThrowAnyException();
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource
	void aWrongExpectationFails(String file) {
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> MistakeFile.read("wrong", file).assertReportedBy(MistakeFile.DECLARATIONS));
	}

	static List<String> aWrongExpectationFails() {
		return MistakeFile.in("wrong");
	}

}
