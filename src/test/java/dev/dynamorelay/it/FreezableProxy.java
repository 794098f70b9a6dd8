package dev.dynamorelay.it;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP proxy on 127.0.0.1 in front of a DynamoDB engine that a test can freeze (connections are
 * accepted, nothing is answered), slow down (each request's bytes are held a fixed time before they are
 * forwarded, so every call takes at least that long, however fast DynamoDB answers), cut (connections are
 * accepted and reset), stop (nothing listens: connections are refused), or make answer every request with a
 * body that is not JSON; and then restore, on the same port. While frozen it tells how many connections hold
 * a request it has not forwarded: the calls in flight.
 *
 * <p>It can also lose answers: forward requests of one DynamoDB operation, let DynamoDB make them, and reset
 * the client's connection instead of passing on the answer ({@link #loseAnswers}), as a network that fails
 * on the way back does. And it keeps the requests of that operation as it forwarded them ({@link #requests}),
 * with the body the SDK sent, so that a test sees what went on the wire, retries included.
 */
public final class FreezableProxy implements AutoCloseable {

	public enum Mode {

		FORWARD, FROZEN, SLOW, CUT, STOPPED, GARBLED

	}

	private final InetSocketAddress upstream;

	private final int port;

	private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();

	/** The connections the client opened to the proxy. */
	private final Set<Socket> clients = ConcurrentHashMap.newKeySet();

	/** Connections whose bytes a pump read just as the proxy froze, and holds. */
	private final Set<Socket> holding = ConcurrentHashMap.newKeySet();

	private volatile ServerSocket server;

	private volatile Mode mode = Mode.FORWARD;

	/** The operation whose answers are lost (its {@code X-Amz-Target}, e.g. {@code PutItem}), if any. */
	private volatile String losing;

	/** How many more answers of {@link #losing} to lose. */
	private final AtomicInteger toLose = new AtomicInteger();

	/** The requests of {@link #losing} forwarded since {@link #loseAnswers}: their bodies. */
	private final List<String> requests = java.util.Collections.synchronizedList(new ArrayList<>());
	/** What each request's bytes are held in {@link Mode#SLOW}. */
	private volatile Duration delay = Duration.ZERO;

	public FreezableProxy(InetSocketAddress upstream) throws IOException {
		this.upstream = upstream;
		this.server = listen(0);
		this.port = this.server.getLocalPort();
		startAccepting(this.server);
	}

	public int port() {
		return this.port;
	}

	/** Slows every call down by {@code delay} at least: {@link Mode#SLOW}, until another mode is set. */
	public synchronized void slow(Duration delay) {
		this.delay = delay;
		mode(Mode.SLOW);
	}

	public synchronized void mode(Mode mode) {
		Mode previous = this.mode;
		this.mode = mode;
		if (mode == Mode.CUT || mode == Mode.STOPPED || mode == Mode.GARBLED || previous == Mode.GARBLED) {
			this.sockets.forEach(FreezableProxy::closeQuietly);
			this.sockets.clear();
		}
		try {
			if (mode == Mode.STOPPED) {
				this.server.close();
			}
			else if (previous == Mode.STOPPED) {
				this.server = listen(this.port);
				startAccepting(this.server);
			}
		}
		catch (IOException ex) {
			throw new IllegalStateException("The proxy could not " + ((mode == Mode.STOPPED) ? "stop" : "listen again"),
					ex);
		}
	}

	private static ServerSocket listen(int port) throws IOException {
		ServerSocket server = new ServerSocket();
		server.setReuseAddress(true);
		server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 50);
		return server;
	}

	private void startAccepting(ServerSocket server) {
		Thread acceptor = new Thread(() -> accept(server), "proxy-accept");
		acceptor.setDaemon(true);
		acceptor.start();
	}

	private void accept(ServerSocket server) {
		while (!server.isClosed()) {
			try {
				Socket client = server.accept();
				synchronized (this) {
					// Under the lock mode() takes: a connection accepted as the proxy stops is closed with the others,
					// never forwarded after the stop (a request then went through while the test expected none).
					if (this.mode == Mode.STOPPED) {
						closeQuietly(client);
						continue;
					}
					if (this.mode == Mode.CUT) {
						client.setSoLinger(true, 0);
						client.close();
						continue;
					}
					this.sockets.add(client);
					this.clients.add(client);
				}
				if (this.mode == Mode.GARBLED) {
					garble(client);
					continue;
				}
				Socket target = new Socket(this.upstream.getAddress(), this.upstream.getPort());
				this.sockets.add(target);
				Exchange exchange = new Exchange();
				pump(client, target, exchange, true);
				pump(target, client, exchange, false);
			}
			catch (IOException ex) {
				// closed, or the upstream refused: the client's connection just ends
			}
		}
	}

	/**
	 * From now on, forwards the next {@code count} requests of DynamoDB operation {@code operation} and loses
	 * their answers: DynamoDB makes each, and the client's connection is reset when the answer comes back.
	 * The requests of that operation are kept from now on ({@link #requests}); 0 keeps them and loses none.
	 */
	public void loseAnswers(String operation, int count) {
		this.requests.clear();
		this.losing = operation;
		this.toLose.set(count);
	}

	/** The bodies of the requests of the operation {@link #loseAnswers} named, as forwarded, in order. */
	public List<String> requests() {
		synchronized (this.requests) {
			return List.copyOf(this.requests);
		}
	}

	/**
	 * What one client connection's two pumps share: the request bytes read so far (to find whole requests in
	 * them), and whether the answer to come is to be lost.
	 */
	private static final class Exchange {

		final ByteArrayOutputStream pending = new ByteArrayOutputStream();

		volatile boolean loseAnswer;

	}

	/**
	 * Takes note of the request bytes a pump is about to forward: each whole request of the operation being
	 * lost is kept, and its answer marked to be lost while any are left to lose. The mark is set before the
	 * request's last bytes go on, so before any answer to it can come back.
	 */
	private void requestBytes(Exchange exchange, byte[] buffer, int read) {
		String operation = this.losing;
		if (operation == null) {
			return;
		}
		exchange.pending.write(buffer, 0, read);
		while (true) {
			String text = exchange.pending.toString(StandardCharsets.ISO_8859_1);
			int headEnd = text.indexOf("\r\n\r\n");
			if (headEnd < 0) {
				return;
			}
			String head = text.substring(0, headEnd);
			int length = 0;
			boolean ofOperation = false;
			for (String line : head.split("\r\n")) {
				String lower = line.toLowerCase(Locale.ROOT);
				if (lower.startsWith("content-length:")) {
					length = Integer.parseInt(line.substring("content-length:".length()).trim());
				}
				if (lower.startsWith("x-amz-target:") && line.trim().endsWith("." + operation)) {
					ofOperation = true;
				}
			}
			int end = headEnd + 4 + length;
			if (text.length() < end) {
				return;
			}
			if (ofOperation) {
				this.requests.add(new String(text.substring(headEnd + 4, end).getBytes(StandardCharsets.ISO_8859_1),
						StandardCharsets.UTF_8));
				if (this.toLose.getAndUpdate((left) -> Math.max(0, left - 1)) > 0) {
					exchange.loseAnswer = true;
				}
			}
			byte[] rest = text.substring(end).getBytes(StandardCharsets.ISO_8859_1);
			exchange.pending.reset();
			exchange.pending.write(rest, 0, rest.length);
		}
	}

	private void pump(Socket from, Socket to, Exchange exchange, boolean requests) throws IOException {
		from.setSoTimeout(50);
		Thread thread = new Thread(() -> {
			byte[] buffer = new byte[64 * 1024];
			try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
				while (true) {
					if (this.mode == Mode.FROZEN) {
						Thread.sleep(20);
						continue;
					}
					int read;
					try {
						read = in.read(buffer);
					}
					catch (SocketTimeoutException ex) {
						continue;
					}
					if (read < 0) {
						break;
					}
					if (this.mode == Mode.SLOW && this.clients.contains(from)) {
						Thread.sleep(this.delay.toMillis());
					}
					// Bytes read just as the proxy froze are held, not forwarded, until it thaws.
					if (this.mode == Mode.FROZEN) {
						this.holding.add(from);
						while (this.mode == Mode.FROZEN) {
							Thread.sleep(20);
						}
						this.holding.remove(from);
					}
					if (requests) {
						requestBytes(exchange, buffer, read);
					}
					else if (exchange.loseAnswer) {
						// DynamoDB has made the request and answered: the client never hears of it.
						to.setSoLinger(true, 0);
						break;
					}
					out.write(buffer, 0, read);
					out.flush();
				}
			}
			catch (IOException | InterruptedException ex) {
				// connection closed
			}
			finally {
				this.holding.remove(from);
				this.clients.remove(from);
				closeQuietly(from);
				closeQuietly(to);
			}
		}, "proxy-pump");
		thread.setDaemon(true);
		thread.start();
	}

	/**
	 * While frozen: the client's connections holding a request the proxy has not forwarded (bytes waiting
	 * to be read, or read and held). Over HTTP/1.1 a connection carries one call at a time, so this is
	 * the number of calls in flight.
	 */
	public int heldRequests() {
		int held = 0;
		for (Socket client : this.clients) {
			try {
				if (this.holding.contains(client) || (!client.isClosed() && client.getInputStream().available() > 0)) {
					held++;
				}
			}
			catch (IOException ex) {
				// closed meanwhile: holds nothing
			}
		}
		return held;
	}

	/** Answers every HTTP request on the connection with 200 and a body that is not JSON. */
	private void garble(Socket client) {
		Thread thread = new Thread(() -> {
			byte[] answer = ("HTTP/1.1 200 OK\r\nContent-Type: application/x-amz-json-1.0\r\nContent-Length: 16\r\n\r\n"
					+ "this is not json").getBytes(StandardCharsets.US_ASCII);
			try (InputStream in = client.getInputStream(); OutputStream out = client.getOutputStream()) {
				while (this.mode == Mode.GARBLED) {
					int length = contentLength(in);
					if (length < 0 || in.readNBytes(length).length < length) {
						break;
					}
					out.write(answer);
					out.flush();
				}
			}
			catch (IOException ex) {
				// connection closed
			}
			finally {
				closeQuietly(client);
			}
		}, "proxy-garble");
		thread.setDaemon(true);
		thread.start();
	}

	/** Reads a request's head and returns its Content-Length (0 without one), or -1 at the end of the stream. */
	private static int contentLength(InputStream in) throws IOException {
		ByteArrayOutputStream head = new ByteArrayOutputStream();
		int matched = 0;
		byte[] end = { '\r', '\n', '\r', '\n' };
		while (matched < end.length) {
			int next = in.read();
			if (next < 0) {
				return -1;
			}
			head.write(next);
			matched = (next == end[matched]) ? matched + 1 : ((next == '\r') ? 1 : 0);
		}
		for (String line : head.toString(StandardCharsets.US_ASCII).split("\r\n")) {
			if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
				return Integer.parseInt(line.substring("content-length:".length()).trim());
			}
		}
		return 0;
	}

	private static void closeQuietly(Socket socket) {
		try {
			socket.close();
		}
		catch (IOException ex) {
			// already closed
		}
	}

	@Override
	public void close() throws IOException {
		this.server.close();
		this.sockets.forEach(FreezableProxy::closeQuietly);
	}

}
