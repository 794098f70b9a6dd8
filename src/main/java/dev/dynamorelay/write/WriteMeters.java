package dev.dynamorelay.write;

import dev.dynamorelay.error.ErrorCode;

/**
 * Where the write engine reports what one declared mutation did: the items it wrote and the capacity that
 * cost, that it wrote nothing (a delete of nothing), or why a write was refused.
 */
public interface WriteMeters {

	/** Records nothing. */
	WriteMeters NONE = new WriteMeters() {

		@Override
		public void written(int items, double capacityUnits) {
		}

		@Override
		public void unchanged(double capacityUnits) {
		}

		@Override
		public void refused(ErrorCode code) {
		}

	};

	/**
	 * One mutation that wrote.
	 * @param items the items written (a create's children and a list's items included)
	 * @param capacityUnits the capacity its calls consumed (writes, and the reads they needed)
	 */
	void written(int items, double capacityUnits);

	/**
	 * One mutation that succeeded and wrote nothing: a delete of items that were not there.
	 * @param capacityUnits the capacity its calls consumed all the same
	 */
	void unchanged(double capacityUnits);

	/** One mutation refused: {@code CONFLICT}, {@code NOT_FOUND}, or another client error. */
	void refused(ErrorCode code);

	/** The meters of each mutation, by its field coordinate (e.g. {@code Mutation.createPurchase}). */
	@FunctionalInterface
	interface Source {

		/** Meters for no mutation: records nothing. */
		Source NONE = (name) -> WriteMeters.NONE;

		WriteMeters mutation(String name);

	}

}
