/**
 * The pagination engine: Relay connection pages read straight from DynamoDB.
 *
 * <p>A connection is a {@link dev.dynamorelay.model.ConnectionDefinition} (table or index,
 * key attributes, item mapping); a call is a {@link dev.dynamorelay.pagination.ConnectionQuery}
 * (partition, sort-key prefix, filter, order) and a {@link dev.dynamorelay.pagination.PageRequest}
 * (direction, size, cursor). {@link dev.dynamorelay.pagination.Paginator} turns the three into a
 * {@link dev.dynamorelay.pagination.Page}: the cursor becomes {@code ExclusiveStartKey}, and whether
 * more items follow comes from DynamoDB's {@code LastEvaluatedKey}.
 *
 * <p>This package knows nothing of Spring or of the GraphQL transport.
 */
package dev.dynamorelay.pagination;
