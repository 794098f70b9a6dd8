package dev.dynamorelay.engine.wire;

import java.util.Map;

import dev.dynamorelay.engine.action.Action;

/**
 * What the engine's connections need of its server: the operations by target, the codec, the faults, the engine's
 * own control targets, the workers that run operations, and the region of a call whose credentials name none.
 *
 * @param actions the operations served, by {@code X-Amz-Target}
 * @param codec the codec of requests and answers
 * @param faults the faults injected
 * @param control the engine's own targets (faults over HTTP)
 * @param workers the threads that run operations
 * @param region the region of a call whose credentials name none
 */
record Wire(Map<String, Action<?, ?>> actions, JsonCodec codec, Faults faults, Control control,
		java.util.concurrent.Executor workers, String region) {
}
