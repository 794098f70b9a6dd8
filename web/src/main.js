// Infinite scroll over one user's purchases, with Apollo Client 4 and relayStylePagination(), kept
// live: a purchase added or deleted here, or written anywhere else (straight to the table included),
// shows at its place or leaves the list without a refetch.
//
// The list is always rendered from the *merged* connection in Apollo's cache, never from the
// page that just arrived, so an item can never be shown twice. The next page is fetched when the
// sentinel below the list scrolls into view (IntersectionObserver). addPurchase's purchaseEdge,
// removePurchase's deletedId and the changes of purchaseChanges (over graphql-ws) go into that same
// merged list through LiveList (src/live-list.js), which places each edge and deduplicates by node.
import { InMemoryCache, gql } from '@apollo/client';
import { relayStylePagination } from '@apollo/client/utilities';
import { createStatusLine, renderKeyed, watchSentinel } from './list-page.js';
import { LiveList } from './live-list.js';
import { createClients, createLiveSession, describeError } from './live-session.js';
import './style.css';

const PAGE_SIZE = 20;

const { wsClient, client } = createClients({
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

// The fields of a row: the list, the mutations and the changes all select them, so that a node they
// bring is as whole in the cache as one a page brought (a missing field would make Apollo refetch).
const PURCHASE_ROW = gql`
  fragment PurchaseRow on Purchase { id purchasedAt product category amount }
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
          node { ...PurchaseRow }
        }
        pageInfo { hasNextPage endCursor }
      }
    }
  }
  ${PURCHASE_ROW}
`;

// The new purchase as an edge of the list shown: purchaseEdge takes the list's own minAmount and
// order, so its cursor is one of that list (null when the purchase is not in it).
const ADD_PURCHASE = gql`
  mutation AddPurchase($input: AddPurchaseInput!, $minAmount: Float, $order: SortOrder) {
    addPurchase(input: $input) {
      purchaseEdge(minAmount: $minAmount, order: $order) { cursor node { ...PurchaseRow } }
    }
  }
  ${PURCHASE_ROW}
`;

const REMOVE_PURCHASE = gql`
  mutation RemovePurchase($input: RemovePurchaseInput!) {
    removePurchase(input: $input) { deletedId }
  }
`;

// The list's changes, whoever writes: judged on User.purchases(minAmount:) in its default order.
const PURCHASE_CHANGES = gql`
  subscription PurchaseChanges($userId: String!, $minAmount: Float, $after: String) {
    purchaseChanges(userId: $userId, minAmount: $minAmount, after: $after) {
      kind
      deletedId
      eventId
      edge { cursor node { ...PurchaseRow } }
    }
  }
  ${PURCHASE_ROW}
`;

const $ = (selector) => document.querySelector(selector);
const picker = $('#user-picker');
const minAmountInput = $('#min-amount');
const orderSelect = $('#order');
const list = $('#purchase-list');
const sentinel = $('#sentinel');
const statusEl = $('#status');
const retryButton = $('#retry');
const liveEl = $('#live');
const addForm = $('#add-form');
const addSubmit = $('#add-submit');
const writeStatusEl = $('#write-status');

const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** The connection being shown: its ObservableQuery and paging state. */
let session = null;

// ---------------------------------------------------------------------------------------------
// Status line: data-state is loading | end | error | idle.

const { setStatus, showError, showStartError } = createStatusLine({
  statusEl, retryButton, list, current: () => session, refresh: refreshStatus,
});

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

/** What a row shows: a row whose node changed (an UPDATED change) is drawn again. */
function rowSignature(node) {
  return JSON.stringify([node.purchasedAt, node.product, node.category, node.amount]);
}

function renderItem(node) {
  const li = document.createElement('li');
  li.className = 'purchase';

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

  const remove = document.createElement('button');
  remove.type = 'button';
  remove.className = 'purchase-delete';
  remove.textContent = 'Delete';
  remove.setAttribute('aria-label', `Delete ${node.product ?? 'purchase'}`);

  li.append(main, category, amount, remove);
  return li;
}

/** Draws the merged edges: each purchase once, in their order; a row stays while its purchase is unchanged. */
function renderList(edges) {
  renderKeyed(list, edges, {
    key: ({ node }) => node.id,
    signature: ({ node }) => rowSignature(node),
    render: ({ node }) => renderItem(node),
  });
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
  // The list is in the cache now: what was written meanwhile goes into it.
  if (!s.list.user) s.list.setUser(client.cache.identify(user));
  addSubmit.disabled = false;
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
  // Changes wait for the page: it may have been read before they were written.
  s.list.hold();
  try {
    const result = await s.obs.fetchMore({ variables: { after, withTotal: false } });
    if (result?.error) throw result.error;
    s.fetchedAfter = after;
  } catch (error) {
    s.loadingMore = false;
    s.loading = false;
    showError(s, error, () => loadMore(s));
    return;
  } finally {
    s.list.release();
  }
  s.loadingMore = false;
  s.loading = false;
  refreshStatus(s);
  recheckSentinel();
}

const recheckSentinel = watchSentinel(sentinel, () => {
  if (session) loadMore(session);
});

function currentFilters() {
  const raw = minAmountInput.value.trim();
  const minAmount = raw === '' || Number.isNaN(Number(raw)) ? undefined : Number(raw);
  return { userId: picker.value, minAmount, order: orderSelect.value || 'ASC' };
}

function stop(s) {
  s.sub.unsubscribe();
  liveSession.stop(s);
  // The list was kept current only while it was shown: shown again, it is read again.
  if (s.list.user) {
    client.cache.evict({ id: s.list.user, fieldName: 'purchases', args: s.list.args });
    client.cache.gc();
  }
}

function start() {
  const { userId, minAmount, order } = currentFilters();
  if (session) {
    stop(session);
    session = null;
  }
  list.replaceChildren();
  $('#shown').textContent = '0';
  addSubmit.disabled = true;
  if (!userId) {
    setLive(null, 'off', '');
    return;
  }

  const variables = { userId, first: PAGE_SIZE, order, withTotal: true };
  if (minAmount !== undefined) variables.minAmount = minAmount;
  const obs = client.watchQuery({ query: PURCHASES, variables, notifyOnNetworkStatusChange: true });
  const s = {
    obs, variables, conn: null, loading: true, loadingMore: false, fetchedAfter: undefined, error: null, retry: null,
    list: new LiveList(client.cache, { minAmount, order }),
  };
  session = s;
  renderSummary({ userId, name: picker.selectedOptions[0]?.dataset.name }, null, minAmount);
  refreshStatus(s);
  s.sub = obs.subscribe({
    next: (result) => onResult(s, result),
    error: (error) => showError(s, error, () => start()),
  });
  // At once, not after the first page: changes that arrive first wait in s.list for it.
  startLive(s);
}

// ---------------------------------------------------------------------------------------------
// Live changes: purchaseChanges(userId, minAmount) over graphql-ws, into the same merged list.

const liveSession = createLiveSession({ client, wsClient, liveEl, current: () => session, restart: () => start() });
const { setLive } = liveSession;

/** Subscribes to the list's changes, from the last one seen when it subscribes again. */
function startLive(s) {
  liveSession.start(s, {
    query: PURCHASE_CHANGES,
    variables: (after) => ({ userId: s.variables.userId, minAmount: s.variables.minAmount, after }),
    change: (data) => data?.purchaseChanges,
    eventId: (change) => change.eventId,
    apply: (change) => s.list.apply(change),
  });
}

// ---------------------------------------------------------------------------------------------
// Writes: addPurchase from the form, removePurchase from a row's button. Each answer goes into the
// list in the update callback; the change the write causes arrives too and finds it there.

function writeStatus(state, text) {
  writeStatusEl.dataset.state = state;
  writeStatusEl.textContent = text;
  writeStatusEl.classList.toggle('is-error', state === 'error');
}

/** A key that makes a retried submit write once (crypto.randomUUID needs a secure context). */
function idempotencyKey() {
  if (crypto.randomUUID) return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

addForm.addEventListener('submit', async (event) => {
  event.preventDefault();
  const s = session;
  if (!s?.list.user) return;
  const product = addForm.elements.product.value.trim();
  const category = addForm.elements.category.value.trim();
  const amount = Number(addForm.elements.amount.value);
  if (!product || !category || addForm.elements.amount.value.trim() === '' || !Number.isFinite(amount)) {
    writeStatus('error', 'A product, a category and an amount are needed.');
    return;
  }
  addSubmit.disabled = true;
  writeStatus('busy', `Adding “${product}”…`);
  let outcome;
  try {
    await client.mutate({
      mutation: ADD_PURCHASE,
      variables: {
        input: { userId: s.variables.userId, product, category, amount, idempotencyKey: idempotencyKey() },
        minAmount: s.variables.minAmount,
        order: s.variables.order,
      },
      update(cache, { data }) {
        if (s === session) outcome = s.list.add(data?.addPurchase?.purchaseEdge, { own: true });
      },
    });
  } catch (error) {
    const { message, code } = describeError(error);
    writeStatus('error', `${code}: ${message}`);
    return;
  } finally {
    addSubmit.disabled = s !== session || !s.list.user;
  }
  addForm.elements.product.value = '';
  writeStatus('done', {
    ignored: `Added “${product}”: below this list's minimum amount, so not shown.`,
    later: `Added “${product}”: it shows when the list reaches its place.`,
  }[outcome] ?? `Added “${product}”.`);
});

list.addEventListener('click', async (event) => {
  const button = event.target.closest('button.purchase-delete');
  const row = button?.closest('li[data-id]');
  const s = session;
  if (!row || !s) return;
  const id = row.dataset.id;
  const product = row.querySelector('.purchase-product')?.textContent ?? 'the purchase';
  button.disabled = true;
  row.dataset.pending = 'true';
  writeStatus('busy', `Deleting “${product}”…`);
  try {
    await client.mutate({
      mutation: REMOVE_PURCHASE,
      variables: { input: { id } },
      update(cache, { data }) {
        // deletedId is null when the purchase was gone already: out of the list all the same.
        if (s === session) s.list.remove(data?.removePurchase?.deletedId ?? id, { deleted: true });
      },
    });
  } catch (error) {
    button.disabled = false;
    delete row.dataset.pending;
    const { message, code } = describeError(error);
    writeStatus('error', `${code}: ${message}`);
    return;
  }
  writeStatus('done', `Deleted “${product}”.`);
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
    showStartError(error, init);
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
