package dev.dynamorelay.it;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP proxy on 127.0.0.1 in front of DynamoDB Local that a test can freeze (connections are
 * accepted, nothing is answered) or cut (connections are refused), and then restore.
 */
final class FreezableProxy implements AutoCloseable {

	enum Mode {

		FORWARD, FROZEN, CUT

	}

	private final ServerSocket server;

	private final InetSocketAddress upstream;

	private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();

	private volatile Mode mode = Mode.FORWARD;

	FreezableProxy(InetSocketAddress upstream) throws IOException {
		this.upstream = upstream;
		this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		Thread acceptor = new Thread(this::accept, "proxy-accept");
		acceptor.setDaemon(true);
		acceptor.start();
	}

	int port() {
		return this.server.getLocalPort();
	}

	void mode(Mode mode) {
		this.mode = mode;
		if (mode == Mode.CUT) {
			this.sockets.forEach(FreezableProxy::closeQuietly);
			this.sockets.clear();
		}
	}

	private void accept() {
		while (!this.server.isClosed()) {
			try {
				Socket client = this.server.accept();
				if (this.mode == Mode.CUT) {
					client.setSoLinger(true, 0);
					client.close();
					continue;
				}
				Socket target = new Socket(this.upstream.getAddress(), this.upstream.getPort());
				this.sockets.add(client);
				this.sockets.add(target);
				pump(client, target);
				pump(target, client);
			}
			catch (IOException ex) {
				// closed, or the upstream refused: the client's connection just ends
			}
		}
	}

	private void pump(Socket from, Socket to) throws IOException {
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
					// Bytes read just as the proxy froze are held, not forwarded, until it thaws.
					while (this.mode == Mode.FROZEN) {
						Thread.sleep(20);
					}
					out.write(buffer, 0, read);
					out.flush();
				}
			}
			catch (IOException | InterruptedException ex) {
				// connection closed
			}
			finally {
				closeQuietly(from);
				closeQuietly(to);
			}
		}, "proxy-pump");
		thread.setDaemon(true);
		thread.start();
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
