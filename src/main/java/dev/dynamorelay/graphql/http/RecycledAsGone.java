package dev.dynamorelay.graphql.http;

import java.io.IOException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Collection;
import java.util.List;

import jakarta.servlet.ServletException;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.util.MultiValueMap;
import org.springframework.web.context.request.async.AsyncRequestNotUsableException;
import org.springframework.web.servlet.ModelAndView;
import org.springframework.web.servlet.function.ServerResponse;

/**
 * A stream of Server-Sent Events written through a response that tells a use of a recycled request for what it is:
 * its client has gone. When the server stops with streams whose clients have already gone, Tomcat ends and recycles
 * their requests without telling Spring, and each stream's next write (its keep-alive, every 15 s) met an
 * {@link IllegalStateException} ("The response object has been recycled"), from the response or its output stream,
 * which Spring GraphQL's SSE handler logged as an ERROR with its stack, and Reactor a second one ("Operator called
 * default onErrorDropped"). As the {@link IOException} of a client gone ({@link AsyncRequestNotUsableException}),
 * the handler ends the stream and its subscription quietly, as it does when a write meets a broken pipe; one DEBUG
 * line tells it.
 *
 * <p>The handler's subscriber, which writes and catches, is private to Spring GraphQL; the response it writes to is
 * the only hold on it. Every call of the response goes through {@link Calls}: once the response is found recycled, a
 * call that may fail with an {@link IOException} fails so, and any other does nothing.
 */
record RecycledAsGone(ServerResponse sse) implements ServerResponse {

	private static final Logger logger = LoggerFactory.getLogger(RecycledAsGone.class);

	@Override
	public HttpStatusCode statusCode() {
		return this.sse.statusCode();
	}

	@Override
	public HttpHeaders headers() {
		return this.sse.headers();
	}

	@Override
	public MultiValueMap<String, Cookie> cookies() {
		return this.sse.cookies();
	}

	@Override
	public ModelAndView writeTo(HttpServletRequest request, HttpServletResponse response, Context context)
			throws ServletException, IOException {
		HttpServletResponse guarded = (HttpServletResponse) Proxy.newProxyInstance(RecycledAsGone.class.getClassLoader(),
				new Class<?>[] { HttpServletResponse.class }, new Calls(response));
		return this.sse.writeTo(request, guarded, context);
	}

	/** The calls of one stream's response, and whether it has been found recycled. */
	static final class Calls implements InvocationHandler {

		private final HttpServletResponse response;

		private volatile boolean gone;

		private ServletOutputStream stream;

		Calls(HttpServletResponse response) {
			this.response = response;
		}

		@Override
		public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
			if (method.getDeclaringClass() == Object.class) {
				return method.invoke(this.response, args);
			}
			if (this.gone) {
				return refused(method);
			}
			try {
				if (method.getName().equals("getOutputStream") && method.getParameterCount() == 0) {
					return stream();
				}
				return method.invoke(this.response, args);
			}
			catch (InvocationTargetException ex) {
				if (ex.getCause() instanceof IllegalStateException failure && recycled(failure)) {
					return refused(method);
				}
				throw ex.getCause();
			}
		}

		/** The response's output stream, whose writes are checked the same way; one, as the servlet API hands out. */
		private synchronized ServletOutputStream stream() throws IOException {
			if (this.stream == null) {
				this.stream = new Stream(this.response.getOutputStream(), this);
			}
			return this.stream;
		}

		/**
		 * Whether a failure means the response was recycled: a recycled response fails every call, even for its status,
		 * which a response in use always answers. Other failures are the caller's own.
		 */
		boolean recycled(IllegalStateException failure) {
			try {
				this.response.getStatus();
				return false;
			}
			catch (IllegalStateException ex) {
				if (!this.gone) {
					this.gone = true;
					logger.debug("A stream's response was recycled before the stream ended (its client has gone): {}",
							failure.getMessage());
				}
				return true;
			}
		}

		/** What a call answers once the response is recycled: the client-gone failure where one can be thrown. */
		private static Object refused(Method method) throws IOException {
			if (List.of(method.getExceptionTypes()).contains(IOException.class)) {
				throw new AsyncRequestNotUsableException("The response was recycled: its client has gone");
			}
			Class<?> type = method.getReturnType();
			if (type == boolean.class) {
				return false;
			}
			if (type == int.class) {
				return 0;
			}
			if (type == long.class) {
				return 0L;
			}
			if (Collection.class.isAssignableFrom(type)) {
				return List.of();
			}
			return null;
		}

	}

	/** The response's output stream: a write, flush or close of a recycled response is the client-gone failure. */
	static final class Stream extends ServletOutputStream {

		private final ServletOutputStream stream;

		private final Calls calls;

		Stream(ServletOutputStream stream, Calls calls) {
			this.stream = stream;
			this.calls = calls;
		}

		@Override
		public void write(int b) throws IOException {
			try {
				this.stream.write(b);
			}
			catch (IllegalStateException ex) {
				throw gone(ex);
			}
		}

		@Override
		public void write(byte[] bytes, int offset, int length) throws IOException {
			try {
				this.stream.write(bytes, offset, length);
			}
			catch (IllegalStateException ex) {
				throw gone(ex);
			}
		}

		@Override
		public void flush() throws IOException {
			try {
				this.stream.flush();
			}
			catch (IllegalStateException ex) {
				throw gone(ex);
			}
		}

		@Override
		public void close() throws IOException {
			try {
				this.stream.close();
			}
			catch (IllegalStateException ex) {
				throw gone(ex);
			}
		}

		@Override
		public boolean isReady() {
			return this.stream.isReady();
		}

		@Override
		public void setWriteListener(WriteListener listener) {
			this.stream.setWriteListener(listener);
		}

		private RuntimeException gone(IllegalStateException failure) throws IOException {
			if (this.calls.recycled(failure)) {
				throw new AsyncRequestNotUsableException("The response was recycled: its client has gone", failure);
			}
			return failure;
		}

	}

}
