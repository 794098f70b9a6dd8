package dev.dynamorelay.engine.wire;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;

import dev.dynamorelay.engine.action.Action;
import dev.dynamorelay.engine.action.AwsError;
import dev.dynamorelay.engine.action.RequestContext;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufOutputStream;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.QueryStringDecoder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.SdkPojo;
import software.amazon.awssdk.core.SdkResponse;

/**
 * One HTTP connection to the engine: reads each request whole (up to DynamoDB's 16 MB), answers it as
 * DynamoDB's endpoint does, in order (a pipelining client's requests wait their turn), and keeps the connection
 * open unless the client asked otherwise.
 *
 * <p>The checks run in DynamoDB's order, as dynalite's tests (written against DynamoDB) record it: a body over
 * 16 MB is refused first (413); {@code GET} is the health answer; any other method but {@code POST}, or a body
 * that is not JSON by its content type, is a bare 404; a body that does not parse is a
 * {@code SerializationException}; then the target ({@code UnknownOperationException}), then the signature's
 * presence ({@code MissingAuthenticationTokenException}, {@code IncompleteSignatureException}; signatures are
 * not verified), then the body's shape ({@code SerializationException} with DynamoDB's message). The operation
 * itself runs on the engine's worker threads, never on the connection's I/O thread.
 */
final class WireHandler extends ChannelInboundHandlerAdapter {

	private static final Logger LOGGER = LoggerFactory.getLogger(WireHandler.class);

	/** DynamoDB's bound on a request body (BatchWriteItem's 16 MB). */
	static final int MAX_BODY_BYTES = 16 * 1024 * 1024;

	static final String AMZ_JSON = "application/x-amz-json-1.0";

	static final String JSON = "application/json";

	private static final byte[] UNKNOWN_OPERATION_XML = "<UnknownOperationException/>\n"
		.getBytes(StandardCharsets.US_ASCII);

	private static final char[] REQUEST_ID_CHARACTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".toCharArray();

	/** How many complete requests a pipelining client may have waiting before reading from it pauses. */
	private static final int MAX_WAITING = 16;

	private final Wire wire;

	private final ArrayDeque<Incoming> waiting = new ArrayDeque<>();

	private ChannelHandlerContext context;

	private HttpRequest request;

	private CompositeByteBuf body;

	/** The rest of a request that was refused as too large is read and dropped. */
	private boolean discarding;

	private boolean busy;

	/** The call of this connection a stall holds, if any. */
	private volatile Object held;

	WireHandler(Wire wire) {
		this.wire = wire;
	}

	@Override
	public void handlerAdded(ChannelHandlerContext context) {
		this.context = context;
	}

	@Override
	public void channelRead(ChannelHandlerContext context, Object message) {
		try {
			if (message instanceof HttpRequest request) {
				begin(request);
			}
			if (message instanceof HttpContent content) {
				append(content);
			}
		}
		finally {
			io.netty.util.ReferenceCountUtil.release(message);
		}
	}

