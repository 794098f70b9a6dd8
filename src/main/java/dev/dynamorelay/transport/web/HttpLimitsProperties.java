package dev.dynamorelay.transport.web;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * What one HTTP request may send, checked before anything of it is buffered or parsed.
 *
 * @param maxBodySize the largest request body: a GraphQL request's document, variables and extensions
 * arrive inside it (over GET, inside the URL, which {@code server.max-http-request-header-size} bounds);
 * a larger {@code Content-Length} is refused at once, a chunked body as soon as it grows past it (HTTP
 * 413)
 * @param bodyTimeout how long the whole body may take to arrive, from the request's headers to its last
 * byte; a body still arriving then is refused (HTTP 408). The body is read without holding a thread, so
 * slow clients hold a connection each, never a worker
 * @param headerTimeout how long a request's line and headers may take to arrive, from their first byte; a
 * connection whose request head is not whole by then is closed. Tomcat's own
 * {@code server.tomcat.connection-timeout} bounds only each wait for the next bytes, which a client sending a
 * header line every few seconds never reaches
 */
@ConfigurationProperties("dynamo-relay.http")
public record HttpLimitsProperties(@DefaultValue("1MB") DataSize maxBodySize, @DefaultValue("10s") Duration bodyTimeout,
		@DefaultValue("10s") Duration headerTimeout) {

	public HttpLimitsProperties {
		if (maxBodySize.toBytes() < 1 || maxBodySize.toBytes() > Integer.MAX_VALUE - 8) {
			throw new IllegalArgumentException(
					"dynamo-relay.http.max-body-size must be between 1B and 2GB, got " + maxBodySize);
		}
		if (bodyTimeout.isNegative() || bodyTimeout.isZero()) {
			throw new IllegalArgumentException("dynamo-relay.http.body-timeout must be positive, got " + bodyTimeout);
		}
		if (headerTimeout.isNegative() || headerTimeout.isZero()) {
			throw new IllegalArgumentException("dynamo-relay.http.header-timeout must be positive, got " + headerTimeout);
		}
	}

}
