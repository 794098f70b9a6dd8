package dev.dynamorelay.transport.web;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.stereotype.Component;

/**
 * Sizes the buffers Tomcat gives every connection ({@link SocketBuffersProperties}): most of what an idle
 * WebSocket connection holds, at Tomcat's 8 KB each.
 */
@Component
@EnableConfigurationProperties(SocketBuffersProperties.class)
class SocketBuffers implements WebServerFactoryCustomizer<TomcatServletWebServerFactory> {

	private final SocketBuffersProperties buffers;

	SocketBuffers(SocketBuffersProperties buffers) {
		this.buffers = buffers;
	}

	@Override
	public void customize(TomcatServletWebServerFactory factory) {
		factory.addConnectorCustomizers((connector) -> {
			connector.setProperty("socket.appReadBufSize", Long.toString(this.buffers.readBuffer().toBytes()));
			connector.setProperty("socket.appWriteBufSize", Long.toString(this.buffers.writeBuffer().toBytes()));
		});
	}

}
