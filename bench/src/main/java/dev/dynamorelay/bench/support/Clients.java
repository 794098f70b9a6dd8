package dev.dynamorelay.bench.support;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;

/** Clients running at once, each on its own thread; closing stops any still running. */
public final class Clients<T> implements AutoCloseable {

	private final ExecutorService pool;

	private final List<Future<T>> results = new ArrayList<>();

	private Clients(int count) {
		this.pool = Executors.newFixedThreadPool(count);
	}

	public static <T> Clients<T> start(int count, IntFunction<Callable<T>> client) {
		Clients<T> clients = new Clients<>(count);
		for (int c = 0; c < count; c++) {
			clients.results.add(clients.pool.submit(client.apply(c)));
		}
		return clients;
	}

	/** Each client's result, once all have returned; the first failure is thrown. */
	public List<T> join() throws Exception {
		List<T> values = new ArrayList<>();
		for (Future<T> result : this.results) {
			values.add(result.get());
		}
		return values;
	}

	@Override
	public void close() {
		this.pool.shutdownNow();
	}

}
