// Infinite scroll over one user's purchases, with Apollo Client 4 and relayStylePagination().
//
// The list is always rendered from the *merged* connection in Apollo's cache, never from the
// page that just arrived, so an item can never be shown twice. The next page is fetched when the
// sentinel below the list scrolls into view (IntersectionObserver).
import {
  ApolloClient,
  CombinedGraphQLErrors,
  HttpLink,
  InMemoryCache,
  ServerError,
  gql,
} from '@apollo/client';
import { relayStylePagination } from '@apollo/client/utilities';
import './style.css';

const PAGE_SIZE = 20;

const client = new ApolloClient({
  link: new HttpLink({ uri: '/graphql' }),
  cache: new InMemoryCache({
    typePolicies: {
      User: {
        fields: {
          // One merged list per (user, minAmount, order); first/after/last/before are paging args.
          purchases: relayStylePagination(['minAmount', 'order']),
        },
      },
    },
  }),
});

const USERS = gql`
  query Users($first: Int!, $after: String) {
    users(first: $first, after: $after) {
      edges { node { id userId name } }
      pageInfo { hasNextPage endCursor }
    }
  }
`;

// totalCount costs a Select=COUNT on the server: ask for it on the first page only. The merge
// function keeps it (an "extra" field of the connection) when later pages come without it.
const PURCHASES = gql`
  query UserPurchases($userId: String!, $first: Int!, $after: String, $minAmount: Float,
                      $order: SortOrder, $withTotal: Boolean!) {
    user(userId: $userId) {
      id
      userId
      name
      purchases(first: $first, after: $after, minAmount: $minAmount, order: $order) {
        totalCount @include(if: $withTotal)
        edges {
          cursor
          node { id purchasedAt product category amount }
        }
        pageInfo { hasNextPage endCursor }
      }
    }
  }
`;

const $ = (selector) => document.querySelector(selector);
const picker = $('#user-picker');
const minAmountInput = $('#min-amount');
const orderSelect = $('#order');
const list = $('#purchase-list');
const sentinel = $('#sentinel');
const statusEl = $('#status');
const retryButton = $('#retry');

const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** The connection being shown: its ObservableQuery and paging state. */
let session = null;

// ---------------------------------------------------------------------------------------------
// Status line: data-state is loading | end | error | idle.

function setStatus(state, text = '') {
  statusEl.dataset.state = state;
  statusEl.textContent = text;
  statusEl.classList.toggle('is-error', state === 'error');
  retryButton.hidden = state !== 'error';
  list.setAttribute('aria-busy', String(state === 'loading'));
}

function describeError(error) {
  if (CombinedGraphQLErrors.is(error)) {
    const first = error.errors[0] ?? {};
    return { message: first.message ?? error.message, code: first.extensions?.code ?? 'GRAPHQL_ERROR' };
  }
  if (ServerError.is(error)) {
    return { message: error.message, code: `HTTP_${error.statusCode}` };
  }
  return {
    message: error?.message ?? String(error),
    code: error?.extensions?.code ?? 'NETWORK_ERROR',
  };
}

function showError(s, error, retry) {
  if (s !== session) return;
  s.error = error;
  s.retry = retry;
  const { message, code } = describeError(error);
  setStatus('error', `${code}: ${message}`);
}

function refreshStatus(s) {
  if (s !== session) return;
  if (s.error) return; // stays until Retry
  if (s.loading || !s.conn) setStatus('loading', 'Loading…');
  else if (!s.conn.pageInfo.hasNextPage) setStatus('end', 'End of list');
  else setStatus('idle');
}

// ---------------------------------------------------------------------------------------------
// Rendering (from the merged cache list).

function formatInstant(iso) {
  // 2025-01-01T09:00:00.000Z -> 2025-01-01 09:00 UTC (exact value stays in datetime="")
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(iso ?? '');
  return m ? `${m[1]} ${m[2]} UTC` : String(iso ?? '');
}

