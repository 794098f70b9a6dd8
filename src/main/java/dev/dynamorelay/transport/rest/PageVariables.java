package dev.dynamorelay.transport.rest;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import org.springframework.util.MultiValueMap;
import org.springframework.web.servlet.function.ServerRequest;

import dev.dynamorelay.declaration.ArgumentText;
import dev.dynamorelay.error.InvalidArgumentException;
import dev.dynamorelay.error.InvalidCursorException;
import dev.dynamorelay.model.Entity;
import dev.dynamorelay.model.NodeIds;
import dev.dynamorelay.transport.rest.RestRoute.Parameter;

/**
 * Reads the variables of a REST page's operation from its URL, once, before anything runs: {@code limit}
 * as {@code first} (the default size when absent), {@code nextToken} as {@code after}, the connection's
 * arguments from the query parameters of their names, and the parent's node id from the path. What cannot
 * be read is refused with {@code INVALID_ARGUMENT} ({@code INVALID_CURSOR} for an empty {@code nextToken})
 * and a message that says what to send.
 */
final class PageVariables {

	private final int defaultSize;

	private final int maxSize;

	PageVariables(int defaultSize, int maxSize) {
		this.defaultSize = defaultSize;
		this.maxSize = maxSize;
	}

	/** The operation's variables from the URL: the paging, the parent's id, the connection's arguments. */
	Map<String, Object> of(RestRoute route, ServerRequest request) {
		MultiValueMap<String, String> parameters = request.params();
		List<String> unknown = new ArrayList<>();
		for (String name : parameters.keySet()) {
			if (!RestRoutes.PAGING.contains(name)
					&& route.queryParameters().stream().noneMatch((parameter) -> parameter.name().equals(name))) {
				unknown.add(name);
			}
		}
		if (!unknown.isEmpty()) {
			TreeSet<String> known = new TreeSet<>(RestRoutes.PAGING);
			route.queryParameters().forEach((parameter) -> known.add(parameter.name()));
			throw new InvalidArgumentException("Unknown query parameter%s %s: %s takes %s.".formatted(
					(unknown.size() > 1) ? "s" : "", String.join(", ", unknown), route.path(), String.join(", ", known)));
		}
		Map<String, Object> variables = new HashMap<>();
		String limit = single(parameters, "limit");
		if (limit != null) {
			int size;
			try {
				size = Integer.parseInt(limit.trim());
			}
			catch (NumberFormatException ex) {
				size = -1;
			}
			if (size < 1 || size > this.maxSize) {
				throw new InvalidArgumentException("`limit` must be between 1 and %d, got `%s`.".formatted(this.maxSize, limit));
			}
			variables.put("first", size);
		}
		else {
			variables.put("first", this.defaultSize);
		}
		String nextToken = single(parameters, "nextToken");
		if (nextToken != null && nextToken.isEmpty()) {
			// No page issues an empty token; GraphQL's `after: ""` is refused alike, rather than read from the start.
			throw new InvalidCursorException("`nextToken` is empty, and no page issues an empty token: leave it out "
					+ "for the first page, or pass the `nextToken` of the page before.");
		}
		if (nextToken != null) {
			variables.put("after", nextToken);
		}
		for (Parameter parameter : route.queryParameters()) {
			List<String> values = parameters.get(parameter.name());
			if (values == null || values.isEmpty()) {
				if (parameter.required()) {
					throw new InvalidArgumentException("Pass the query parameter `%s`: it selects the items to read."
						.formatted(parameter.name()));
				}
				continue;
			}
			variables.put(parameter.name(), ArgumentText.external(parameter.name(), values, parameter.type(), false));
		}
		route.parent().ifPresent((parent) -> variables.put("id", parentId(route, parent, request.pathVariables())));
		return variables;
	}

	private static String single(MultiValueMap<String, String> parameters, String name) {
		List<String> values = parameters.get(name);
		if (values == null || values.isEmpty()) {
			return null;
		}
		if (values.size() > 1) {
			throw new InvalidArgumentException("Pass `%s` once.".formatted(name));
		}
		return values.get(0);
	}

	/** The parent's node id, from the path's key fields. */
	private static String parentId(RestRoute route, Entity parent, Map<String, String> path) {
		Map<String, Object> values = new HashMap<>();
		for (Parameter parameter : route.pathParameters()) {
			values.put(parameter.name(),
					ArgumentText.coerce(parameter.name(), List.of(path.get(parameter.name())), parameter.type(), false));
		}
		return NodeIds.encode(parent, parent.key(values::get));
	}

}
