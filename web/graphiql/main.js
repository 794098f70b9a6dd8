// GraphiQL 5 (React + Monaco), fully bundled: the Monaco editor, JSON and GraphQL web workers are
// emitted by Vite under /assets/ (graphiql/setup-workers/vite), and the CSS embeds its fonts, so
// the page works offline and never leaves the server's origin.
import 'graphiql/setup-workers/vite';
import 'graphiql/style.css';
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { GraphiQL } from 'graphiql';
import { createGraphiQLFetcher } from '@graphiql/toolkit';

const DEFAULT_QUERY = `# One user's purchases, a Relay cursor connection read
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

const DEFAULT_VARIABLES = `{
  "after": null
}`;

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

createRoot(document.getElementById('graphiql')).render(
  createElement(GraphiQL, {
    fetcher,
    defaultQuery: DEFAULT_QUERY,
    defaultTabs: [{ query: DEFAULT_QUERY, variables: DEFAULT_VARIABLES }],
    initialVariables: isFirstVisit() ? DEFAULT_VARIABLES : undefined,
    defaultEditorToolsVisibility: 'variables',
  }),
);
