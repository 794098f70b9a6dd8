package dev.dynamorelay.dynamodb;

import java.util.concurrent.TimeUnit;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import software.amazon.awssdk.http.nio.netty.SdkEventLoopGroup;

/**
 * The Netty event loops of the SDK's Netty HTTP clients (DynamoDB Streams', and DynamoDB's when
 * {@code dynamo-relay.dynamodb.http-client=netty}), as many threads as the SDK's own group would have, owned here so
 * that a stop ends them at once. A client that owns its loops closes them with Netty's quiet period and waits for
 * it: that held every stop of the server for about 4.7 s after its last request.
 */
public final class NettyLoops implements AutoCloseable {

	/** Netty 4.2's NioEventLoopGroup: the SDK knows the channels of no other kind (4.2's MultiThreadIoEventLoopGroup). */
	@SuppressWarnings("deprecation")
	private final EventLoopGroup group = new NioEventLoopGroup(0, new DefaultThreadFactory("dynamodb-netty", true));

	NettyLoops() {
	}

	/** The loops, for a client builder: the client leaves them open when it closes. */
	SdkEventLoopGroup sdk() {
		return SdkEventLoopGroup.create(this.group);
	}

	/** Ends the loops with no quiet period: the clients that used them are closed before. */
	@Override
	public void close() {
		this.group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
	}

}
