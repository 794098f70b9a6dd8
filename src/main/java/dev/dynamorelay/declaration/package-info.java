/**
 * The declaration language: schema files with dynamo-relay's directives become checked declarations
 * of tables, the types stored in them, connections and lookups.
 *
 * <p>Read once at start ({@link dev.dynamorelay.declaration.DeclarationReader}); every problem is
 * reported with its file and line. Nothing here reads DynamoDB.
 */
package dev.dynamorelay.declaration;
