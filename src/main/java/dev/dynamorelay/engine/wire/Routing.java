package dev.dynamorelay.engine.wire;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import dev.dynamorelay.engine.action.Action;
import dev.dynamorelay.engine.action.AwsError;
import dev.dynamorelay.engine.action.RequestContext;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.QueryStringDecoder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.SdkPojo;
import software.amazon.awssdk.core.SdkResponse;

/**
 * Routes a request read whole to its answer or to its operation, with DynamoDB's checks in DynamoDB's order (as
 * dynalite's tests, written against DynamoDB, record it): {@code GET} is the health answer; any other method but
 * {@code POST}, or a body that is not JSON by its content type, is a bare 404; a body that does not parse is a
 * {@code SerializationException}; then the target ({@code UnknownOperationException}), then the signature's
 * presence ({@code MissingAuthenticationTokenException}, {@code IncompleteSignatureException}; signatures are not
 * verified). Then runs an operation's call, mapping what it throws to DynamoDB's error answers: the body's shape
 * ({@code SerializationException} with DynamoDB's message), the operation's own errors, and anything else as
 * {@code InternalServerError}.
 */
final class Routing {

	/** The connection's logger: routing is a part of serving a connection to whoever reads the log. */
	private static final Logger LOGGER = LoggerFactory.getLogger(WireHandler.class);

	static final String AMZ_JSON = "application/x-amz-json-1.0";

	static final String JSON = "application/json";

	private static final byte[] UNKNOWN_OPERATION_XML = "<UnknownOperationException/>\n"
		.getBytes(StandardCharsets.US_ASCII);

	private final Wire wire;

	Routing(Wire wire) {
		this.wire = wire;
	}

	/** An operation's call, ready to run. */
	record Call(Incoming incoming, Action<?, ?> action, byte[] body, String answerType, String region, String target) {
	}

	/**
	 * Where a request goes: an answer to give at once, or a call to run (after the faults of its target).
	 * @param answer the answer, or null
	 * @param call the call, or null
	 */
	record Route(Answer answer, Call call) {

		static Route answer(Answer answer) {
			return new Route(answer, null);
		}

	}

	/** Routes a request read whole (its body released once read). */
	Route route(Incoming incoming) {
		HttpRequest request = incoming.request;
		switch (incoming.kind) {
			case BAD_REQUEST -> {
				return Route.answer(Answer.bare(HttpResponseStatus.BAD_REQUEST, new byte[0]).closing());
			}
			case TOO_LARGE -> {
				return Route.answer(Answer.tooLarge());
			}
			default -> {
			}
		}
		HttpHeaders headers = request.headers();
		boolean hasBody = incoming.hasBody();
		HttpMethod method = request.method();
		if (method.equals(HttpMethod.OPTIONS) && headers.contains(HttpHeaderNames.ORIGIN)) {
			incoming.release();
			return Route.answer(Answer.preflight(headers));
		}
		if (method.equals(HttpMethod.GET)) {
			incoming.release();
			String region = Signature.region(headers.get(HttpHeaderNames.AUTHORIZATION), this.wire.region());
			return Route.answer(Answer.bare(HttpResponseStatus.OK,
					("healthy: dynamodb." + region + ".amazonaws.com ").getBytes(StandardCharsets.UTF_8)));
		}
		String contentType = mediaType(headers.get(HttpHeaderNames.CONTENT_TYPE));
		if (!method.equals(HttpMethod.POST) || (hasBody && !contentType.equals(JSON) && !contentType.equals(AMZ_JSON))) {
			incoming.release();
			return Route.answer(Answer.bare(HttpResponseStatus.NOT_FOUND, UNKNOWN_OPERATION_XML));
		}
		return routePost(incoming, contentType.equals(AMZ_JSON) ? AMZ_JSON : JSON);
	}

	/** A POST of JSON: to the engine's own targets, or to an operation once its target and signature are known. */
	private Route routePost(Incoming incoming, String answerType) {
		HttpRequest request = incoming.request;
		HttpHeaders headers = request.headers();
		String target = headers.get("X-Amz-Target", "");
		byte[] body = incoming.bytes();
		incoming.release();
		if (target.startsWith(Control.PREFIX)) {
			return Route.answer(this.wire.control().serve(target, body, answerType));
		}
		Action<?, ?> action = this.wire.actions().get(target);
		String authorization = headers.get(HttpHeaderNames.AUTHORIZATION);
		Map<String, List<String>> query = (request.uri().indexOf('?') < 0) ? Map.of()
				: new QueryStringDecoder(request.uri()).parameters();
		AwsError unsigned = Signature.check(authorization, query, headers);
		if (action == null || unsigned != null || body.length == 0) {
			return Route.answer(Answer.error(refusal(body, action, unsigned), answerType, this.wire.codec()));
		}
		String region = Signature.region(authorization, this.wire.region());
		return new Route(null, new Call(incoming, action, body, answerType, region, target));
	}

	/** Why a call cannot run, in DynamoDB's order: a body that is not JSON, the target, the signature, no body. */
	private AwsError refusal(byte[] body, Action<?, ?> action, AwsError unsigned) {
		if (body.length > 0 && !this.wire.codec().isJson(body, 0, body.length)) {
			return AwsError.serialization(null);
		}
		if (action == null) {
			return AwsError.of("UnknownOperationException", null);
		}
		if (unsigned != null) {
			return unsigned;
		}
		return AwsError.serialization(null);
	}

	/** Runs a call (on a worker thread) and answers its response or its error. */
	Answer run(Call call) {
		JsonCodec codec = this.wire.codec();
		try {
			SdkPojo builder = call.action.requestBuilder();
			codec.read(call.body, 0, call.body.length, builder);
			SdkResponse response = RequestContext.call(call.region, () -> call.action.execute(builder));
			return Answer.json(response, call.answerType, codec);
		}
		catch (AwsError error) {
			return Answer.error(error, call.answerType, codec);
		}
		// A LinkageError too (a class it cannot load, its jar replaced under it): the call is answered, never left
		// waiting; other Errors (out of memory) end the process as the JVM is set to.
		catch (RuntimeException | StackOverflowError | LinkageError bug) {
			LOGGER.warn("{} failed: answered InternalServerError", call.action.target(), bug);
			return Answer.error(AwsError.internal("Internal server error"), call.answerType, codec);
		}
	}

	/** The media type of a Content-Type header, without its parameters ({@code ; charset=...}). */
	static String mediaType(String contentType) {
		if (contentType == null) {
			return "";
		}
		int semicolon = contentType.indexOf(';');
		return ((semicolon >= 0) ? contentType.substring(0, semicolon) : contentType).trim();
	}

}
