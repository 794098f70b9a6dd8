/**
 * What every operation of the engine is made of, below everything else of it: {@link
 * dev.dynamorelay.engine.action.Action} (one operation, its target and its request and answer types), {@link
 * dev.dynamorelay.engine.action.AwsError} (DynamoDB's errors, by type, status and message) and {@link
 * dev.dynamorelay.engine.action.RequestContext} (the region a call is signed for). The store, the streams, the
 * journal and the wire import these; the engine's assembly ({@code DynamoDbEngine}, {@code EngineMain}) imports
 * them and those packages, so that data flows one way.
 */
package dev.dynamorelay.engine.action;
