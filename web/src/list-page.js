// The parts of an infinite-scroll list that the two pages share (purchases.html's main.js and
// connections.html's connections.js): the status line with its Retry button, the keyed render of the rows
// and the sentinel that asks for the next page. What a row shows and how a page is read stay in each page.
import { describeError } from './live-session.js';

/**
 * The status line under the list: #status, whose data-state is loading | end | error | idle (and waiting,
 * for arguments still to enter), and its Retry button. `current()` is the page's session shown, whose
 * `error` and `retry` the line keeps; `refresh(s)` sets the line from the session's paging state.
 */
export function createStatusLine({ statusEl, retryButton, list, current, refresh }) {
  function setStatus(state, text = '') {
    statusEl.dataset.state = state;
    statusEl.textContent = text;
    statusEl.classList.toggle('is-error', state === 'error');
    retryButton.hidden = state !== 'error';
    list.setAttribute('aria-busy', String(state === 'loading'));
  }

  /** Shows the session's error until Retry, which runs `retry`. */
  function showError(s, error, retry) {
    if (s !== current()) return;
    s.error = error;
    s.retry = retry;
    const { message, code } = describeError(error);
    setStatus('error', `${code}: ${message}`);
  }

  /** Shows an error of the page's start, before any session: Retry runs `again`, once. */
  function showStartError(error, again) {
    const { message, code } = describeError(error);
    setStatus('error', `${code}: ${message}`);
    retryButton.onclick = () => {
      retryButton.onclick = null;
      again();
    };
  }

  retryButton.addEventListener('click', () => {
    const s = current();
    if (!s?.error) return;
    const retry = s.retry;
    s.error = null;
    s.retry = null;
    refresh(s);
    retry?.();
  });

  return { setStatus, showError, showStartError };
}

/**
 * Keyed render of `items` into `list`: rows are kept, moved, drawn again (`render(item)`) when their
 * `signature(item)` changed, or removed, so that an insert in the middle leaves the rows around it (and the
 * scroll position) alone. Each `key(item)` appears at most once.
 */
export function renderKeyed(list, items, { key, signature, render }) {
  const rows = new Map([...list.children].map((li) => [li.dataset.id, li]));
  const seen = new Set();
  const draw = (item, id, drawn) => {
    const li = render(item);
    li.dataset.id = id;
    li.dataset.signature = drawn;
    return li;
  };
  let next = list.firstElementChild;
  for (const item of items) {
    const id = key(item);
    if (seen.has(id)) continue;
    seen.add(id);
    const drawn = signature(item);
    let li = rows.get(id);
    if (li && li.dataset.signature !== drawn) {
      const fresh = draw(item, id, drawn);
      if (next === li) next = fresh;
      li.replaceWith(fresh);
      li = fresh;
    }
    li ??= draw(item, id, drawn);
    if (li === next) next = next.nextElementSibling;
    else list.insertBefore(li, next);
  }
  while (next) {
    const after = next.nextElementSibling;
    next.remove();
    next = after;
  }
}

/**
 * Calls `onVisible()` when the sentinel below the list comes into view (or within 200 px of it); the
 * function returned looks again, to be called after every page. observe() delivers a first callback with
 * the current intersection, so looking again after every page keeps loading while the sentinel stays
 * visible (short pages, big screens, pages with no edges).
 */
export function watchSentinel(sentinel, onVisible) {
  const observer = new IntersectionObserver((entries) => {
    if (entries.some((entry) => entry.isIntersecting)) onVisible();
  }, { rootMargin: '0px 0px 200px 0px' });
  return function recheckSentinel() {
    observer.unobserve(sentinel);
    observer.observe(sentinel);
  };
}
