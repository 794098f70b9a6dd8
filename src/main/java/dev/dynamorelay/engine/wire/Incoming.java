package dev.dynamorelay.engine.wire;

import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.CompositeByteBuf;
import io.netty.handler.codec.http.HttpRequest;

/** A request read whole (or refused before its body was read), waiting its turn on its connection. */
final class Incoming {

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

	/** Whether the request has a body of one byte or more. */
	boolean hasBody() {
		return this.body != null && this.body.isReadable();
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
