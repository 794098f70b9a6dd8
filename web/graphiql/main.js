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

// GraphiQL keeps the user's tabs in localStorage ("graphiql:tabState"). On a first visit there
// are none: start with the paging example and its variables (GraphiQL 5 shows a default tab's
// query but not its variables, hence initialVariables). Later visits restore the user's tabs.
function isFirstVisit() {
  try {
    return window.localStorage.getItem('graphiql:tabState') === null;
  } catch {
    return true;
  }
}

/** The ready query and its variables for the schema served. */
async function readyQuery() {
  try {
    const response = await fetch('/pages/connections.json', { headers: { accept: 'application/json' } });
    if (!response.ok) return { query: NO_READY_QUERY, variables: '{}' };
    const served = await response.json();
    if (served.sample) return { query: SAMPLE_QUERY, variables: SAMPLE_VARIABLES };
    if (!served.readyQuery) return { query: NO_READY_QUERY, variables: '{}' };
    return { query: served.readyQuery, variables: served.readyVariables };
  } catch {
    return { query: NO_READY_QUERY, variables: '{}' };
  }
}

const firstVisit = isFirstVisit();
const ready = await readyQuery();

createRoot(document.getElementById('graphiql')).render(
  createElement(GraphiQL, {
    fetcher,
    defaultQuery: ready.query,
    defaultTabs: [{ query: ready.query, variables: ready.variables }],
    initialVariables: firstVisit ? ready.variables : undefined,
    defaultEditorToolsVisibility: 'variables',
  }),
);
