package dev.dynamorelay.engine.wire;

import java.util.zip.CRC32;

import dev.dynamorelay.engine.action.AwsError;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufOutputStream;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import software.amazon.awssdk.core.SdkPojo;

/**
 * An answer of the wire: status, body and the headers that go with them (the request id, the body's CRC32, the
 * content type, CORS and keep-alive), as DynamoDB's endpoint writes them.
 */
final class Answer {

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
