package dev.dynamorelay.schema;

import graphql.language.Node;
import graphql.language.SourceLocation;

/**
 * Where a declaration is written: a schema file and a line.
 *
 * @param file the schema file as configured (e.g. {@code sample/shop.graphqls})
 * @param line the line, from 1; 0 when unknown
 */
public record Location(String file, int line) {

	/** The location of a parsed schema element. */
	public static Location of(Node<?> node) {
		SourceLocation source = (node != null) ? node.getSourceLocation() : null;
		if (source == null) {
			return new Location("(generated)", 0);
		}
		return new Location((source.getSourceName() != null) ? source.getSourceName() : "(schema)", source.getLine());
	}

	@Override
	public String toString() {
		return (this.line > 0) ? this.file + ":" + this.line : this.file;
	}

}
