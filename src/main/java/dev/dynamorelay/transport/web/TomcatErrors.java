package dev.dynamorelay.transport.web;

import java.io.IOException;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.ServletException;
import org.apache.catalina.Container;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.Pipeline;
import org.apache.catalina.Valve;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.catalina.valves.ValveBase;
import org.apache.tomcat.util.net.ApplicationBufferHandler;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

import dev.dynamorelay.error.ErrorCode;
import dev.dynamorelay.metrics.AnsweredErrors;

/**
 * Tomcat's own refusals in the server's shape. Tomcat answers some requests itself, before any filter or
 * Spring handler sees them: a URL holding {@code %00}, {@code %5C} or bytes that are not UTF-8, headers
 * over {@code server.max-http-request-header-size}, a malformed request line. Its error report valve
 * writes an HTML page for them; this one writes what every other error of the server is: a GraphQL
 * error body, or a problem under {@code /api/} ({@link ErrorResponses}), code {@code INVALID_ARGUMENT}
 * for a 4xx. A request line refused before Tomcat took its path from it (a raw control byte, a URL longer than
 * the header buffer) is shaped by the path read from the bytes Tomcat holds. It writes only where nothing has been written (an error Spring answered has its body).
 */
@Component
class TomcatErrors implements WebServerFactoryCustomizer<TomcatServletWebServerFactory> {

	@Override
	public void customize(TomcatServletWebServerFactory factory) {
		factory.addEngineValves(new HostErrorReports());
		// TRACE goes on to the filters, where AllowedMethods refuses every one with the path's own methods;
		// refused by the connector, it would list every method the servlet declares (PUT, DELETE, ...).
		factory.addConnectorCustomizers((connector) -> connector.setAllowTrace(true));
	}

	/**
	 * Puts {@link ShapedErrorReportValve} in each host's pipeline in place of Tomcat's. A host adds its error
	 * report valve when it starts, and Spring Boot gives no hold on the host before; an engine's valves
	 * start after its hosts, so this one finds theirs in place and swaps it.
	 */
	static final class HostErrorReports extends ValveBase {

		HostErrorReports() {
			super(true);
		}

		@Override
		protected void startInternal() throws LifecycleException {
			for (Container host : getContainer().findChildren()) {
				install(host.getPipeline());
			}
			super.startInternal();
		}

		@Override
		public void invoke(Request request, Response response) throws IOException, ServletException {
			getNext().invoke(request, response);
		}

	}

	/** Replaces the pipeline's error report valve with {@link ShapedErrorReportValve}. */
	static void install(Pipeline pipeline) {
		for (Valve valve : pipeline.getValves()) {
			if (valve instanceof ErrorReportValve && !(valve instanceof ShapedErrorReportValve)) {
				pipeline.removeValve(valve);
			}
		}
		pipeline.addValve(new ShapedErrorReportValve());
	}

	/** The valve: a JSON body instead of an HTML page. */
	public static class ShapedErrorReportValve extends ErrorReportValve {

		public ShapedErrorReportValve() {
			setShowReport(false);
			setShowServerInfo(false);
		}

		@Override
		protected void report(Request request, Response response, Throwable throwable) {
			int status = response.getStatus();
			if (status < 400 || response.getContentWritten() > 0 || request.getAttribute(RequestBodies.ABANDONED) != null
					|| !response.setErrorReported()) {
				return;
			}
			HttpStatus known = HttpStatus.resolve(status);
			HttpStatus answered = (known != null) ? known : HttpStatus.BAD_REQUEST;
			ErrorCode code = answered.is4xxClientError() ? ErrorCode.INVALID_ARGUMENT
					: (status == 503) ? ErrorCode.UNAVAILABLE : ErrorCode.INTERNAL;
			String path = path(request);
			String message = answered.is4xxClientError() ? ("The request cannot be read (HTTP %d %s): its URL must "
					+ "be percent-encoded UTF-8 without %%00, %%5C or other control characters, and its headers must be "
					+ "well formed and at most server.max-http-request-header-size (8 KB by default).")
						.formatted(status, answered.getReasonPhrase())
					: "The server could not answer the request (HTTP %d).".formatted(status);
			AnsweredErrors.count(code);
			ErrorResponses.refusal("unreadable");
			try {
				byte[] body = ErrorResponses.body(path, answered, code, message);
				response.setContentType(ErrorResponses.contentType(path).toString());
				response.setCharacterEncoding(StandardCharsets.UTF_8.name());
				Writer writer = response.getReporter();
				if (writer != null) {
					writer.write(new String(body, StandardCharsets.UTF_8));
					response.finishResponse();
				}
			}
			catch (IOException | IllegalStateException ex) {
				// The connection is gone or the response cannot be written: nothing to answer.
			}
		}

		/**
		 * The request's path as sent (it may not decode); when Tomcat refused the request line itself (a control
		 * byte in it, or longer than the header buffer) it has none, and the path is read from the bytes of the line
		 * it holds; {@code /} when there are none.
		 */
		private static String path(Request request) {
			org.apache.coyote.Request coyote = request.getCoyoteRequest();
			String uri = (coyote != null) ? coyote.requestURI().toString() : null;
			if (uri != null && !uri.isEmpty()) {
				return uri;
			}
			String read = (coyote != null && coyote.getInputBuffer() instanceof ApplicationBufferHandler buffer)
					? requestPath(buffer.getByteBuffer()) : null;
			return (read != null) ? read : "/";
		}

	}

	/** The longest path taken from a request line Tomcat refused: enough to tell its shape, and to show it. */
	static final int MAX_READ_PATH = 512;

	/**
	 * The path of the request line at the start of {@code head} (the bytes of a request as they came: {@code GET
	 * /api/users?limit=1 HTTP/1.1}), as far as it goes, without its query and at most {@link #MAX_READ_PATH}
	 * characters; {@code null} when there is no target yet. An absolute target ({@code http://host/api/...}) gives
	 * its path.
	 */
	static String requestPath(ByteBuffer head) {
		if (head == null) {
			return null;
		}
		ByteBuffer bytes = head.duplicate();
		int end = bytes.limit();
		int at = 0;
		while (at < end && (bytes.get(at) == '\r' || bytes.get(at) == '\n')) {
			at++;
		}
		while (at < end && bytes.get(at) != ' ') { // the method
			at++;
		}
		if (at >= end) {
			return null;
		}
		at++;
		StringBuilder target = new StringBuilder();
		while (at < end && target.length() < MAX_READ_PATH + 64) {
			byte b = bytes.get(at++);
			if (b == ' ' || b == '\r' || b == '\n' || b == '?' || b == '#') {
				break;
			}
			target.append((char) (b & 0xFF));
		}
		String path = target.toString();
		int scheme = path.indexOf("://");
		if (scheme > 0 && !path.startsWith("/")) {
			int slash = path.indexOf('/', scheme + 3);
			path = (slash >= 0) ? path.substring(slash) : "/";
		}
		if (path.isEmpty()) {
			return null;
		}
		return (path.length() > MAX_READ_PATH) ? path.substring(0, MAX_READ_PATH) : path;
	}

}
