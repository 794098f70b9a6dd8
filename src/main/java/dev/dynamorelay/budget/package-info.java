/**
 * A request's budget and its costs: what it may still spend ({@code RequestBudget}: its deadline, the items
 * its reads may scan, its DynamoDB calls in flight and their fair share among all requests' calls, started
 * from the server's settings by {@code RequestBudgets}) apart from what it has cost ({@code RequestCosts}, as
 * {@code extensions.dynamodb} reports it); {@code ReadStats} carries the two for every field of a request.
 *
 * <p>Reads and writes alike make their calls through here. This package knows nothing of Spring, of
 * GraphQL or of what the calls read.
 */
package dev.dynamorelay.budget;
