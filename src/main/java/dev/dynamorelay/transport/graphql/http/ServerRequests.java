package dev.dynamorelay.transport.graphql.http;

import org.springframework.http.HttpCookie;
import org.springframework.util.LinkedMultiValueMap;
import org.springframework.util.MultiValueMap;
import org.springframework.web.servlet.function.ServerRequest;

/** What a {@code WebGraphQlRequest} built from a servlet request (GET /graphql, the REST view) takes from it. */
public final class ServerRequests {

	private ServerRequests() {
	}

	/** The request's cookies, as {@code WebGraphQlRequest} holds them. */
	public static MultiValueMap<String, HttpCookie> cookies(ServerRequest request) {
		MultiValueMap<String, HttpCookie> cookies = new LinkedMultiValueMap<>();
		request.cookies()
			.values()
			.forEach((list) -> list.forEach((cookie) -> cookies.add(cookie.getName(),
					new HttpCookie(cookie.getName(), cookie.getValue()))));
		return cookies;
	}

}
