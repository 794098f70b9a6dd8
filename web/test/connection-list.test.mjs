// ConnectionList (src/connection-list.js), the connections page's merged list, on its own: pages merged
// each item once, changes placed by the connection's order, held while a page is on its way.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { ConnectionList } from '../src/connection-list.js';

const edge = (n, extra = {}) => ({ cursor: `c${n}`, node: { id: `id${n}`, at: n, ...extra } });
const ids = (list) => list.edges.map((stored) => stored.node.id);

test('pages are merged in order, each item once, continuing from the last endCursor', () => {
  const list = new ConnectionList({ sortField: 'at', numeric: true });
  list.addPage({ edges: [edge(1), edge(2)], pageInfo: { hasNextPage: true, endCursor: 'c2' } });
  list.addPage({ edges: [edge(2), edge(3)], pageInfo: { hasNextPage: true, endCursor: 'c3' } });
  list.addPage({ edges: [], pageInfo: { hasNextPage: false, endCursor: 'cut' } });
  assert.deepStrictEqual(ids(list), ['id1', 'id2', 'id3']);
  assert.equal(list.endCursor, 'cut');
  assert.equal(list.hasNextPage, false);
});

test('an ADDED edge goes to its place by the sort field, numbers compared as numbers', () => {
  const list = new ConnectionList({ sortField: 'at', numeric: true });
  list.addPage({ edges: [edge(2), edge(10), edge(30)], pageInfo: { hasNextPage: true, endCursor: 'c30' } });
  assert.equal(list.apply({ kind: 'ADDED', edge: edge(9) }), 'inserted');
  assert.deepStrictEqual(ids(list), ['id2', 'id9', 'id10', 'id30']);
  // After the last loaded edge while pages are left: the page that holds it brings it.
  assert.equal(list.apply({ kind: 'ADDED', edge: edge(40) }), 'later');
  list.addPage({ edges: [edge(40)], pageInfo: { hasNextPage: false, endCursor: 'c40' } });
  assert.equal(list.apply({ kind: 'ADDED', edge: edge(50) }), 'inserted');
  assert.deepStrictEqual(ids(list), ['id2', 'id9', 'id10', 'id30', 'id40', 'id50']);
});

test('descending lists and string order', () => {
  const list = new ConnectionList({ sortField: 'at', descending: true });
  list.addPage({ edges: [edge('c'), edge('a')], pageInfo: { hasNextPage: false } });
  list.apply({ kind: 'ADDED', edge: edge('b') });
  assert.deepStrictEqual(ids(list), ['idc', 'idb', 'ida']);
});

test('UPDATED changes the node in place, or moves it when its sort value changed; REMOVED takes it out', () => {
  const list = new ConnectionList({ sortField: 'at', numeric: true });
  list.addPage({ edges: [edge(1), edge(2), edge(3)], pageInfo: { hasNextPage: false } });
  assert.equal(list.apply({ kind: 'UPDATED', edge: edge(2, { title: 'new' }) }), 'updated');
  assert.equal(list.edges[1].node.title, 'new');
  assert.equal(list.apply({ kind: 'UPDATED', edge: { cursor: 'x', node: { id: 'id1', at: 5 } } }), 'updated');
  assert.deepStrictEqual(ids(list), ['id2', 'id3', 'id1']);
  assert.equal(list.apply({ kind: 'REMOVED', deletedId: 'id3' }), 'removed');
  assert.equal(list.apply({ kind: 'REMOVED', deletedId: 'id3' }), 'absent');
  assert.deepStrictEqual(ids(list), ['id2', 'id1']);
});

test('changes wait for the first page and for a page on its way, then find their place', () => {
  const list = new ConnectionList({ sortField: 'at', numeric: true });
  assert.equal(list.apply({ kind: 'ADDED', edge: edge(5) }), 'held');
  list.addPage({ edges: [edge(1), edge(9)], pageInfo: { hasNextPage: true, endCursor: 'c9' } });
  assert.deepStrictEqual(ids(list), ['id1', 'id5', 'id9']);
  list.hold();
  // Written after the page was read, sorting after its last edge: placed once the page is merged.
  assert.equal(list.apply({ kind: 'ADDED', edge: edge(12) }), 'held');
  assert.equal(list.apply({ kind: 'REMOVED', deletedId: 'id11' }), 'held');
  list.addPage({ edges: [edge(11), edge(20)], pageInfo: { hasNextPage: true, endCursor: 'c20' } });
  list.release();
  assert.deepStrictEqual(ids(list), ['id1', 'id5', 'id9', 'id12', 'id20']);
});

test('without a sort field (a Scan) a new edge goes at the end once the list has reached it', () => {
  const list = new ConnectionList();
  list.addPage({ edges: [edge(3), edge(1)], pageInfo: { hasNextPage: true, endCursor: 'c1' } });
  assert.equal(list.apply({ kind: 'ADDED', edge: edge(2) }), 'later');
  list.addPage({ edges: [], pageInfo: { hasNextPage: false } });
  assert.equal(list.apply({ kind: 'ADDED', edge: edge(2) }), 'inserted');
  assert.equal(list.apply({ kind: 'UPDATED', edge: edge(3, { title: 't' }) }), 'updated');
  assert.deepStrictEqual(ids(list), ['id3', 'id1', 'id2']);
});
