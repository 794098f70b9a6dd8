/**
 * One request's scope, whatever transport brought it: its id, its caller, its budgets and calls in
 * flight, and what it answered; one value in the GraphQL context instead of a key per concern.
 */
package dev.dynamorelay.transport.request;
