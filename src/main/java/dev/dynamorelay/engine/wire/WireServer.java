package dev.dynamorelay.engine.wire;

import java.net.InetSocketAddress;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import dev.dynamorelay.engine.action.Action;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.GlobalEventExecutor;

/**
 * The engine's HTTP server: DynamoDB's and DynamoDB Streams' JSON protocol on one port, on Netty (HTTP/1.1,
 * keep-alive), the operations run on a pool of worker threads. Bound on start; {@link #close()} stops it and
 * closes every connection.
 */
public final class WireServer implements AutoCloseable {

	private final EventLoopGroup loops;

	private final ExecutorService workers;

	private final Channel server;

	private final ChannelGroup connections;

	private final Faults faults;

	private final URI endpoint;

	private WireServer(EventLoopGroup loops, ExecutorService workers, Channel server, Faults faults,
			ChannelGroup connections) {
		this.loops = loops;
		this.connections = connections;
		this.workers = workers;
		this.server = server;
		this.faults = faults;
		InetSocketAddress address = (InetSocketAddress) server.localAddress();
		String host = address.getAddress().getHostAddress();
		this.endpoint = URI.create("http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + address.getPort());
	}

	/**
	 * Binds the server on {@code host}:{@code port} (0: a free port) and serves {@code actions} by their
	 * {@code X-Amz-Target}.
	 * @param region the region of a call whose credentials name none
	 * @param workerThreads the threads that run operations
	 * @throws java.io.UncheckedIOException when the address cannot be bound
	 */
	public static WireServer start(String host, int port, Map<String, Action<?, ?>> actions, Faults faults,
			String region, int workerThreads) {
		JsonCodec codec = new JsonCodec();
		Control control = new Control(codec, faults);
		ThreadPoolExecutor workers = new ThreadPoolExecutor(workerThreads, workerThreads, 60, TimeUnit.SECONDS,
				new LinkedBlockingQueue<>(), new DefaultThreadFactory("dynamodb-engine", true));
		// One or two I/O threads are plenty: they only move bytes; the operations run on the workers.
		EventLoopGroup loops = new MultiThreadIoEventLoopGroup(Math.min(2, Runtime.getRuntime().availableProcessors()),
				new DefaultThreadFactory("dynamodb-engine-io", true), NioIoHandler.newFactory());
		Wire wire = new Wire(Map.copyOf(actions), codec, faults, control, workers, region);
		ChannelGroup connections = new DefaultChannelGroup("dynamodb-engine", GlobalEventExecutor.INSTANCE);
		try {
			Channel server = new ServerBootstrap().group(loops)
				.channel(NioServerSocketChannel.class)
				.option(ChannelOption.SO_BACKLOG, 1024)
				.childOption(ChannelOption.TCP_NODELAY, true)
				.childHandler(new ChannelInitializer<SocketChannel>() {

					@Override
					protected void initChannel(SocketChannel channel) {
						connections.add(channel);
						// SigV4 headers with a session token run to a few KB; 64 KB of headers is generous.
						channel.pipeline().addLast(new HttpServerCodec(8192, 65536, 65536), new WireHandler(wire));
					}

				})
				.bind(host, port)
				.syncUninterruptibly()
				.channel();
			return new WireServer(loops, workers, server, faults, connections);
		}
		catch (Throwable failure) {
			loops.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
			workers.shutdownNow();
			// Netty rethrows the bind's checked exception (the port is taken) as it is.
			if (failure instanceof java.io.IOException cannotBind) {
				throw new java.io.UncheckedIOException(cannotBind.getMessage(), cannotBind);
			}
			throw failure;
		}
	}

	/** The server's address: {@code http://127.0.0.1:PORT}. */
	public URI endpoint() {
		return this.endpoint;
	}

	/** The faults it injects. */
	public Faults faults() {
		return this.faults;
	}

	/** Stops serving: closes the port and every connection (calls held by a stall go unanswered). */
	@Override
	public void close() {
		this.faults.dropHeld();
		this.server.close().syncUninterruptibly();
		this.connections.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
		this.workers.shutdownNow();
		this.loops.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
	}

}
