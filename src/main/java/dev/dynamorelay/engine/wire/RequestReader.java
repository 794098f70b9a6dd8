package dev.dynamorelay.engine.wire;

import java.util.function.Consumer;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;

/**
 * Reads a connection's requests whole, body and all, up to DynamoDB's bound of 16 MB: a request whose declared or
 * actual length is over it is refused at once and the rest of it read and dropped, and a request that is not HTTP
 * is refused and ends the connection. Each request read (or refused) goes to the connection's queue.
 * Runs on the connection's event loop.
 */
final class RequestReader {

	/** DynamoDB's bound on a request body (BatchWriteItem's 16 MB). */
	static final int MAX_BODY_BYTES = 16 * 1024 * 1024;

	private final ChannelHandlerContext context;

	private final Consumer<Incoming> queue;

	private HttpRequest request;

	private CompositeByteBuf body;

	/** The rest of a request that was refused as too large is read and dropped. */
	private boolean discarding;

	RequestReader(ChannelHandlerContext context, Consumer<Incoming> queue) {
		this.context = context;
		this.queue = queue;
	}

	/** Takes what the HTTP codec read: a request's start, a part of its body, or both. */
	void read(Object message) {
		if (message instanceof HttpRequest request) {
			begin(request);
		}
		if (message instanceof HttpContent content) {
			append(content);
		}
	}

	private void begin(HttpRequest request) {
		release();
		this.discarding = false;
		if (request.decoderResult().isFailure()) {
			// Not HTTP: nothing more can be read from this connection reliably.
			this.request = null;
			this.discarding = true;
			this.queue.accept(new Incoming(request, null, Incoming.Kind.BAD_REQUEST));
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
				this.queue.accept(new Incoming(this.request, this.body, Incoming.Kind.REQUEST));
				this.body = null;
			}
			this.request = null;
			this.discarding = false;
		}
	}

	/** DynamoDB's answer to a body over 16 MB: 413, chunked, empty, given at once; the rest is read and dropped. */
	private void refuseTooLarge() {
		release();
		this.queue.accept(new Incoming(this.request, null, Incoming.Kind.TOO_LARGE));
		this.discarding = true;
	}

	/** Releases the body being read, if any. */
	void release() {
		if (this.body != null) {
			this.body.release();
			this.body = null;
		}
	}

}
