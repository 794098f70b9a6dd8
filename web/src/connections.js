// The page at / when the server serves a schema other than the sample: lists the schema's root connections
// (Query fields that return a Relay connection), asks for the arguments of the one chosen, pages through it
// with infinite scroll (first/after, Apollo Client) and, when a subscription keeps it live (@live), applies
// its ADDED, UPDATED and REMOVED changes to the list in place (graphql-ws).
//
// What the page knows of the schema comes from the server's description, /pages/connections.json
// (dev.dynamorelay.web.ServedConnections): introspection does not tell which subscription keeps a
// connection live, nor by which node field a change's edge is placed.
import { InMemoryCache, gql } from '@apollo/client';
import { ConnectionList } from './connection-list.js';
import { createStatusLine, renderKeyed, watchSentinel } from './list-page.js';
import { createClients, createLiveSession } from './live-session.js';
import './style.css';

const PAGE_SIZE = 20;
const DESCRIPTION = '/pages/connections.json';

// Pages are merged by ConnectionList, not by Apollo's cache (the types are not known when the page is
// written): every read goes to the network and is kept nowhere else.
const { wsClient, client } = createClients({
  cache: new InMemoryCache(),
  defaultOptions: { query: { fetchPolicy: 'no-cache' } },
});

const $ = (selector) => document.querySelector(selector);
const picker = $('#connection-picker');
const argumentsEl = $('#arguments');
const showButton = $('#show');
const controls = $('#controls');
const descriptionEl = $('#connection-description');
const list = $('#item-list');
const sentinel = $('#sentinel');
const statusEl = $('#status');
const retryButton = $('#retry');
const liveEl = $('#live');

/** The served connections, by field name. */
let connections = new Map();

/** The connection being shown: its list, variables and paging and live state. */
let session = null;

// ---------------------------------------------------------------------------------------------
// Status line: data-state is loading | end | error | idle | waiting (arguments to enter).

const { setStatus, showError, showStartError } = createStatusLine({
  statusEl, retryButton, list, current: () => session, refresh: refreshStatus,
});

function refreshStatus(s) {
  if (s !== session || s.error) return;
  if (s.loading || !s.list.started) setStatus('loading', 'Loading…');
  else if (!s.list.hasNextPage) setStatus('end', 'End of list');
  else setStatus('idle');
}

// ---------------------------------------------------------------------------------------------
// Documents, written from the description.

/** `$name: Type` for each variable, and `name: $name` for each argument. */
function declare(variables) {
  return Object.entries(variables).map(([name, type]) => `$${name}: ${type}`).join(', ');
}

function pass(names) {
  return names.map((name) => `${name}: $${name}`).join(', ');
}

function pageDocument(connection, given) {
  const types = Object.fromEntries(connection.arguments.filter((a) => given.includes(a.name)).map((a) => [a.name, a.type]));
  return gql`query ConnectionPage(${declare({ ...types, first: 'Int!', after: 'String' })}) {
    ${connection.field}(${pass([...given, 'first', 'after'])}) {
      edges { cursor node { ${connection.nodeSelection} } }
      pageInfo { hasNextPage endCursor }
    }
  }`;
}

function liveDocument(connection, given) {
  const { live } = connection;
  const types = Object.fromEntries(given.map((name) => [name, live.arguments[name]]));
  if (live.after) types[live.after] = 'String';
  const fields = ['kind'];
  if (live.deletedId) fields.push(live.deletedId);
  if (live.eventId) fields.push(live.eventId);
  if (live.edge) fields.push(`${live.edge} { cursor node { ${connection.nodeSelection} } }`);
  const names = live.after ? [...given, live.after] : given;
  return gql`subscription ConnectionChanges${given.length || live.after ? `(${declare(types)})` : ''} {
    ${live.field}${names.length ? `(${pass(names)})` : ''} { ${fields.join(' ')} }
  }`;
}

// ---------------------------------------------------------------------------------------------
// The picker and the arguments' form.

function inputFor(argument, value) {
  let input;
  if (argument.input === 'enum' || argument.input === 'boolean') {
    input = document.createElement('select');
    const choices = argument.input === 'enum' ? argument.values : ['true', 'false'];
    const none = document.createElement('option');
    none.value = '';
    none.textContent = argument.defaultValue != null ? `default (${argument.defaultValue})` : 'any';
    input.append(none, ...choices.map((choice) => {
      const option = document.createElement('option');
      option.value = choice;
      option.textContent = choice;
      return option;
    }));
  } else {
    input = document.createElement('input');
    input.type = argument.input === 'integer' || argument.input === 'number' ? 'number' : 'text';
    if (argument.input === 'integer') input.step = '1';
    if (argument.input === 'number') input.step = 'any';
    input.placeholder = argument.input === 'json' ? `JSON, e.g. ${argument.type.startsWith('[') ? '["a"]' : '{}'}`
      : argument.required ? 'required' : 'any';
    input.autocomplete = 'off';
  }
  input.id = `arg-${argument.name}`;
  input.name = argument.name;
  input.dataset.argument = argument.name;
  input.required = argument.required;
  if (value != null) input.value = value;
  return input;
}

