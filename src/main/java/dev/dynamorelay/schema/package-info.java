/**
 * The schema files a server serves: where they are, the declaration language's own file beside them, and
 * the one parse of them that declarations, access rules, the export and Spring GraphQL share.
 */
package dev.dynamorelay.schema;
