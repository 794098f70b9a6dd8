/**
 * {@code generate-iam-policy}: the least-privilege IAM policy of a server for its declarations
 * ({@code IamPolicy}).
 */
package dev.dynamorelay.command.iam;