function renderArguments(connection, values = new URLSearchParams()) {
  argumentsEl.replaceChildren(...connection.arguments.map((argument) => {
    const label = document.createElement('label');
    label.className = 'field';
    label.htmlFor = `arg-${argument.name}`;
    const name = document.createElement('span');
    name.className = 'field-label';
    name.textContent = `${argument.name}${argument.required ? ' *' : ''}`;
    name.title = argument.type;
    label.append(name, inputFor(argument, values.get(argument.name)));
    return label;
  }));
  descriptionEl.textContent = connection.description ?? '';
  showButton.disabled = false;
}

/** The values entered, as variables; or the problem with one. */
function enteredArguments(connection) {
  const variables = {};
  const missing = [];
  for (const argument of connection.arguments) {
    const raw = argumentsEl.querySelector(`[data-argument="${CSS.escape(argument.name)}"]`)?.value.trim() ?? '';
    if (raw === '') {
      if (argument.required) missing.push(argument.name);
      continue;
    }
    switch (argument.input) {
      case 'integer':
      case 'number': {
        const number = Number(raw);
        if (!Number.isFinite(number) || (argument.input === 'integer' && !Number.isInteger(number))) {
          return { problem: `${argument.name} must be ${argument.input === 'integer' ? 'a whole number' : 'a number'}` };
        }
        variables[argument.name] = number;
        break;
      }
      case 'boolean':
        variables[argument.name] = raw === 'true';
        break;
      case 'json':
        try {
          variables[argument.name] = JSON.parse(raw);
        } catch {
          return { problem: `${argument.name} must be JSON (${argument.type})` };
        }
        break;
      default:
        variables[argument.name] = raw;
    }
  }
  if (missing.length) return { problem: `Enter ${missing.join(', ')} to show ${connection.field}.` };
  return { variables };
}

