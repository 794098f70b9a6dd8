// What the two pages share (purchases.html's main.js and connections.html's connections.js): the Apollo
// client with subscriptions over graphql-ws, how an error is told, and the live subscription that keeps
// the list shown current. Each page keeps what is its own: its documents, its list and how a change goes
// into it.
import {
  ApolloClient,
  ApolloLink,
  CombinedGraphQLErrors,
  HttpLink,
  ServerError,
} from '@apollo/client';
import { GraphQLWsLink } from '@apollo/client/link/subscriptions';
import { OperationTypeNode } from 'graphql';
import { createClient } from 'graphql-ws';

/**
 * The page's clients: subscriptions over WebSocket (graphql-transport-ws) on the same origin and path,
 * queries and mutations over HTTP. graphql-ws makes no retries of its own: a dropped subscription is
 * started again by the live session with `after` = the last eventId seen, so that no change is lost in
 * between (graphql-ws's own retries would send the subscription again as it was first sent).
 */
export function createClients({ cache, defaultOptions }) {
  const wsClient = createClient({
    url: `${location.origin.replace(/^http/, 'ws')}/graphql`,
    retryAttempts: 0,
  });
  const client = new ApolloClient({
    link: ApolloLink.split(
      ({ operationType }) => operationType === OperationTypeNode.SUBSCRIPTION,
      new GraphQLWsLink(wsClient),
      new HttpLink({ uri: '/graphql' }),
    ),
    cache,
    ...(defaultOptions ? { defaultOptions } : {}),
  });
  return { wsClient, client };
}

/** An error as the page shows it: the server's message and the contract's extensions.code. */
export function describeError(error) {
  if (CombinedGraphQLErrors.is(error)) {
    const first = error.errors[0] ?? {};
    return { message: first.message ?? error.message, code: first.extensions?.code ?? 'GRAPHQL_ERROR' };
  }
  if (ServerError.is(error)) return { message: error.message, code: `HTTP_${error.statusCode}` };
  if (Array.isArray(error)) {
    // graphql-ws hands a subscription's errors as a list.
    const first = error[0] ?? {};
    return { message: first.message ?? String(first), code: first.extensions?.code ?? 'GRAPHQL_ERROR' };
  }
  return { message: error?.message ?? String(error), code: error?.extensions?.code ?? 'NETWORK_ERROR' };
}

// Errors that another try would only repeat.
const FATAL_LIVE_CODES = new Set(['UNAUTHENTICATED', 'FORBIDDEN', 'INVALID_ARGUMENT', 'QUERY_TOO_COMPLEX', 'NOT_FOUND']);

/**
 * The live subscription of the page's session (the list shown), with its line `liveEl`, whose data-state is
 * connecting | live | reconnecting | off.
 *
 * A session `s` is the page's own object; the live session keeps on it `live` (the subscription),
 * `liveTimer`, `liveRetries` and `lastEventId`. `current()` is the session shown: what belongs to another
 * is ignored. `restart()` reads the list again (when the stream no longer holds the last change seen).
 * `start(s, feed)` takes what differs from page to page:
 * - `query`: the subscription; `variables(lastEventId)`: its variables, resuming after that event;
 * - `change(data)`: the change in an answer's data; `eventId(change)`: its event id, if any;
 * - `apply(change)`: puts the change into the list.
 */
export function createLiveSession({ client, wsClient, liveEl, current, restart }) {
  function setLive(s, state, text) {
    if (s && s !== current()) return;
    liveEl.dataset.state = state;
    liveEl.textContent = text ?? { connecting: 'Connecting…', live: 'Live', reconnecting: 'Reconnecting…', off: '' }[state];
  }

  function subscribe(s) {
    if (s !== current()) return;
    const { feed } = s;
    s.liveTimer = null;
    setLive(s, s.liveRetries ? 'reconnecting' : 'connecting');
    let ended = false;
    const end = (error) => {
      if (ended) return;
      ended = true;
      if (s === current()) lost(s, error);
    };
    s.live = client.subscribe({ query: feed.query, variables: feed.variables(s.lastEventId) }).subscribe({
      next: ({ data, error }) => {
        if (error) {
          end(error);
          return;
        }
        const change = feed.change(data);
        if (!change || s !== current()) return;
        const eventId = feed.eventId(change);
        if (eventId) s.lastEventId = eventId;
        s.liveRetries = 0;
        setLive(s, 'live');
        feed.apply(change);
      },
      error: end,
      complete: () => end(new Error('the live connection ended')),
    });
  }

  function stop(s) {
    clearTimeout(s.liveTimer);
    s.liveTimer = null;
    s.live?.unsubscribe();
    s.live = null;
  }

  function lost(s, error) {
    stop(s);
    const { code, message } = describeError(error);
    if (code === 'INVALID_CURSOR') {
      // The last change seen is no longer in the stream: what happened since is unknown, so the list
      // is read again.
      restart();
      return;
    }
    if (FATAL_LIVE_CODES.has(code)) {
      setLive(s, 'off', `Live updates off: ${code}: ${message}`);
      return;
    }
    // Dropped (a restart closes with 1012, a slow reader is dropped with UNAVAILABLE): again after a
    // growing pause, from the last change seen.
    const pause = Math.min(30_000, 500 * 2 ** s.liveRetries) + Math.floor(Math.random() * 500);
    s.liveRetries++;
    setLive(s, 'reconnecting');
    s.liveTimer = setTimeout(() => subscribe(s), pause);
  }

  // The socket is up: the subscription is being started on it (what the server sends then is live).
  wsClient.on('connected', () => {
    const s = current();
    if (s?.live) setLive(s, 'live');
  });

  return {
    setLive,
    /** Subscribes at once, for the session `s`, to `feed` (see above). */
    start(s, feed) {
      s.feed = feed;
      s.live = null;
      s.liveTimer = null;
      s.liveRetries = 0;
      s.lastEventId = undefined;
      subscribe(s);
    },
    stop,
  };
}
