package dev.dynamorelay;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.LineMap;
import com.sun.source.tree.MethodTree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.SourcePositions;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.Trees;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Rooms a maintainer can take in at a glance: no source file of the product or of the benchmark over 500
 * lines, and no method or constructor over 60 lines from its signature to its closing brace (its lambdas
 * and local classes counted in it), measured on the sources as javac parses them.
 */
class HouseSizesTest {

	private static final int MAX_FILE_LINES = 500;

	private static final int MAX_METHOD_LINES = 60;

	private static final List<Path> ROOTS = List.of(Path.of("src/main/java"), Path.of("bench/src/main/java"));

	@Test
	void noSourceFileIsOver500Lines() {
		List<String> large = new ArrayList<>();
		for (Path file : sources()) {
			long lines = lines(file);
			if (lines > MAX_FILE_LINES) {
				large.add(file + " (" + lines + " lines)");
			}
		}
		assertThat(large).as("source files over %d lines", MAX_FILE_LINES).isEmpty();
	}

	@Test
	void noMethodIsOver60Lines() throws IOException {
		JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
		List<String> long_ = new ArrayList<>();
		try (StandardJavaFileManager files = compiler.getStandardFileManager(null, null, null)) {
			Iterable<? extends JavaFileObject> units = files.getJavaFileObjectsFromPaths(sources());
			JavacTask task = (JavacTask) compiler.getTask(null, files, null, List.of("-proc:none"), null, units);
			SourcePositions positions = Trees.instance(task).getSourcePositions();
			for (CompilationUnitTree unit : task.parse()) {
				LineMap lines = unit.getLineMap();
				new TreePathScanner<Void, Void>() {

					@Override
					public Void visitMethod(MethodTree method, Void unused) {
						if (method.getBody() != null) {
							long first = lines.getLineNumber(positions.getStartPosition(unit, method));
							long last = lines.getLineNumber(positions.getEndPosition(unit, method));
							if (last - first + 1 > MAX_METHOD_LINES) {
								long_.add("%s:%d %s (%d lines)".formatted(unit.getSourceFile().getName(), first,
										method.getName(), last - first + 1));
							}
						}
						return super.visitMethod(method, unused);
					}

				}.scan(unit, null);
			}
		}
		assertThat(long_).as("methods over %d lines", MAX_METHOD_LINES).isEmpty();
	}

	private static List<Path> sources() {
		List<Path> sources = new ArrayList<>();
		for (Path root : ROOTS) {
			if (!Files.isDirectory(root)) {
				continue;
			}
			try (Stream<Path> files = Files.walk(root)) {
				files.filter((file) -> file.toString().endsWith(".java")).forEach(sources::add);
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}
		return sources;
	}

	private static long lines(Path file) {
		try (Stream<String> lines = Files.lines(file)) {
			return lines.count();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
