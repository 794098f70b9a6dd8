package dev.dynamorelay.it;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fails a test during which the server (in the test's JVM) logged an ERROR line, with a stack trace or without:
 * for the tests of what a client may send, none of which is a server error.
 */
public final class NoErrorLogged implements BeforeEachCallback, AfterEachCallback {

	private final ListAppender<ILoggingEvent> logged = new ListAppender<>();

	@Override
	public void beforeEach(ExtensionContext context) {
		this.logged.list.clear();
		this.logged.start();
		root().addAppender(this.logged);
	}

	@Override
	public void afterEach(ExtensionContext context) {
		root().detachAppender(this.logged);
		assertThat(this.logged.list).as("ERROR lines")
			.filteredOn((event) -> event.getLevel() == Level.ERROR)
			.extracting((event) -> event.getFormattedMessage() + ((event.getThrowableProxy() != null)
					? " (" + event.getThrowableProxy().getClassName() + ": " + event.getThrowableProxy().getMessage() + ")" : ""))
			.isEmpty();
	}

	private static Logger root() {
		return (Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME);
	}

}
