package dev.dynamorelay.transport.web;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.core.annotation.Order;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationToken;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

import dev.dynamorelay.access.Caller;

/**
 * Leaves every HTTP request's {@link Caller} (its validated token's claims, or nobody) in the request
 * attribute {@link Caller#ATTRIBUTE}, where the request's scope finds it whichever handler runs it
 * (GraphQL over POST or GET, a REST page and the follow-up reads it makes on other threads).
 *
 * <p>After Spring Security's chain ({@code -100}), which validated the token, and on every dispatch: the
 * handler may run on the asynchronous dispatch that follows a body read without a thread.
 */
@Component
@Order(CallerFilter.ORDER)
class CallerFilter extends OncePerRequestFilter {

	/** After Spring Security's filter chain (-100), before the request bodies are read (-90). */
	static final int ORDER = -95;

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		request.setAttribute(Caller.ATTRIBUTE,
				(SecurityContextHolder.getContext().getAuthentication() instanceof JwtAuthenticationToken jwt)
						? Caller.of(jwt.getToken()) : Caller.ANONYMOUS);
		chain.doFilter(request, response);
	}

	@Override
	protected boolean shouldNotFilterAsyncDispatch() {
		return false;
	}

	@Override
	protected boolean shouldNotFilterErrorDispatch() {
		return false;
	}

}
