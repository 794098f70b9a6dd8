package dev.dynamorelay.it;

import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import dev.dynamorelay.DynamoRelayApplication;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A default start (the sample on the embedded engine, nothing configured) is quiet: no WARN or ERROR line, since
 * nothing needs doing; no list printed twice (Spring Boot's schema report listed types up to four times); and its
 * last line says where GraphQL, GraphiQL and the browser page are. Before, it printed three WARNs (a random cursor
 * secret, no JWT key, Java older than 25), the report, and ended on the Java advice.
 */
@ExtendWith(OutputCaptureExtension.class)
class QuietStartIT {

	@Test
	void aDefaultStartWarnsOfNothingAndEndsSayingWhereGraphiQlIs(CapturedOutput output) {
		ConfigurableApplicationContext server = new SpringApplicationBuilder(DynamoRelayApplication.class)
			.run("--server.port=0");
		try {
			int port = ((WebServerApplicationContext) server).getWebServer().getPort();
			List<String> lines = Arrays.stream(output.getOut().split("\n")).filter((line) -> !line.isBlank()).toList();
			assertThat(lines).as("the start's log").anySatisfy((line) -> assertThat(line).contains("Started"));
			assertThat(lines).as("WARN and ERROR lines of a default start")
				.noneMatch((line) -> line.matches("^\\S+\\s+(WARN|ERROR) .*"));
			assertThat(output.getOut()).as("Spring Boot's schema report").doesNotContain("Skipped types");
			assertThat(lines.get(lines.size() - 1)).as("the start's last line")
				.contains("Ready: GraphQL at http://localhost:" + port + "/graphql")
				.contains("GraphiQL at http://localhost:" + port + "/graphiql")
				.contains("the browser page at http://localhost:" + port + "/");
		}
		finally {
			server.close();
		}
	}

}
