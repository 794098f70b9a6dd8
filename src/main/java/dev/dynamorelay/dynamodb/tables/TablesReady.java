package dev.dynamorelay.dynamodb.tables;

/**
 * Start-up work that may begin as soon as the declared tables exist, while the rest of the server is still
 * being built: a bean of this type is told right after the tables were created and checked (the sample
 * data's load is one).
 */
@FunctionalInterface
public interface TablesReady {

	/** Called once, on the starting thread, with the tables just created and checked; must not block. */
	void tablesReady(DeclaredTables tables);

}
