/**
 * Typed failures that map one-to-one to the contract's error codes.
 */
package dev.dynamorelay.error;
