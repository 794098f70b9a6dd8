// Idle subscribers for bench/idle/measure.sh: N purchaseChanges subscriptions (users user-0 .. user-N-1) on C
// graphql-ws clients (C = N: a connection each), with the web build's graphql-ws and ws; without permessage-deflate
// unless DEFLATE=1 (browsers offer it). Holds them until SIGTERM.
// usage: node clients.mjs PORT N [C]
import { createClient } from '../../web/node_modules/graphql-ws/dist/client.js';
import WS from '../../web/node_modules/ws/wrapper.mjs';
const deflate = process.env.DEFLATE === '1';
class WebSocket extends WS { constructor(url, protocols) { super(url, protocols, { perMessageDeflate: deflate }); } }
const [port, n, conns] = [process.argv[2], +process.argv[3], +(process.argv[4] || process.argv[3])];
const query = 'subscription($u: String!) { purchaseChanges(userId: $u) { kind eventId edge { cursor node { id amount } } } }';
let live = 0;
const clients = [];
for (let c = 0; c < conns; c++) {
  clients.push(createClient({ url: `ws://127.0.0.1:${port}/graphql`, webSocketImpl: WebSocket, lazy: false, retryAttempts: 0,
    keepAlive: 0, on: { error: (e) => console.error('error', e?.message || e) } }));
}
for (let i = 0; i < n; i++) {
  const client = clients[i % conns];
  client.subscribe({ query, variables: { u: `user-${i}` } }, { next: () => {}, error: (e) => console.error('sub error', JSON.stringify(e)), complete: () => {} });
}
// Wait a little; the server confirms nothing for an idle subscription, so just wait.
setTimeout(() => { console.log('opened', n, 'on', conns); }, 3000);
process.on('SIGTERM', () => { clients.forEach((c) => c.dispose()); setTimeout(() => process.exit(0), 500); });
