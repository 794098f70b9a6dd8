package dev.dynamorelay.transport.web;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

import dev.dynamorelay.error.ErrorCode;

/**
 * Reads every request body whole before any handler sees it, within a size and a time
 * ({@link HttpLimitsProperties}), without holding a thread while it arrives.
 *
 * <p>Tomcat hands a request to a worker thread once its headers are in, and a servlet reading the body
 * blocks that thread until the last byte: a few hundred clients sending a byte every few seconds would
 * hold every worker, probes included, for as long as they like. Here the body is read with the Servlet
 * API's non-blocking input ({@link ReadListener}): the worker is given back at once, the body is
 * collected as it arrives, and only a complete body is dispatched (again, as an asynchronous dispatch of
 * the same request) to the handlers, which read it from memory. A {@code Content-Length} over the bound
 * is refused before a byte is read, a chunked body as soon as it passes it (HTTP 413), a body not
 * complete within the time is refused (HTTP 408); each with {@code Connection: close}, so that Tomcat does
 * not read the rest, and a GraphQL error body or a problem ({@link ErrorResponses}), code
 * {@code INVALID_ARGUMENT}.
 *
 * <p>After Spring Security's chain ({@code -100}): a refused token is answered before its body is read,
 * and the caller it identified is found again on the dispatch (Spring Security keeps it in a request
 * attribute for asynchronous dispatches).
 */
@Component
@Order(RequestBodies.ORDER)
@EnableConfigurationProperties(HttpLimitsProperties.class)
public class RequestBodies extends OncePerRequestFilter {

	/** After Spring Security's filter chain (-100), before Spring's own request filters. */
	static final int ORDER = -90;

	private static final Logger logger = LoggerFactory.getLogger(RequestBodies.class);

	/**
	 * The request attribute set when the client went away before its body was whole: no answer is written, and
	 * the error page Tomcat would report counts nothing.
	 */
	static final String ABANDONED = RequestBodies.class.getName() + ".abandoned";

	/** The request attribute holding the read body, for the dispatch that follows. */
	private static final String READ = RequestBodies.class.getName() + ".read";

	private final HttpLimitsProperties limits;

	RequestBodies(HttpLimitsProperties limits) {
		this.limits = limits;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		if (request.getAttribute(READ) != null || !hasBody(request)) {
			chain.doFilter(request, response);
			return;
		}
		long length = request.getContentLengthLong();
		long max = this.limits.maxBodySize().toBytes();
		if (length > max) {
			tooLarge(request, response);
			return;
		}
		Body body = new Body(request, (length > 0) ? (int) length : 8192);
		AsyncContext async = request.startAsync(body, response);
		async.setTimeout(this.limits.bodyTimeout().toMillis());
		Reader reader = new Reader(request, response, async, body, request.getInputStream(), max);
		async.addListener(reader);
		reader.in.setReadListener(reader);
	}

	/** Whether the request announces a body: a positive length, or chunks. */
	private static boolean hasBody(HttpServletRequest request) {
		return request.getContentLengthLong() > 0 || request.getHeader("Transfer-Encoding") != null;
	}

	private void tooLarge(HttpServletRequest request, HttpServletResponse response) throws IOException {
		ErrorResponses.write(response, request.getRequestURI(), HttpStatus.CONTENT_TOO_LARGE, ErrorCode.INVALID_ARGUMENT,
				"The request body is larger than %s, the most this server takes (dynamo-relay.http.max-body-size)."
					.formatted(this.limits.maxBodySize()), true, "body-too-large");
	}

	/** The asynchronous dispatch that follows a complete body runs the chain with it. */
	@Override
	protected boolean shouldNotFilterAsyncDispatch() {
		return false;
	}

	/** Collects the body as it arrives, refuses it past the size or the time, dispatches it when whole. */
	private final class Reader implements ReadListener, AsyncListener {

		private final HttpServletRequest request;

