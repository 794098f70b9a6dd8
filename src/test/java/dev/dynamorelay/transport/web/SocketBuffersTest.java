package dev.dynamorelay.transport.web;

import java.lang.reflect.Method;

import org.apache.catalina.connector.Connector;
import org.apache.coyote.AbstractProtocol;
import org.apache.tomcat.util.net.AbstractEndpoint;
import org.apache.tomcat.util.net.SocketProperties;
import org.junit.jupiter.api.Test;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.util.unit.DataSize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** The buffers Tomcat gives every connection are sized by {@code dynamo-relay.http.socket.*}. */
class SocketBuffersTest {

	@Test
	void theConnectorsBuffersAreSizedByTheProperties() throws ReflectiveOperationException {
		TomcatServletWebServerFactory factory = new TomcatServletWebServerFactory();
		new SocketBuffers(new SocketBuffersProperties(DataSize.ofBytes(1536), DataSize.ofKilobytes(3))).customize(factory);
		Connector connector = new Connector("HTTP/1.1");
		factory.getConnectorCustomizers().forEach((customizer) -> customizer.customize(connector));
		SocketProperties socket = endpoint(connector).getSocketProperties();
		assertThat(socket.getAppReadBufSize()).isEqualTo(1536);
		assertThat(socket.getAppWriteBufSize()).isEqualTo(3072);
	}

	/** The connector's endpoint, which holds the socket properties (its protocol keeps it to itself). */
	private static AbstractEndpoint<?, ?> endpoint(Connector connector) throws ReflectiveOperationException {
		Method endpoint = AbstractProtocol.class.getDeclaredMethod("getEndpoint");
		endpoint.setAccessible(true);
		return (AbstractEndpoint<?, ?>) endpoint.invoke(connector.getProtocolHandler());
	}

	@Test
	void aBufferTooSmallIsRefusedAtStart() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new SocketBuffersProperties(DataSize.ofBytes(100), DataSize.ofKilobytes(2)))
			.withMessage("dynamo-relay.http.socket.read-buffer must be between 512B and 1MB, got 100B");
	}

}
