package dev.dynamorelay.schema;

import graphql.language.Node;
import graphql.language.SourceLocation;

/**
 * Where a declaration is written: a schema file, a line and a column, printed {@code file:line:column} as
 * compilers print them (editors and terminals open the file there).
 *
 * @param file the schema file as configured (e.g. {@code sample/shop.graphqls})
 * @param line the line, from 1; 0 when unknown
 * @param column the column, from 1; 0 when unknown
 */
public record Location(String file, int line, int column) {

	/** A line of a file, without its column. */
	public Location(String file, int line) {
		this(file, line, 0);
	}

	/** The location of a parsed schema element: where it starts (a directive's {@code @}, a value's first character). */
	public static Location of(Node<?> node) {
		SourceLocation source = (node != null) ? node.getSourceLocation() : null;
		if (source == null) {
			return new Location("(generated)", 0);
		}
		return new Location((source.getSourceName() != null) ? source.getSourceName() : "(schema)", source.getLine(),
				Math.max(source.getColumn(), 0));
	}

	@Override
	public String toString() {
		if (this.line <= 0) {
			return this.file;
		}
		return (this.column > 0) ? this.file + ":" + this.line + ":" + this.column : this.file + ":" + this.line;
	}

}
