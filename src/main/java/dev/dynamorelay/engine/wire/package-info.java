/**
 * The engine's wire: DynamoDB's and DynamoDB Streams' JSON protocol (AWS JSON 1.0) over HTTP/1.1 on Netty.
 * {@link dev.dynamorelay.engine.wire.WireServer} answers malformed requests as DynamoDB's endpoint does and runs
 * each operation on a worker thread; {@link dev.dynamorelay.engine.wire.JsonCodec} reads and writes every shape
 * by the AWS SDK's field metadata; {@link dev.dynamorelay.engine.wire.Faults} injects throttling, server errors,
 * latency and stalls for tests, set from Java or over HTTP ({@link dev.dynamorelay.engine.wire.Control}).
 */
package dev.dynamorelay.engine.wire;
