package dev.dynamorelay.command.cli;

import java.io.InputStream;
import java.util.Properties;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code --version} says the build's version, as the build wrote it in {@code META-INF/build-info.properties}. */
class VersionTest {

	@Test
	void theVersionIsTheBuildsOwn() throws Exception {
		Properties build = new Properties();
		try (InputStream in = getClass().getClassLoader().getResourceAsStream("META-INF/build-info.properties")) {
			assertThat(in).as("the build writes its information before the tests run").isNotNull();
			build.load(in);
		}
		assertThat(build.getProperty("build.version")).isNotBlank();
		assertThat(Version.of()).isEqualTo(build.getProperty("build.version")).isNotEqualTo("unknown");
		assertThat(new Version().getVersion()).containsExactly("dynamo-relay " + build.getProperty("build.version"));
	}

}
