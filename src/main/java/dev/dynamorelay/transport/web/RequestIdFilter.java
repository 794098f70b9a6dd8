package dev.dynamorelay.transport.web;

import java.io.IOException;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import java.util.regex.Pattern;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.MDC;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Gives every HTTP request an id, answered in {@code X-Request-Id} and put in the logging MDC as
 * {@code requestId}, so that a client's report, a proxy's log and the server's log lines of one request
 * can be matched.
 *
 * <p>A client's (or a load balancer's) own id is kept when it is short and plain ({@link #VALID}): it is
 * written into logs and headers, so anything else (a newline, a megabyte) is replaced by a fresh UUID
 * rather than trusted. First of the filters, so every answer carries it, errors included; the GraphQL
 * execution, which runs on other threads, finds it in its context ({@link #ATTRIBUTE} as a request attribute).
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
public class RequestIdFilter extends OncePerRequestFilter {

	/** The request and response header. */
	public static final String HEADER = "X-Request-Id";

	/** The MDC key, and the GraphQL context's key. */
	public static final String MDC_KEY = "requestId";

	/** The request attribute holding the id. */
	public static final String ATTRIBUTE = RequestIdFilter.class.getName() + ".id";

	/** A client's id that is kept: 1 to 128 letters, digits, {@code -}, {@code _}, {@code .} or {@code :}. */
	static final Pattern VALID = Pattern.compile("[A-Za-z0-9._:-]{1,128}");

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		String id = (request.getAttribute(ATTRIBUTE) instanceof String known) ? known : id(request.getHeader(HEADER));
		request.setAttribute(ATTRIBUTE, id);
		if (request.getAttribute(AsyncTimeout.ANSWERED) == null) {
			request.setAttribute(AsyncTimeout.ANSWERED, new AtomicBoolean());
		}
		if (!response.isCommitted()) {
			response.setHeader(HEADER, id);
		}
		String previous = MDC.get(MDC_KEY);
		MDC.put(MDC_KEY, id);
		try {
			chain.doFilter(request, response);
		}
		finally {
			if (previous != null) {
				MDC.put(MDC_KEY, previous);
			}
			else {
				MDC.remove(MDC_KEY);
			}
		}
	}

	/**
	 * Runs {@code action} with the request's {@code id} in the MDC, as the request's own thread has it: for
	 * work of the request that runs on other threads (the SDK's, graphql-java's, a timer's).
	 */
	public static <T> T withId(Optional<String> id, Supplier<T> action) {
		if (id.isEmpty() || id.get().equals(MDC.get(MDC_KEY))) {
			return action.get();
		}
		String previous = MDC.get(MDC_KEY);
		MDC.put(MDC_KEY, id.get());
		try {
			return action.get();
		}
		finally {
			if (previous != null) {
				MDC.put(MDC_KEY, previous);
			}
			else {
				MDC.remove(MDC_KEY);
			}
		}
	}

	/** As {@link #withId(Optional, Supplier)}, for an action that answers nothing. */
	public static void withId(Optional<String> id, Runnable action) {
		withId(id, () -> {
			action.run();
			return null;
		});
	}

	/** The client's id when it is {@link #VALID}, else a new one. */
	static String id(String offered) {
		return (offered != null && VALID.matcher(offered).matches()) ? offered : UUID.randomUUID().toString();
	}

	/** The asynchronous dispatch that writes a GraphQL answer logs under the id too. */
	@Override
	protected boolean shouldNotFilterAsyncDispatch() {
		return false;
	}

	/** So does the error page's dispatch. */
	@Override
	protected boolean shouldNotFilterErrorDispatch() {
		return false;
	}

}
