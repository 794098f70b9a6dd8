/**
 * The sample served when no schema is configured: its data, loaded into empty tables at start, and the calls
 * that loading makes, for the IAM policy. Its queries, mutations and subscriptions are all declarations.
 */
package dev.dynamorelay.sample;
