/**
 * The sample served when no schema is configured: its data and the one resolver its declarations
 * cannot express ({@code createPurchase}'s rules), as ordinary Spring GraphQL code.
 */
package dev.dynamorelay.sample;
