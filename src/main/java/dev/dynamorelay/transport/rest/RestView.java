package dev.dynamorelay.transport.rest;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.i18n.LocaleContextHolder;
import org.springframework.graphql.GraphQlResponse;
import org.springframework.graphql.ResponseError;
import org.springframework.graphql.ResponseField;
import org.springframework.graphql.server.WebGraphQlHandler;
import org.springframework.graphql.server.WebGraphQlRequest;
import org.springframework.graphql.server.support.SerializableGraphQlRequest;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.util.AlternativeJdkIdGenerator;
import org.springframework.util.IdGenerator;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;
import reactor.core.publisher.Mono;

import dev.dynamorelay.budget.ReadStats;
import dev.dynamorelay.error.ApiException;
import dev.dynamorelay.error.ErrorCode;
import dev.dynamorelay.error.GraphQlErrors;
import dev.dynamorelay.error.Problems;
import dev.dynamorelay.metrics.AnsweredErrors;
import dev.dynamorelay.model.Entity;
import dev.dynamorelay.transport.graphql.execution.ResponseInterceptor;
import dev.dynamorelay.transport.graphql.http.ServerRequests;
import dev.dynamorelay.transport.request.RequestScope;
import dev.dynamorelay.transport.request.Transport;
import dev.dynamorelay.transport.rest.RestRoute.Parameter;

/**
 * The REST view of the declared connections: {@code GET /api/...} answered with
 * {@code {"<field>": [nodes], "nextToken": "<cursor>" | null}}.
 *
 * <p>Each page is one GraphQL execution of the route's operation through the same
 * {@link WebGraphQlHandler} as {@code /graphql} (the caller, {@code @auth} rules, cost limits, budgets,
 * error codes), so {@code nextToken} is the connection's {@code endCursor} and either works in the other.
 *
 * <p>{@code nextToken} is null exactly at the end. A page whose {@code hasNextPage} is exact (it held one
 * match more than its size, or its range ended) answers at once. A page cut by the read budget (a
 * filter that matched little of what it read) only knows that more may match; the view then reads on
 * from where it stopped, for what the page still lacks (or, when full, with {@code first: 0}: does one
 * more item match?), until the page is full and one more match is known, the range ends (the token is
 * null), or the page has spent the item budget or the time of one GraphQL request, which all its reads
 * share ({@link ResponseInterceptor#SHARED_STATS}): only then does a token stand where the rest may hold
 * no match.
 *
 * <p>Errors are {@code application/problem+json} with the contract's code. A node field the caller may
 * not read ({@code FORBIDDEN} inside a node) is left out of that node; any other error answers the
 * request with a problem.
 */
final class RestView {

	private static final Logger logger = LoggerFactory.getLogger(RestView.class);

	private final WebGraphQlHandler graphQl;

	private final RestRoutes routes;

	private final PageVariables variables;

	/** How many budget-cut reads one REST page may follow to settle {@code nextToken}. */
	private final int maxFollowUps;

	private final IdGenerator ids = new AlternativeJdkIdGenerator();

	RestView(WebGraphQlHandler graphQl, RestRoutes routes, int defaultSize, int maxSize, int maxFollowUps) {
		this.graphQl = graphQl;
		this.routes = routes;
		this.variables = new PageVariables(defaultSize, maxSize);
		this.maxFollowUps = maxFollowUps;
	}

