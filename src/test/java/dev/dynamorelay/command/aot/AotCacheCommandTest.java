package dev.dynamorelay.command.aot;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The command {@code aot-cache} prints: the cache, the JIT setting measured with it (bench/README.md, "The tiered
 * compilation thresholds"), then the extracted jar.
 */
class AotCacheCommandTest {

	@Test
	void thePrintedCommandRunsTheExtractedJarWithTheCacheAndItsThresholds() {
		assertThat(AotCacheCommand.runCommand(Path.of("/opt/java/bin/java"), Path.of("/opt/relay/dynamo-relay.aot"),
				Path.of("/opt/relay/dynamo-relay-0.1.0-SNAPSHOT.jar")))
			.isEqualTo("/opt/java/bin/java -XX:AOTCache=/opt/relay/dynamo-relay.aot -XX:CompileThresholdScaling=4 "
					+ "-jar /opt/relay/dynamo-relay-0.1.0-SNAPSHOT.jar");
	}

}