		private final HttpServletResponse response;

		private final AsyncContext async;

		private final Body body;

		private final ServletInputStream in;

		private final long max;

		private final byte[] chunk = new byte[8192];

		/** Whether the request has been answered or dispatched: the other callbacks then do nothing. */
		private final AtomicBoolean done = new AtomicBoolean();

		Reader(HttpServletRequest request, HttpServletResponse response, AsyncContext async, Body body,
				ServletInputStream in, long max) {
			this.request = request;
			this.response = response;
			this.async = async;
			this.body = body;
			this.in = in;
			this.max = max;
		}

		@Override
		public void onDataAvailable() throws IOException {
			while (this.in.isReady() && !this.done.get()) {
				int read = this.in.read(this.chunk);
				if (read < 0) {
					return;
				}
				this.body.bytes.write(this.chunk, 0, read);
				if (this.body.bytes.size() > this.max && this.done.compareAndSet(false, true)) {
					tooLarge(this.request, this.response);
					this.async.complete();
					return;
				}
			}
		}

		@Override
		public void onAllDataRead() {
			if (this.done.compareAndSet(false, true)) {
				this.body.complete();
				this.request.setAttribute(READ, Boolean.TRUE);
				this.async.dispatch();
			}
		}

		@Override
		public void onError(Throwable failure) {
			// The client went away or sent a malformed body (bad chunks): nobody to answer, nothing went wrong here.
			if (this.done.compareAndSet(false, true)) {
				logger.debug("Request body not read: {}", failure.toString());
				this.request.setAttribute(ABANDONED, Boolean.TRUE);
				ErrorResponses.refusal("abandoned");
				this.async.complete();
			}
		}

		@Override
		public void onTimeout(AsyncEvent event) throws IOException {
			if (this.done.compareAndSet(false, true)) {
				ErrorResponses.write(this.response, this.request.getRequestURI(), HttpStatus.REQUEST_TIMEOUT,
						ErrorCode.INVALID_ARGUMENT, ("The request body did not arrive within %s (%d bytes came): send it "
								+ "whole, or raise dynamo-relay.http.body-timeout.")
							.formatted(RequestBodies.this.limits.bodyTimeout(), this.body.bytes.size()), true, "body-timeout");
				this.async.complete();
			}
		}

		@Override
		public void onError(AsyncEvent event) {
			onError(event.getThrowable());
		}

		@Override
		public void onComplete(AsyncEvent event) {
		}

		@Override
		public void onStartAsync(AsyncEvent event) {
		}

	}

	/** The request as the handlers see it: its body from memory, once it has been read whole. */
	private static final class Body extends HttpServletRequestWrapper {

		final ByteArrayOutputStream bytes;

		/** The whole body, once read. */
		private volatile byte[] content;

		Body(HttpServletRequest request, int expected) {
			super(request);
			this.bytes = new ByteArrayOutputStream(expected);
		}

		void complete() {
			this.content = this.bytes.toByteArray();
		}

		@Override
		public ServletInputStream getInputStream() {
			ByteArrayInputStream in = new ByteArrayInputStream(this.content);
			return new ServletInputStream() {

				@Override
				public int read() {
					return in.read();
				}

				@Override
				public int read(byte[] buffer, int offset, int length) {
					return in.read(buffer, offset, length);
				}

				@Override
				public boolean isFinished() {
					return in.available() == 0;
				}

				@Override
				public boolean isReady() {
					return true;
				}

				@Override
				public void setReadListener(ReadListener listener) {
					throw new IllegalStateException("The body has been read already");
				}

			};
		}

		@Override
		public java.io.BufferedReader getReader() throws java.io.UnsupportedEncodingException {
			String encoding = (getCharacterEncoding() != null) ? getCharacterEncoding() : "UTF-8";
			return new java.io.BufferedReader(new java.io.InputStreamReader(getInputStream(), encoding));
		}

	}

}
