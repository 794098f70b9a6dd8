/**
 * A request's budgets: its deadline, the items its reads may scan, its DynamoDB calls in flight, and their
 * fair share among all requests' calls; what the request cost, as {@code extensions.dynamodb} reports it.
 *
 * <p>Reads and writes alike make their calls through here. This package knows nothing of Spring, of
 * GraphQL or of what the calls read.
 */
package dev.dynamorelay.budget;
