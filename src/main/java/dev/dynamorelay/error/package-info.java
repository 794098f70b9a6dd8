/**
 * The contract's error codes as values, the typed failures that carry them, and their shapes on the
 * wire: GraphQL errors with {@code extensions.code}, and problem+json.
 */
package dev.dynamorelay.error;
