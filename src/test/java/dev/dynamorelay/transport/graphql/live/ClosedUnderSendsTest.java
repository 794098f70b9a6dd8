package dev.dynamorelay.transport.graphql.live;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Which uncaught exception is Tomcat's refusal to send the next part of a message on a closed session. */
class ClosedUnderSendsTest {

	@Test
	void tomcatsRefusalOfTheNextPartIsTold() {
		IllegalStateException refused = new IllegalStateException("Message will not be sent because the WebSocket session has been closed");
		refused.setStackTrace(new StackTraceElement[] {
				new StackTraceElement("org.apache.tomcat.websocket.WsRemoteEndpointImplBase", "writeMessagePart", null, 552),
				new StackTraceElement("org.apache.tomcat.websocket.WsRemoteEndpointImplBase", "startMessage", null, 509) });
		assertThat(ClosedUnderSends.closedUnderSend(refused)).isTrue();
	}

	@Test
	void anythingElseIsNot() {
		IllegalStateException elsewhere = new IllegalStateException("closed");
		elsewhere.setStackTrace(new StackTraceElement[] {
				new StackTraceElement("dev.dynamorelay.Something", "writeMessagePart", null, 1) });
		assertThat(ClosedUnderSends.closedUnderSend(elsewhere)).isFalse();
		RuntimeException other = new RuntimeException("boom");
		other.setStackTrace(new StackTraceElement[] {
				new StackTraceElement("org.apache.tomcat.websocket.WsRemoteEndpointImplBase", "writeMessagePart", null, 552) });
		assertThat(ClosedUnderSends.closedUnderSend(other)).isFalse();
		assertThat(ClosedUnderSends.closedUnderSend(new IllegalStateException("no stack", null) {
			@Override
			public synchronized Throwable fillInStackTrace() {
				return this;
			}
		})).isFalse();
	}

}
