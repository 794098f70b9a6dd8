package dev.dynamorelay.transport.web;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ApplicationListener;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * The start's last line: where the server answers, GraphiQL and the browser page included, so that a person who
 * started it knows where to go without reading the docs. Before it, on a Java older than 25, one line on what Java 25
 * would give.
 */
@Component
final class ReadyLine implements ApplicationListener<ApplicationReadyEvent> {

	private static final Logger logger = LoggerFactory.getLogger(ReadyLine.class);

	@Override
	public void onApplicationEvent(ApplicationReadyEvent event) {
		if (!(event.getApplicationContext() instanceof WebServerApplicationContext server)) {
			return;
		}
		adviseJava25();
		logger.info(line(server.getEnvironment(), server.getWebServer().getPort()));
	}

	/** {@code Ready: GraphQL at …/graphql, GraphiQL at …/graphiql, …}, at the address the server listens on. */
	static String line(Environment environment, int port) {
		String address = environment.getProperty("server.address", "");
		String host = (address.isBlank() || address.equals("0.0.0.0") || address.equals("::")) ? "localhost"
				: address.contains(":") ? "[" + address + "]" : address;
		String origin = "http://" + host + ":" + port;
		String graphQl = environment.getProperty("spring.graphql.http.path", "/graphql");
		return "Ready: GraphQL at %s%s, GraphiQL at %s/graphiql, the browser page at %s/, REST under %s/api/"
			.formatted(origin, graphQl, origin, origin, origin);
	}

	/**
	 * One line when the server runs on a Java older than 25, which it supports but serves slower on: only Java 25
	 * takes the AOT cache that halves the start and doubles a new process's first 30 s of pages (bench/README.md,
	 * "Start-up and the runtime levers"). INFO: nothing needs doing for the server to serve.
	 */
	private static void adviseJava25() {
		if (Runtime.version().feature() < 25) {
			logger.info("Running on Java {}: dynamo-relay runs on Java 17 and later, but on Java 25 an AOT cache halves its "
					+ "start and doubles what a new process serves in its first seconds (`java -jar dynamo-relay.jar "
					+ "aot-cache`; docs/deploying.md, \"Java 25\").", Runtime.version());
		}
	}

}