	/** Answers {@code GET} of {@code route}. */
	ServerResponse page(RestRoute route, ServerRequest request) {
		String path = request.path();
		Map<String, Object> variables;
		try {
			variables = this.variables.of(route, request);
		}
		catch (ApiException ex) {
			return ownProblem(ex.code(), ex.getMessage(), path);
		}
		SecurityContext security = SecurityContextHolder.getContext();
		// All reads of the page share one deadline and item budget, as the fields of one GraphQL request do.
		AtomicReference<ReadStats> shared = new AtomicReference<>();
		int limit = (Integer) variables.get("first");
		List<Map<String, Object>> nodes = new ArrayList<>(limit);
		Mono<ServerResponse> answer = fill(route, request, variables, security, nodes, 0, shared).map((next) -> {
			Map<String, Object> body = new LinkedHashMap<>();
			body.put(route.itemsKey(), nodes);
			body.put("nextToken", next.orElse(null));
			return ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).body(body);
		}).onErrorResume(Answer.class, (answered) -> Mono.just(answered.response)).onErrorResume((failure) -> {
			logger.error("REST page of {} failed", route.field(), failure);
			return Mono.just(ownProblem(ErrorCode.INTERNAL, "The page could not be served; the server log has the details.",
					path));
		});
		return ServerResponse.async(answer.toFuture());
	}

	/**
	 * Reads into {@code nodes} from the page's start ({@code variables}) until the page is full, and
	 * answers its {@code nextToken}: empty at the end. A page cut by the read budget reads on from its
	 * end with what it still needs (with {@code first: 0} when full: is there one more match?), within
	 * the follow-ups and time a page may spend.
	 */
	private Mono<Optional<String>> fill(RestRoute route, ServerRequest request, Map<String, Object> variables,
			SecurityContext security, List<Map<String, Object>> nodes, int followUps, AtomicReference<ReadStats> shared) {
		return execute(route, request, variables, security, shared).flatMap((read) -> {
			if (read.problem() != null) {
				if (followUps == 0) {
					return Mono.error(new Answer(read.problem()));
				}
				// Not settled: the page's own cursor stands, as GraphQL's endCursor does. Debug only: a read that
				// DynamoDB did not serve has its line already (one per execution, ResponseInterceptor).
				logger.debug("A read behind a cut page of {} failed; answering with its cursor", route.field());
				return Mono.just(Optional.ofNullable((String) variables.get("after")));
			}
			if (read.nodes() == null) {
				return Mono.error(new Answer(notFound(route, request)));
			}
			nodes.addAll(read.nodes());
			String from = (String) variables.get("after");
			String next = (read.endCursor() != null) ? read.endCursor() : from;
			if (!read.hasNextPage()) {
				return Mono.just(Optional.empty());
			}
			ReadStats stats = shared.get();
			if (!read.cut() || followUps >= this.maxFollowUps || stats == null || !stats.budget().hasItemsLeft()
					|| stats.budget().remaining(Duration.ofDays(1)).isNegative() || stats.budget().remaining(Duration.ofDays(1)).isZero()) {
				return Mono.just(Optional.ofNullable(next));
			}
			Map<String, Object> onwards = new HashMap<>(variables);
			onwards.put("first", (Integer) variables.get("first") - read.nodes().size());
			onwards.put("after", next);
			return fill(route, request, onwards, security, nodes, followUps + 1, shared);
		});
	}

	/** An answer other than the page (a problem), carried out of the reads. */
	private static final class Answer extends RuntimeException {

		private final transient ServerResponse response;

		Answer(ServerResponse response) {
			super(null, null, false, false);
			this.response = response;
		}

	}

	/** One execution of the route's operation as the request's caller. */
	private Mono<Result> execute(RestRoute route, ServerRequest request, Map<String, Object> variables,
			SecurityContext security, AtomicReference<ReadStats> shared) {
		SerializableGraphQlRequest body = new SerializableGraphQlRequest();
		body.setQuery(route.document());
		body.setOperationName("RestPage");
		body.setVariables(variables);
		WebGraphQlRequest graphQlRequest = new WebGraphQlRequest(request.uri(), request.headers().asHttpHeaders(),
				ServerRequests.cookies(request), request.remoteAddress().orElse(null), attributes(request, shared), body,
				this.ids.generateId().toString(), LocaleContextHolder.getLocale());
		// The first interceptor reads the caller from the security context of the thread that calls the
		// handler: a follow-up read runs on another thread than the request's.
		SecurityContext previous = SecurityContextHolder.getContext();
		SecurityContextHolder.setContext(security);
		try {
			return this.graphQl.handleRequest(graphQlRequest)
				.map((response) -> read(route, request.path(), response,
						RequestScope.of(response.getExecutionInput().getGraphQLContext()).cut()));
		}
		finally {
			SecurityContextHolder.setContext(previous);
		}
	}

	private static Map<String, Object> attributes(ServerRequest request, AtomicReference<ReadStats> shared) {
		Map<String, Object> attributes = new HashMap<>(request.attributes());
		attributes.put(ResponseInterceptor.SHARED_STATS, shared);
		attributes.put(Transport.ATTRIBUTE, Transport.REST);
		return attributes;
	}

	/**
	 * The page an execution answered, or the problem it ran into. A field the caller may not read is left out
	 * of its node ({@link #refusedNodeField}); any other error answers with a problem.
	 */
	private Result read(RestRoute route, String path, GraphQlResponse response, boolean cut) {
		ResponseField page = response.field(route.parent().isPresent() ? "parent.page" : "page");
		boolean parentMissing = route.parent().isPresent() && response.isValid()
				&& response.field("parent").getValue() == null;
		boolean answered = page.getValue() != null;
		Optional<ResponseError> fatal = response.getErrors()
			.stream()
			.filter((error) -> !answered || !refusedNodeField(page, error))
			.findFirst();
		if (fatal.isPresent() || (!answered && !parentMissing)) {
			return Result.problem(problem(fatal.map(RestView::code).orElse(ErrorCode.INTERNAL),
					fatal.map(ResponseError::getMessage).orElse("The page could not be served."), path));
		}
		if (parentMissing) {
			return Result.missing();
		}
		List<?> edges = response.field(page.getPath() + ".edges").getValue();
		List<Map<String, Object>> nodes = new ArrayList<>(edges.size());
		for (int i = 0; i < edges.size(); i++) {
			ResponseField node = response.field(page.getPath() + ".edges[" + i + "].node");
			Map<String, Object> fields = new LinkedHashMap<>(node.<Map<String, Object>>getValue());
			// Every error left is a refused field of a node (any other answered above).
			int depth = node.getParsedPath().size();
			node.getErrors().forEach((error) -> fields.remove(String.valueOf(error.getParsedPath().get(depth))));
			nodes.add(fields);
		}
		return new Result(nodes, Boolean.TRUE.equals(response.field(page.getPath() + ".pageInfo.hasNextPage").getValue()),
				response.field(page.getPath() + ".pageInfo.endCursor").getValue(), cut, null);
	}

	/**
	 * Whether {@code error} refused the caller a field of one of the page's nodes,
	 * {@code <page>.edges[i].node.<field>} ({@code FORBIDDEN} or {@code UNAUTHENTICATED} there).
	 */
	private static boolean refusedNodeField(ResponseField page, ResponseError error) {
		ErrorCode code = code(error);
		List<Object> at = error.getParsedPath();
		int depth = page.getParsedPath().size();
		return (code == ErrorCode.FORBIDDEN || code == ErrorCode.UNAUTHENTICATED) && at.size() > depth + 3
				&& at.subList(0, depth).equals(page.getParsedPath()) && "edges".equals(at.get(depth))
				&& at.get(depth + 1) instanceof Integer && "node".equals(at.get(depth + 2));
	}

	private static ErrorCode code(ResponseError error) {
		return GraphQlErrors.code(error).orElse(ErrorCode.INTERNAL);
	}

	private ServerResponse notFound(RestRoute route, ServerRequest request) {
		Entity parent = route.parent().orElseThrow();
		StringBuilder key = new StringBuilder();
		for (Parameter parameter : route.pathParameters()) {
			key.append((key.length() > 0) ? ", " : "").append(parameter.name()).append(" `")
				.append(request.pathVariable(parameter.name())).append('`');
		}
		return ownProblem(ErrorCode.NOT_FOUND, "No %s with %s: %s reads the %s's connection `%s`.".formatted(parent.name(),
				key, route.path(), parent.name(), route.coordinates().getFieldName()), request.path());
	}

	/** An answer for a path under {@code /api/} that no route has, or a method other than GET. */
	ServerResponse unrouted(ServerRequest request) {
		if (request.method() != HttpMethod.GET && request.method() != HttpMethod.HEAD) {
			boolean known = this.routes.routes().stream().anyMatch((route) -> matches(route.path(), request.path()))
					|| request.path().equals(RestConfiguration.OPENAPI);
			if (known) {
				HttpStatus status = HttpStatus.METHOD_NOT_ALLOWED;
				AnsweredErrors.count(ErrorCode.INVALID_ARGUMENT);
				return ServerResponse.status(status).contentType(Problems.MEDIA_TYPE).allow(HttpMethod.GET, HttpMethod.HEAD)
					.body(Problems.of(status, ErrorCode.INVALID_ARGUMENT,
							"The REST view only reads: use GET, not %s.".formatted(request.method().name()), request.path()));
			}
		}
		return ownProblem(ErrorCode.NOT_FOUND, ("No REST path %s. The paths are listed in %s: /api/<root connection>, and "
				+ "/api/<type, plural>/<its key fields>/<connection> for a type's connections.").formatted(request.path(),
						RestConfiguration.OPENAPI), request.path());
	}

	private static boolean matches(String template, String path) {
		String[] parts = template.split("/");
		String[] given = path.split("/");
		if (parts.length != given.length) {
			return false;
		}
		for (int i = 0; i < parts.length; i++) {
			if (!parts[i].startsWith("{") && !parts[i].equals(given[i])) {
				return false;
			}
		}
		return true;
	}

	/**
	 * A problem of the REST view's own (no GraphQL execution said it), counted as an answered error; one
	 * made of an execution's error is counted with the execution's.
	 */
	static ServerResponse ownProblem(ErrorCode code, String detail, String path) {
		AnsweredErrors.count(code);
		return problem(code, detail, path);
	}

	static ServerResponse problem(ErrorCode code, String detail, String path) {
		HttpStatus status = code.status();
		ServerResponse.BodyBuilder response = ServerResponse.status(status).contentType(Problems.MEDIA_TYPE);
		if (code == ErrorCode.UNAUTHENTICATED) {
			response.header(HttpHeaders.WWW_AUTHENTICATE, "Bearer");
		}
		return response.body(Problems.of(status, code, detail, path));
	}

	/**
	 * What one execution answered.
	 *
	 * @param nodes the page's nodes; null when the parent does not exist (and no problem arose)
	 * @param hasNextPage the page's {@code hasNextPage}
	 * @param endCursor the page's {@code endCursor}
	 * @param cut whether a read budget cut the page, so that {@code hasNextPage} says only "maybe"
	 * @param problem the answer to send instead, when the execution failed
	 */
	private record Result(List<Map<String, Object>> nodes, boolean hasNextPage, String endCursor, boolean cut,
			ServerResponse problem) {

		static Result problem(ServerResponse problem) {
			return new Result(null, false, null, false, problem);
		}

		static Result missing() {
			return new Result(null, false, null, false, null);
		}

	}

}