function renderItem(node) {
  const li = document.createElement('li');
  li.className = 'purchase';
  li.dataset.id = node.id;

  const main = document.createElement('div');
  main.className = 'purchase-main';
  const product = document.createElement('span');
  product.className = 'purchase-product';
  product.textContent = node.product ?? '(no product)';
  const time = document.createElement('time');
  time.className = 'purchase-time';
  time.dateTime = node.purchasedAt;
  time.textContent = formatInstant(node.purchasedAt);
  main.append(product, time);

  const category = document.createElement('span');
  category.className = 'purchase-category';
  category.textContent = node.category ?? '—';

  const amount = document.createElement('span');
  amount.className = 'purchase-amount';
  amount.textContent = node.amount == null ? '—' : money.format(node.amount);

  li.append(main, category, amount);
  return li;
}

/** Keyed, append-friendly render of the merged edges; each node id appears at most once. */
function renderList(edges) {
  const children = list.children;
  const seen = new Set();
  let kept = 0;
  while (kept < children.length && kept < edges.length
         && children[kept].dataset.id === edges[kept].node.id && !seen.has(edges[kept].node.id)) {
    seen.add(edges[kept].node.id);
    kept++;
  }
  while (children.length > kept) list.lastElementChild.remove();
  const fragment = document.createDocumentFragment();
  for (let i = kept; i < edges.length; i++) {
    const node = edges[i].node;
    if (seen.has(node.id)) continue;
    seen.add(node.id);
    fragment.append(renderItem(node));
  }
  list.append(fragment);
  $('#shown').textContent = String(list.children.length);
}

function renderSummary(user, conn, minAmount) {
  $('#summary-user').textContent = user ? `${user.name ?? user.userId} (${user.userId})` : '—';
  const total = conn?.totalCount;
  $('#total').textContent = total == null ? (conn ? '?' : '–') : String(total);
  const noun = total === 1 ? 'purchase' : 'purchases';
  $('#total-label').textContent = minAmount == null ? noun : `${noun} ≥ ${money.format(minAmount)}`;
}

// ---------------------------------------------------------------------------------------------
// Paging.

function onResult(s, result) {
  if (s !== session) return;
  if (result.error) {
    s.loading = false;
    showError(s, result.error, () => {
      s.loading = true;
      refreshStatus(s);
      s.obs.refetch().catch(() => { /* reported through the subscription */ });
    });
    return;
  }
  const user = result.data?.user;
  if (result.data && !user) {
    s.loading = false;
    showError(s, { message: `No user ${s.variables.userId}`, extensions: { code: 'NOT_FOUND' } },
      () => start());
    return;
  }
  if (!user) {
    s.loading = true; // first page still on its way
    refreshStatus(s);
    return;
  }
  s.conn = user.purchases;
  s.loading = s.loadingMore;
  renderSummary(user, s.conn, s.variables.minAmount);
  renderList(s.conn.edges);
  refreshStatus(s);
  if (!s.loadingMore) recheckSentinel();
}

async function loadMore(s) {
  if (s !== session || s.loadingMore || s.error || !s.conn?.pageInfo.hasNextPage) return;
  // Continue from the merged connection's endCursor. relayStylePagination() also keeps a page
  // that the server's read budget cut with no edges: its endCursor (where reading stopped)
  // becomes the merged endCursor, so the walk moves on instead of asking for the same page.
  const after = s.conn.pageInfo.endCursor;
  // fetchMore() can resolve a tick before the merged result reaches the subscription: until it
  // does, the cursor above is the one just fetched. onResult() checks the sentinel again then.
  if (after === s.fetchedAfter) return;
  s.loadingMore = true;
  s.loading = true;
  refreshStatus(s);
  try {
    const result = await s.obs.fetchMore({ variables: { after, withTotal: false } });
    if (result?.error) throw result.error;
    s.fetchedAfter = after;
  } catch (error) {
    s.loadingMore = false;
    s.loading = false;
    showError(s, error, () => loadMore(s));
    return;
  }
  s.loadingMore = false;
  s.loading = false;
  refreshStatus(s);
  recheckSentinel();
}

