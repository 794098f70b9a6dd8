package dev.dynamorelay.pagination;

import java.util.Optional;

import org.junit.jupiter.api.Test;

import dev.dynamorelay.error.InvalidArgumentException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PageRequestTest {

	private static final PageSizes SIZES = new PageSizes(20, 100);

	@Test
	void readsTheDefaultSizeForwardsWithoutArguments() {
		assertThat(PageRequest.of(null, null, null, null, SIZES))
			.isEqualTo(new PageRequest(Direction.FORWARD, 20, Optional.empty()));
	}

	@Test
	void firstAndAfterReadForwards() {
		assertThat(PageRequest.of(5, "c", null, null, SIZES))
			.isEqualTo(new PageRequest(Direction.FORWARD, 5, Optional.of("c")));
		assertThat(PageRequest.of(null, "c", null, null, SIZES))
			.isEqualTo(new PageRequest(Direction.FORWARD, 20, Optional.of("c")));
	}

	@Test
	void lastAndBeforeReadBackwards() {
		assertThat(PageRequest.of(null, null, 7, "c", SIZES))
			.isEqualTo(new PageRequest(Direction.BACKWARD, 7, Optional.of("c")));
		assertThat(PageRequest.of(null, null, null, "c", SIZES))
			.isEqualTo(new PageRequest(Direction.BACKWARD, 20, Optional.of("c")));
		assertThat(PageRequest.of(null, null, 3, null, SIZES))
			.isEqualTo(new PageRequest(Direction.BACKWARD, 3, Optional.empty()));
	}

	@Test
	void zeroAndTheMaximumAreAllowed() {
		assertThat(PageRequest.of(0, null, null, null, SIZES).size()).isZero();
		assertThat(PageRequest.of(null, null, 0, null, SIZES).size()).isZero();
		assertThat(PageRequest.of(100, null, null, null, SIZES).size()).isEqualTo(100);
	}

	@Test
	void refusesMixedDirections() {
		assertThatThrownBy(() -> PageRequest.of(1, null, 1, null, SIZES)).isInstanceOf(InvalidArgumentException.class)
			.hasMessageContaining("`first`")
			.hasMessageContaining("`last`");
		assertThatThrownBy(() -> PageRequest.of(null, "a", null, "b", SIZES))
			.isInstanceOf(InvalidArgumentException.class)
			.hasMessageContaining("`after`");
		assertThatThrownBy(() -> PageRequest.of(1, null, null, "b", SIZES))
			.isInstanceOf(InvalidArgumentException.class)
			.hasMessageContaining("`before`");
		assertThatThrownBy(() -> PageRequest.of(null, "a", 1, null, SIZES))
			.isInstanceOf(InvalidArgumentException.class)
			.hasMessageContaining("`after`");
	}

	@Test
	void refusesSizesOutOfRange() {
		assertThatThrownBy(() -> PageRequest.of(-1, null, null, null, SIZES))
			.isInstanceOf(InvalidArgumentException.class)
			.hasMessageContaining("between 0 and 100");
		assertThatThrownBy(() -> PageRequest.of(101, null, null, null, SIZES))
			.isInstanceOf(InvalidArgumentException.class);
		assertThatThrownBy(() -> PageRequest.of(null, null, -5, null, SIZES))
			.isInstanceOf(InvalidArgumentException.class)
			.hasMessageContaining("`last`");
		assertThatThrownBy(() -> PageRequest.of(null, null, 101, null, SIZES))
			.isInstanceOf(InvalidArgumentException.class);
	}

	@Test
	void pageSizesMustBeCoherent() {
		assertThatThrownBy(() -> new PageSizes(30, 20)).isInstanceOf(IllegalArgumentException.class);
		assertThatThrownBy(() -> new PageSizes(0, 0)).isInstanceOf(IllegalArgumentException.class);
	}

}
