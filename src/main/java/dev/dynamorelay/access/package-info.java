/**
 * Who may read and write what: the schema's {@code @auth} rules, read and checked at start
 * ({@code AccessRulesReader}, {@code AccessRules}), and {@code Access}, which decides, before a field reads or
 * writes anything, whether its {@code Caller} (the claims of a validated JWT, or nobody) may use it, and which
 * filters a connection adds for an owner.
 */
package dev.dynamorelay.access;