function syncUrl(connection, variables) {
  const params = new URLSearchParams();
  params.set('connection', connection.field);
  for (const [name, value] of Object.entries(variables ?? {})) {
    params.set(name, typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  history.replaceState(null, '', `?${params}`);
}

// ---------------------------------------------------------------------------------------------
// Rendering.

function formatValue(value) {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function renderItem(edge) {
  const li = document.createElement('li');
  li.className = 'item';
  const fields = document.createElement('dl');
  fields.className = 'item-fields';
  for (const [name, value] of Object.entries(edge.node)) {
    if (name === '__typename' && Object.keys(edge.node).length > 1 && !session?.severalTypes) continue;
    const pair = document.createElement('div');
    pair.dataset.field = name;
    const term = document.createElement('dt');
    term.textContent = name;
    const detail = document.createElement('dd');
    detail.textContent = formatValue(value);
    pair.append(term, detail);
    fields.append(pair);
  }
  li.append(fields);
  return li;
}

/** Draws the list's edges: each item once; a row stays while its node is unchanged. */
function renderList(edges) {
  renderKeyed(list, edges, { key: ConnectionList.key, signature: (edge) => JSON.stringify(edge.node), render: renderItem });
  $('#shown').textContent = String(list.children.length);
}

function render(s) {
  if (s !== session) return;
  renderList(s.list.edges);
  refreshStatus(s);
}

// ---------------------------------------------------------------------------------------------
// Paging.

async function loadMore(s) {
  if (s !== session || s.loading || s.error || (s.list.started && !s.list.hasNextPage)) return;
  s.loading = true;
  refreshStatus(s);
  // Changes wait for the page: it may have been read before they were written.
  s.list.hold();
  const after = s.list.endCursor;
  try {
    const { data, error } = await client.query({
      query: s.page,
      variables: { ...s.variables, first: PAGE_SIZE, after },
    });
    if (error) throw error;
    if (s !== session) return;
    const connection = data?.[s.connection.field];
    if (!connection) throw new Error(`no ${s.connection.field} in the answer`);
    s.list.addPage(connection);
  } catch (error) {
    s.loading = false;
    showError(s, error, () => loadMore(s));
    return;
  } finally {
    s.list.release();
  }
  s.loading = false;
  render(s);
  recheckSentinel();
}

const recheckSentinel = watchSentinel(sentinel, () => {
  if (session) loadMore(session);
});

// ---------------------------------------------------------------------------------------------
// Live changes.

const liveSession = createLiveSession({ client, wsClient, liveEl, current: () => session, restart: () => start() });
const { setLive } = liveSession;

/**
 * The subscription's arguments for the list shown, or why it cannot keep it live: every argument given to
 * the connection must be one of the subscription's (else its changes would be judged on another list), and
 * each argument the subscription requires must be given.
 */
function liveArguments(connection, variables) {
  const { live } = connection;
  const given = Object.keys(variables);
  const foreign = given.filter((name) => !(name in live.arguments));
  if (foreign.length) return { problem: `${foreign.join(', ')} ${foreign.length === 1 ? 'is' : 'are'} no argument of ${live.field}` };
  const missing = Object.entries(live.arguments)
    .filter(([name, type]) => type.endsWith('!') && !(name in variables)).map(([name]) => name);
  if (missing.length) return { problem: `${live.field} needs ${missing.join(', ')}` };
  return { given };
}

/** Starts the session's live changes: `s.changes` over the subscription, each applied to the list and drawn. */
function startLive(s) {
  const { live: spec } = s.connection;
  liveSession.start(s, {
    query: s.changes,
    variables: (lastEventId) => {
      const variables = { ...s.variables };
      if (spec.after && lastEventId) variables[spec.after] = lastEventId;
      return variables;
    },
    change: (data) => data?.[spec.field],
    eventId: (change) => (spec.eventId ? change[spec.eventId] : undefined),
    apply: (change) => {
      s.list.apply({
        kind: change.kind,
        edge: spec.edge ? change[spec.edge] : null,
        deletedId: spec.deletedId ? change[spec.deletedId] : null,
      });
      render(s);
    },
  });
}

// ---------------------------------------------------------------------------------------------
// A session: one connection with its arguments.

function stop(s) {
  liveSession.stop(s);
}

function start() {
  if (session) {
    stop(session);
    session = null;
  }
  list.replaceChildren();
  $('#shown').textContent = '0';
  setLive(null, 'off', '');
  const connection = connections.get(picker.value);
  if (!connection) return;
  $('#summary-connection').textContent = connection.field;
  const entered = enteredArguments(connection);
  if (entered.problem) {
    setStatus('waiting', entered.problem);
    syncUrl(connection, {});
    return;
  }
  const { variables } = entered;
  syncUrl(connection, variables);
  const given = Object.keys(variables);
  const s = {
    connection, variables, page: pageDocument(connection, given), changes: null,
    list: new ConnectionList({
      sortField: connection.sortField,
      numeric: connection.sortNumeric,
      descending: variables.order !== undefined ? variables.order === 'DESC' : connection.descending,
    }),
    severalTypes: connection.nodeSelection.startsWith('__typename'),
    loading: false, error: null, retry: null,
  };
  session = s;
  refreshStatus(s);
  if (connection.live) {
    const live = liveArguments(connection, variables);
    if (live.problem) {
      setLive(s, 'off', `Not live: ${live.problem}`);
    } else {
      s.changes = liveDocument(connection, live.given);
      // At once, not after the first page: changes that arrive first wait in s.list for it.
      startLive(s);
    }
  }
  loadMore(s);
}

controls.addEventListener('submit', (event) => {
  event.preventDefault();
  window.scrollTo({ top: 0 });
  start();
});

picker.addEventListener('change', () => {
  const connection = connections.get(picker.value);
  if (!connection) return;
  renderArguments(connection);
  window.scrollTo({ top: 0 });
  start();
});

// ---------------------------------------------------------------------------------------------
// The description.

async function init() {
  setStatus('loading', 'Loading…');
  let described;
  try {
    const response = await fetch(DESCRIPTION, { headers: { accept: 'application/json' } });
    if (response.status === 404) {
      throw Object.assign(new Error('the server does not describe its connections: introspection is closed '
        + '(spring.graphql.schema.introspection.enabled=false)'), { extensions: { code: 'NOT_FOUND' } });
    }
    if (!response.ok) throw Object.assign(new Error(`${DESCRIPTION} answered ${response.status}`), { extensions: { code: `HTTP_${response.status}` } });
    described = await response.json();
  } catch (error) {
    showStartError(error, init);
    return;
  }
  connections = new Map(described.connections.map((connection) => [connection.field, connection]));
  if (connections.size === 0) {
    picker.replaceChildren(new Option('No root connection in the schema', ''));
    setStatus('end', 'The schema serves no connection at the root of Query.');
    return;
  }
  picker.replaceChildren(...described.connections.map((connection) => {
    const option = document.createElement('option');
    option.value = connection.field;
    option.textContent = connection.live ? `${connection.field} · live` : connection.field;
    option.dataset.live = String(Boolean(connection.live));
    return option;
  }));
  picker.disabled = false;
  const params = new URLSearchParams(location.search);
  const wanted = params.get('connection');
  if (wanted && connections.has(wanted)) picker.value = wanted;
  renderArguments(connections.get(picker.value), params);
  start();
}

init();