// observe() always delivers one first callback with the current intersection, so re-observing
// after every page keeps loading while the sentinel stays visible (short pages, big screens,
// pages with no edges).
const observer = new IntersectionObserver((entries) => {
  if (entries.some((entry) => entry.isIntersecting) && session) loadMore(session);
}, { rootMargin: '0px 0px 200px 0px' });

function recheckSentinel() {
  observer.unobserve(sentinel);
  observer.observe(sentinel);
}

function currentFilters() {
  const raw = minAmountInput.value.trim();
  const minAmount = raw === '' || Number.isNaN(Number(raw)) ? undefined : Number(raw);
  return { userId: picker.value, minAmount, order: orderSelect.value || 'ASC' };
}

function start() {
  const { userId, minAmount, order } = currentFilters();
  if (session) {
    session.sub.unsubscribe();
    session = null;
  }
  list.replaceChildren();
  $('#shown').textContent = '0';
  if (!userId) return;

  const variables = { userId, first: PAGE_SIZE, order, withTotal: true };
  if (minAmount !== undefined) variables.minAmount = minAmount;
  const obs = client.watchQuery({ query: PURCHASES, variables, notifyOnNetworkStatusChange: true });
  const s = {
    obs, variables, conn: null, loading: true, loadingMore: false, fetchedAfter: undefined, error: null, retry: null,
  };
  session = s;
  renderSummary({ userId, name: picker.selectedOptions[0]?.dataset.name }, null, minAmount);
  refreshStatus(s);
  s.sub = obs.subscribe({
    next: (result) => onResult(s, result),
    error: (error) => showError(s, error, () => start()),
  });
}

retryButton.addEventListener('click', () => {
  const s = session;
  if (!s?.error) return;
  const retry = s.retry;
  s.error = null;
  s.retry = null;
  refreshStatus(s);
  retry?.();
});

// ---------------------------------------------------------------------------------------------
// User picker: users(first: 100) is a forward-only Scan; follow pages until the end (bounded).

async function loadUsers() {
  const users = [];
  let after = null;
  for (let page = 0; page < 20; page++) {
    const { data } = await client.query({ query: USERS, variables: { first: 100, after }, fetchPolicy: 'network-only' });
    for (const edge of data.users.edges) users.push(edge.node);
    if (!data.users.pageInfo.hasNextPage) break;
    after = data.users.pageInfo.endCursor;
  }
  return users.sort((a, b) => a.userId.localeCompare(b.userId));
}

async function init() {
  setStatus('loading', 'Loading…');
  let users;
  try {
    users = await loadUsers();
  } catch (error) {
    const { message, code } = describeError(error);
    setStatus('error', `${code}: ${message}`);
    retryButton.onclick = () => { retryButton.onclick = null; init(); };
    return;
  }
  picker.replaceChildren(...users.map((user) => {
    const option = document.createElement('option');
    option.value = user.userId;
    option.dataset.name = user.name ?? '';
    option.textContent = user.name ? `${user.userId} · ${user.name}` : user.userId;
    return option;
  }));
  picker.disabled = users.length === 0;
  const params = new URLSearchParams(location.search);
  const wanted = params.get('user');
  if (wanted && users.some((user) => user.userId === wanted)) picker.value = wanted;
  if (params.has('minAmount')) minAmountInput.value = params.get('minAmount');
  if (params.get('order') === 'DESC') orderSelect.value = 'DESC';
  if (users.length === 0) {
    setStatus('end', 'End of list');
    return;
  }
  start();
}

function syncUrl() {
  const { userId, minAmount, order } = currentFilters();
  const params = new URLSearchParams();
  if (userId) params.set('user', userId);
  if (minAmount !== undefined) params.set('minAmount', String(minAmount));
  if (order !== 'ASC') params.set('order', order);
  const query = params.toString();
  history.replaceState(null, '', query ? `?${query}` : location.pathname);
}

for (const control of [picker, minAmountInput, orderSelect]) {
  control.addEventListener('change', () => {
    syncUrl();
    window.scrollTo({ top: 0 });
    start();
  });
}
$('#controls').addEventListener('submit', (event) => event.preventDefault());

init();
