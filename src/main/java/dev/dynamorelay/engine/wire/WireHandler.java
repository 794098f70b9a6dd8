package dev.dynamorelay.engine.wire;

import java.util.ArrayDeque;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import dev.dynamorelay.engine.action.AwsError;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One HTTP connection to the engine: reads each request whole (up to DynamoDB's 16 MB, {@link RequestReader}),
 * answers it as DynamoDB's endpoint does ({@link Routing}), in order (a pipelining client's requests wait their
 * turn), and keeps the connection open unless the client asked otherwise.
 *
 * <p>The checks run in DynamoDB's order, as dynalite's tests (written against DynamoDB) record it: a body over
 * 16 MB is refused first (413); {@code GET} is the health answer; any other method but {@code POST}, or a body
 * that is not JSON by its content type, is a bare 404; a body that does not parse is a
 * {@code SerializationException}; then the target ({@code UnknownOperationException}), then the signature's
 * presence ({@code MissingAuthenticationTokenException}, {@code IncompleteSignatureException}; signatures are
 * not verified), then the faults of the target, then the body's shape ({@code SerializationException} with
 * DynamoDB's message). The operation itself runs on the engine's worker threads, never on the connection's I/O
 * thread.
 */
final class WireHandler extends ChannelInboundHandlerAdapter {

	private static final Logger LOGGER = LoggerFactory.getLogger(WireHandler.class);

	private static final char[] REQUEST_ID_CHARACTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".toCharArray();

	/** How many complete requests a pipelining client may have waiting before reading from it pauses. */
	private static final int MAX_WAITING = 16;

	private final Wire wire;

	private final Routing routing;

	private final ArrayDeque<Incoming> waiting = new ArrayDeque<>();

	private ChannelHandlerContext context;

	private RequestReader reader;

	private boolean busy;

	/** The call of this connection a stall holds, if any. */
	private volatile Object held;

	WireHandler(Wire wire) {
		this.wire = wire;
		this.routing = new Routing(wire);
	}

	@Override
	public void handlerAdded(ChannelHandlerContext context) {
		this.context = context;
		this.reader = new RequestReader(context, this::enqueue);
	}

	@Override
	public void channelRead(ChannelHandlerContext context, Object message) {
		try {
			this.reader.read(message);
		}
		finally {
			io.netty.util.ReferenceCountUtil.release(message);
		}
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
			respond(incoming, Answer.error(AwsError.internal("Internal server error"), Routing.AMZ_JSON, this.wire.codec()));
		}
	}

	private void serve(Incoming incoming) {
		Routing.Route route = this.routing.route(incoming);
		if (route.answer() != null) {
			respond(incoming, route.answer());
			return;
		}
		Routing.Call call = route.call();
		Fault fault = this.wire.faults().forTarget(call.target());
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

	private void stallOrDraw(Routing.Call call, Fault fault) {
		if (fault.stall()) {
			this.held = this.wire.faults().hold(call.target(), () -> {
				this.held = null;
				dispatch(call);
			});
			return;
		}
		AwsError injected = this.wire.faults().draw(fault);
		if (injected != null) {
			respond(call.incoming(), Answer.error(injected, call.answerType(), this.wire.codec()));
			return;
		}
		dispatch(call);
	}

	/** Runs the operation on a worker thread and answers from there. */
	private void dispatch(Routing.Call call) {
		try {
			this.wire.workers().execute(() -> respond(call.incoming(), this.routing.run(call)));
		}
		catch (RejectedExecutionException closing) {
			// The engine is closing: the connection goes with it.
			this.context.close();
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
		this.reader.release();
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

	/** A request id as DynamoDB's look: 52 characters of capital letters and digits. */
	static String requestId() {
		ThreadLocalRandom random = ThreadLocalRandom.current();
		char[] id = new char[52];
		for (int i = 0; i < id.length; i++) {
			id[i] = REQUEST_ID_CHARACTERS[random.nextInt(REQUEST_ID_CHARACTERS.length)];
		}
		return new String(id);
	}

}