	private void begin(HttpRequest request) {
		releaseBody();
		this.discarding = false;
		if (request.decoderResult().isFailure()) {
			// Not HTTP: nothing more can be read from this connection reliably.
			this.request = null;
			this.discarding = true;
			enqueue(new Incoming(request, null, Incoming.Kind.BAD_REQUEST));
			return;
		}
		this.request = request;
		long declared = HttpUtil.getContentLength(request, -1L);
		if (declared > MAX_BODY_BYTES) {
			refuseTooLarge();
			return;
		}
		if (HttpUtil.is100ContinueExpected(request)) {
			this.context.writeAndFlush(
					new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE, Unpooled.EMPTY_BUFFER));
		}
		this.body = this.context.alloc().compositeBuffer(Integer.MAX_VALUE);
	}

	private void append(HttpContent content) {
		if (!this.discarding && this.request != null) {
			ByteBuf bytes = content.content();
			if (this.body.readableBytes() + (long) bytes.readableBytes() > MAX_BODY_BYTES) {
				refuseTooLarge();
			}
			else if (bytes.isReadable()) {
				this.body.addComponent(true, bytes.retain());
			}
		}
		if (content instanceof LastHttpContent) {
			if (!this.discarding && this.request != null) {
				enqueue(new Incoming(this.request, this.body, Incoming.Kind.REQUEST));
				this.body = null;
			}
			this.request = null;
			this.discarding = false;
		}
	}

	/** DynamoDB's answer to a body over 16 MB: 413, chunked, empty, given at once; the rest is read and dropped. */
	private void refuseTooLarge() {
		releaseBody();
		enqueue(new Incoming(this.request, null, Incoming.Kind.TOO_LARGE));
		this.discarding = true;
	}

	private void enqueue(Incoming incoming) {
		this.waiting.add(incoming);
		if (this.waiting.size() > MAX_WAITING) {
			this.context.channel().config().setAutoRead(false);
		}
		next();
	}

	/** Serves the next waiting request, unless one is being served. Runs on the connection's event loop. */
	private void next() {
		if (this.busy) {
			return;
		}
		Incoming incoming = this.waiting.poll();
		if (incoming == null) {
			if (!this.context.channel().config().isAutoRead()) {
				this.context.channel().config().setAutoRead(true);
			}
			return;
		}
		this.busy = true;
		try {
			serve(incoming);
		}
		catch (RuntimeException bug) {
			LOGGER.warn("The engine failed to answer a request", bug);
			incoming.release();
			respond(incoming, Answer.error(AwsError.internal("Internal server error"), AMZ_JSON, this.wire.codec()));
		}
	}

	private void serve(Incoming incoming) {
		HttpRequest request = incoming.request;
		switch (incoming.kind) {
			case BAD_REQUEST -> {
				respond(incoming, Answer.bare(HttpResponseStatus.BAD_REQUEST, new byte[0]).closing());
				return;
			}
			case TOO_LARGE -> {
				respond(incoming, Answer.tooLarge());
				return;
			}
			default -> {
			}
		}
		HttpHeaders headers = request.headers();
		boolean hasBody = incoming.body.isReadable();
		HttpMethod method = request.method();
		if (method.equals(HttpMethod.OPTIONS) && headers.contains(HttpHeaderNames.ORIGIN)) {
			incoming.release();
			respond(incoming, Answer.preflight(headers));
			return;
		}
		if (method.equals(HttpMethod.GET)) {
			incoming.release();
			String region = Signature.region(headers.get(HttpHeaderNames.AUTHORIZATION), this.wire.region());
			respond(incoming, Answer.bare(HttpResponseStatus.OK,
					("healthy: dynamodb." + region + ".amazonaws.com ").getBytes(StandardCharsets.UTF_8)));
			return;
		}
		String contentType = mediaType(headers.get(HttpHeaderNames.CONTENT_TYPE));
		if (!method.equals(HttpMethod.POST) || (hasBody && !contentType.equals(JSON) && !contentType.equals(AMZ_JSON))) {
			incoming.release();
			respond(incoming, Answer.bare(HttpResponseStatus.NOT_FOUND, UNKNOWN_OPERATION_XML));
			return;
		}
		String answerType = contentType.equals(AMZ_JSON) ? AMZ_JSON : JSON;
		String target = headers.get("X-Amz-Target", "");
		byte[] body = incoming.bytes();
		incoming.release();
		if (target.startsWith(Control.PREFIX)) {
			respond(incoming, this.wire.control().serve(target, body, answerType));
			return;
		}
		Action<?, ?> action = this.wire.actions().get(target);
		String authorization = headers.get(HttpHeaderNames.AUTHORIZATION);
		Map<String, List<String>> query = (request.uri().indexOf('?') < 0) ? Map.of()
				: new QueryStringDecoder(request.uri()).parameters();
		AwsError unsigned = Signature.check(authorization, query, headers);
		if (action == null || unsigned != null || body.length == 0) {
			AwsError refusal;
			if (body.length > 0 && !this.wire.codec().isJson(body, 0, body.length)) {
				refusal = AwsError.serialization(null);
			}
			else if (action == null) {
				refusal = AwsError.of("UnknownOperationException", null);
			}
			else if (unsigned != null) {
				refusal = unsigned;
			}
			else {
				refusal = AwsError.serialization(null);
			}
			respond(incoming, Answer.error(refusal, answerType, this.wire.codec()));
			return;
		}
		String region = Signature.region(authorization, this.wire.region());
		Call call = new Call(incoming, action, body, answerType, region);
		Fault fault = this.wire.faults().forTarget(target);
		if (fault.isNone()) {
			dispatch(call);
		}
		else if (!fault.latency().isZero()) {
			this.context.executor().schedule(() -> stallOrDraw(call, fault), fault.latency().toNanos(),
					TimeUnit.NANOSECONDS);
		}
		else {
			stallOrDraw(call, fault);
		}
	}

	private void stallOrDraw(Call call, Fault fault) {
		if (fault.stall()) {
			this.held = this.wire.faults().hold(call.incoming.request.headers().get("X-Amz-Target"), () -> {
				this.held = null;
				dispatch(call);
			});
			return;
		}
		AwsError injected = this.wire.faults().draw(fault);
		if (injected != null) {
			respond(call.incoming, Answer.error(injected, call.answerType, this.wire.codec()));
			return;
		}
		dispatch(call);
	}

	/** Runs the operation on a worker thread and answers from there. */
	private void dispatch(Call call) {
		try {
			this.wire.workers().execute(() -> respond(call.incoming, run(call)));
		}
		catch (RejectedExecutionException closing) {
			// The engine is closing: the connection goes with it.
			this.context.close();
		}
	}

	private Answer run(Call call) {
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
		catch (RuntimeException | StackOverflowError bug) {
			LOGGER.warn("{} failed: answered InternalServerError", call.action.target(), bug);
			return Answer.error(AwsError.internal("Internal server error"), call.answerType, codec);
		}
	}

	/** Writes the answer to {@code incoming} (from any thread) and serves the next request. */
	private void respond(Incoming incoming, Answer answer) {
		if (!this.context.executor().inEventLoop()) {
			this.context.executor().execute(() -> respond(incoming, answer));
			return;
		}
		HttpRequest request = incoming.request;
		boolean keepAlive = request != null && HttpUtil.isKeepAlive(request) && !answer.close;
		HttpResponse response = answer.toResponse(requestId(), request, keepAlive);
		if (answer.chunked) {
			this.context.write(response);
			this.context.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT).addListener(done(keepAlive));
		}
		else {
			this.context.writeAndFlush(response).addListener(done(keepAlive));
		}
	}

	private ChannelFutureListener done(boolean keepAlive) {
		return (future) -> {
			if (!keepAlive || !future.isSuccess()) {
				future.channel().close();
				return;
			}
			this.busy = false;
			next();
		};
	}

	@Override
	public void channelInactive(ChannelHandlerContext context) {
		Object held = this.held;
		if (held != null) {
			this.wire.faults().forget(held);
		}
		releaseBody();
		for (Incoming incoming : this.waiting) {
			incoming.release();
		}
		this.waiting.clear();
		context.fireChannelInactive();
	}

	@Override
	public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
		// A connection reset by its client, or bytes that are not HTTP: the connection is closed, nothing logged
		// above DEBUG (a client can cause it at will).
		LOGGER.debug("Connection closed after an error", cause);
		context.close();
	}

	private void releaseBody() {
		if (this.body != null) {
			this.body.release();
			this.body = null;
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

	/** A request id as DynamoDB's look: 52 characters of capital letters and digits. */
	static String requestId() {
		ThreadLocalRandom random = ThreadLocalRandom.current();
		char[] id = new char[52];
		for (int i = 0; i < id.length; i++) {
			id[i] = REQUEST_ID_CHARACTERS[random.nextInt(REQUEST_ID_CHARACTERS.length)];
		}
		return new String(id);
	}

	/** What the engine needs of its server: the operations, the codec, the faults, the workers. */
	interface Wire {

		Map<String, Action<?, ?>> actions();

		JsonCodec codec();

		Faults faults();

		Control control();

		java.util.concurrent.Executor workers();

		/** The region of a call whose credentials name none. */
		String region();

	}

	/** A request read whole (or refused before its body was read). */
	private static final class Incoming {

		enum Kind {

			REQUEST, TOO_LARGE, BAD_REQUEST

		}

		final HttpRequest request;

		final Kind kind;

		private CompositeByteBuf body;

		Incoming(HttpRequest request, CompositeByteBuf body, Kind kind) {
			this.request = request;
			this.body = body;
			this.kind = kind;
		}

		byte[] bytes() {
			return (this.body == null) ? new byte[0] : ByteBufUtil.getBytes(this.body);
		}

		void release() {
			if (this.body != null) {
				this.body.release();
				this.body = null;
			}
		}

	}

	/** An operation's call, ready to run. */
	private record Call(Incoming incoming, Action<?, ?> action, byte[] body, String answerType, String region) {
	}

	/** An answer: status, body and the headers that go with them. */
	static final class Answer {

		final HttpResponseStatus status;

		final ByteBuf body;

		final String contentType;

		final boolean chunked;

		boolean close;

		private HttpHeaders extra;

		private Answer(HttpResponseStatus status, ByteBuf body, String contentType, boolean chunked) {
			this.status = status;
			this.body = body;
			this.contentType = contentType;
			this.chunked = chunked;
		}

		static Answer bare(HttpResponseStatus status, byte[] body) {
			return new Answer(status, Unpooled.wrappedBuffer(body), null, false);
		}

		static Answer tooLarge() {
			return new Answer(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, null, null, true);
		}

		static Answer preflight(HttpHeaders request) {
			Answer answer = new Answer(HttpResponseStatus.OK, Unpooled.EMPTY_BUFFER, null, false);
			answer.extra = new io.netty.handler.codec.http.DefaultHttpHeaders();
			String headers = request.get(HttpHeaderNames.ACCESS_CONTROL_REQUEST_HEADERS);
			if (headers != null) {
				answer.extra.set(HttpHeaderNames.ACCESS_CONTROL_ALLOW_HEADERS, headers);
			}
			String method = request.get(HttpHeaderNames.ACCESS_CONTROL_REQUEST_METHOD);
			if (method != null) {
				answer.extra.set(HttpHeaderNames.ACCESS_CONTROL_ALLOW_METHODS, method);
			}
			answer.extra.set(HttpHeaderNames.ACCESS_CONTROL_MAX_AGE, "172800");
			return answer;
		}

		static Answer json(SdkPojo pojo, String contentType, JsonCodec codec) {
			ByteBuf body = io.netty.buffer.PooledByteBufAllocator.DEFAULT.buffer();
			try (ByteBufOutputStream out = new ByteBufOutputStream(body)) {
				codec.write(pojo, out);
			}
			catch (java.io.IOException | RuntimeException failure) {
				body.release();
				throw (failure instanceof RuntimeException runtime) ? runtime : new IllegalStateException(failure);
			}
			return new Answer(HttpResponseStatus.OK, body, contentType, false);
		}

		static Answer error(AwsError error, String contentType, JsonCodec codec) {
			ByteBuf body = io.netty.buffer.PooledByteBufAllocator.DEFAULT.buffer(256);
			try (ByteBufOutputStream out = new ByteBufOutputStream(body)) {
				ErrorBodies.write(codec, error, out);
			}
			catch (java.io.IOException impossible) {
				throw new IllegalStateException(impossible);
			}
			return new Answer(HttpResponseStatus.valueOf(error.status()), body, contentType, false);
		}

		static Answer withType(Answer answer, String contentType) {
			return new Answer(answer.status, answer.body, contentType, false);
		}

		Answer closing() {
			this.close = true;
			return this;
		}

		HttpResponse toResponse(String requestId, HttpRequest request, boolean keepAlive) {
			HttpResponse response;
			if (this.chunked) {
				// DynamoDB answers a body over its bound so: no request id, no length, an empty chunked body.
				response = new DefaultHttpResponse(HttpVersion.HTTP_1_1, this.status);
				HttpUtil.setTransferEncodingChunked(response, true);
			}
			else {
				FullHttpResponse full = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, this.status, this.body);
				HttpHeaders headers = full.headers();
				headers.set("x-amzn-RequestId", requestId);
				CRC32 crc = new CRC32();
				crc.update(this.body.nioBuffer());
				headers.set("x-amz-crc32", Long.toString(crc.getValue()));
				if (this.contentType != null) {
					headers.set(HttpHeaderNames.CONTENT_TYPE, this.contentType);
				}
				headers.setInt(HttpHeaderNames.CONTENT_LENGTH, this.body.readableBytes());
				if (this.extra != null) {
					headers.add(this.extra);
				}
				response = full;
			}
			if (request != null && request.headers().contains(HttpHeaderNames.ORIGIN)) {
				response.headers().set(HttpHeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN, "*");
			}
			if (!keepAlive) {
				response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
			}
			else if (request.protocolVersion().equals(HttpVersion.HTTP_1_0)) {
				response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
			}
			return response;
		}

	}

	/** The signature's presence, as DynamoDB checks it before the body (not its validity: any key is taken). */
	static final class Signature {

		private Signature() {
		}

		/**
		 * DynamoDB's refusal of a call whose signature is missing or incomplete, or null: an {@code Authorization}
		 * header of SigV4 with its three parameters and a date, or the query-string form with its five.
		 */
		static AwsError check(String authorization, Map<String, List<String>> query, HttpHeaders headers) {
			boolean queryAuth = query.containsKey("X-Amz-Algorithm");
			if (authorization != null && queryAuth) {
				return AwsError.of("InvalidSignatureException",
						"Found both 'X-Amz-Algorithm' as a query-string param and 'Authorization' as HTTP header.");
			}
			if ((authorization == null && !queryAuth)
					|| (authorization != null && !authorization.strip().startsWith("AWS4-"))) {
				return AwsError.of("MissingAuthenticationTokenException", "Request is missing Authentication Token");
			}
			StringBuilder message = new StringBuilder();
			if (authorization != null) {
				Map<String, String> parameters = parameters(authorization);
				for (String name : new String[] { "Credential", "Signature", "SignedHeaders" }) {
					String value = parameters.get(name);
					if (value == null || value.isEmpty()) {
						message.append("Authorization header requires '").append(name).append("' parameter. ");
					}
				}
				if (!headers.contains("X-Amz-Date") && !headers.contains(HttpHeaderNames.DATE)) {
					message.append("Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header. ");
				}
				if (message.length() > 0) {
					message.append("Authorization=").append(authorization);
				}
			}
			else {
				for (String name : new String[] { "X-Amz-Algorithm", "X-Amz-Credential", "X-Amz-Signature",
						"X-Amz-SignedHeaders", "X-Amz-Date" }) {
					List<String> values = query.get(name);
					if (values == null || values.isEmpty() || values.get(0).isEmpty()) {
						message.append("AWS query-string parameters must include '").append(name).append("'. ");
					}
				}
				if (message.length() > 0) {
					message.append("Re-examine the query-string parameters.");
				}
			}
			return (message.length() > 0) ? AwsError.of("IncompleteSignatureException", message.toString()) : null;
		}

		/** The parameters after the algorithm: {@code Credential=..., SignedHeaders=..., Signature=...}. */
		private static Map<String, String> parameters(String authorization) {
			// Split on commas and spaces, as DynamoDB reads the header (without a regular expression: every call
			// passes here).
			Map<String, String> parameters = new java.util.HashMap<>();
			int length = authorization.length();
			int start = 0;
			boolean first = true;
			for (int i = 0; i <= length; i++) {
				if (i == length || authorization.charAt(i) == ',' || authorization.charAt(i) == ' ') {
					if (i > start) {
						if (first) {
							first = false;
						}
						else {
							String part = authorization.substring(start, i);
							int equals = part.indexOf('=');
							if (equals < 0) {
								parameters.put(part, null);
							}
							else {
								int next = part.indexOf('=', equals + 1);
								parameters.put(part.substring(0, equals),
										part.substring(equals + 1, (next < 0) ? part.length() : next));
							}
						}
					}
					else if (i == start && first && i < length) {
						// An empty piece before the algorithm still counts as the algorithm's place.
						first = false;
					}
					start = i + 1;
				}
			}
			return parameters;
		}

		/** The region of the SigV4 credential scope ({@code Credential=KEY/DATE/REGION/SERVICE/aws4_request}). */
		static String region(String authorization, String fallback) {
			if (authorization == null) {
				return fallback;
			}
			int credential = authorization.indexOf("Credential=");
			if (credential < 0) {
				return fallback;
			}
			int end = credential + "Credential=".length();
			int stop = end;
			while (stop < authorization.length() && authorization.charAt(stop) != ','
					&& authorization.charAt(stop) != ' ') {
				stop++;
			}
			String[] scope = authorization.substring(end, stop).split("/");
			return (scope.length >= 3 && !scope[2].isEmpty()) ? scope[2] : fallback;
		}

	}

}
