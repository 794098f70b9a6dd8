package dev.dynamorelay.engine;

import java.util.List;

/**
 * The registry of the engine's operations: one line per operation, its {@code X-Amz-Target}, its request's
 * builder and what runs it. Each part of the engine (the store's tables and items, the streams) adds its
 * operations here; the wire serves exactly these, and answers any other target {@code UnknownOperationException}.
 */
final class EngineActions {

	private EngineActions() {
	}

	/** The operations of the engine's parts (the store and the streams add theirs here as they land). */
	static List<Action<?, ?>> all() {
		return List.of();
	}

}
