// GraphiQL 5 (React + Monaco), fully bundled: the Monaco editor, JSON and GraphQL web workers are
// emitted by Vite under /assets/ (graphiql/setup-workers/vite), and the CSS embeds its fonts, so
// the page works offline and never leaves the server's origin.
import 'graphiql/setup-workers/vite';
import 'graphiql/style.css';
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { GraphiQL } from 'graphiql';
import { createGraphiQLFetcher } from '@graphiql/toolkit';

// The sample's ready query: used while the sample schema is served. For any other schema the server's
// description (/pages/connections.json) holds a ready query on one of its own root connections.
const SAMPLE_QUERY = `# One user's purchases, a Relay cursor connection read
# from DynamoDB, five at a time.
#
# Run it (the play button or Ctrl/Cmd+Enter), then copy
# pageInfo.endCursor from the result into the "after"
# variable below, e.g. { "after": "AQ0x..." }, and run it
# again for the next page. Repeat until hasNextPage is false.
# Cursors are signed and only valid for the same connection
# and arguments; page backwards with last/before.
query Purchases($after: String) {
  user(userId: "user-01") {
    name
    purchases(first: 5, after: $after) {
      totalCount
      edges {
        cursor
        node {
          purchasedAt
          product
          amount
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
}
`;

const SAMPLE_VARIABLES = `{
  "after": null
}`;

// When the server does not describe its schema (introspection closed) or has no root connection.
const NO_READY_QUERY = `# The server describes no connection to start with: write a query,
# with the Docs (introspection) when they are open.
`;

// Same origin: the schema (Docs) comes from introspecting /graphql.
const fetcher = createGraphiQLFetcher({ url: '/graphql' });

/** The ready query and its variables for the schema served, and the key its tabs are stored under. */
async function readyQuery() {
  const none = { query: NO_READY_QUERY, variables: '{}', schema: 'none' };
  try {
    const response = await fetch('/pages/connections.json', { headers: { accept: 'application/json' } });
    if (!response.ok) return none;
    const served = await response.json();
    if (served.sample) return { query: SAMPLE_QUERY, variables: SAMPLE_VARIABLES, schema: 'sample' };
    const schema = `own-${hash(served.connections.map((c) => `${c.field}:${c.type}`).sort().join(','))}`;
    if (!served.readyQuery) return { ...none, schema };
    return { query: served.readyQuery, variables: served.readyVariables, schema };
  } catch {
    return none;
  }
}

/** A short, stable text of a string (FNV-1a, 32 bits). */
function hash(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(36);
}

/**
 * GraphiQL's storage (tabs, history) under a key of the schema served, so that tabs written against the
 * sample do not come back on another schema (whose ready query they would hide), and the reverse. The
 * roots connections' names and types make the key: a schema keeps its tabs while its other fields change.
 */
function storageFor(schema) {
  const prefix = `dynamo-relay:${schema}:`;
  let local;
  try {
    local = window.localStorage;
  } catch {
    return undefined;
  }
  const own = () => Object.keys(local).filter((key) => key.startsWith(prefix));
  return {
    getItem: (key) => local.getItem(prefix + key),
    setItem: (key, value) => local.setItem(prefix + key, value),
    removeItem: (key) => local.removeItem(prefix + key),
    clear: () => own().forEach((key) => local.removeItem(key)),
    get length() {
      return own().length;
    },
  };
}

const ready = await readyQuery();
const storage = storageFor(ready.schema);
// On a first visit there are no stored tabs: start with the paging example and its variables (GraphiQL 5
// shows a default tab's query but not its variables, hence initialVariables). Later visits restore the
// user's tabs.
const firstVisit = !storage || storage.getItem('graphiql:tabState') === null;

createRoot(document.getElementById('graphiql')).render(
  createElement(GraphiQL, {
    fetcher,
    storage,
    defaultQuery: ready.query,
    defaultTabs: [{ query: ready.query, variables: ready.variables }],
    initialVariables: firstVisit ? ready.variables : undefined,
    defaultEditorToolsVisibility: 'variables',
  }),
);
