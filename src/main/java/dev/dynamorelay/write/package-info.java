/**
 * The write engine: declared mutations become DynamoDB writes. Items are composed from key templates,
 * type attributes and index key templates; versions, owners and declared conditions become
 * ConditionExpressions checked in the same write; several items, references and children go in one
 * TransactWriteItems; every refusal is told apart (CONFLICT, NOT_FOUND) from the stored item DynamoDB
 * returns with it, never from a second read.
 *
 * <p>The engine knows nothing of the GraphQL transport, and of Spring but its wiring ({@code WriteConfiguration}):
 * it takes a mutation's declaration and its typed input ({@link dev.dynamorelay.write.MutationInput}), and answers
 * a typed result per input object ({@link dev.dynamorelay.write.Written}) that a transport maps by property name.
 */
package dev.dynamorelay.write;
