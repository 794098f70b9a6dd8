/**
 * The write engine: declared mutations become DynamoDB writes. Items are composed from key templates,
 * type attributes and index key templates; versions, owners and declared conditions become
 * ConditionExpressions checked in the same write; several items, references and children go in one
 * TransactWriteItems; every refusal is told apart (CONFLICT, NOT_FOUND) from the stored item DynamoDB
 * returns with it, never from a second read.
 *
 * <p>This package knows nothing of Spring or of the GraphQL transport: it takes a mutation's declaration
 * and its input values, and answers the items written.
 */
package dev.dynamorelay.write;
