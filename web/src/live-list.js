// Keeps one merged relayStylePagination() list of Apollo's cache current with the edges that mutations
// answer (addPurchase's purchaseEdge, removePurchase's deletedId) and the changes of a live connection
// (purchaseChanges: ADDED, UPDATED, REMOVED), in place: no refetch. Used by the infinite-scroll page and
// by the client tests (test/writes.test.mjs), so that both run the same code.
//
// Where an edge goes: the list holds the connection's first pages, in its order. An edge that sorts
// before the last loaded edge goes to its place among them; one that sorts after it goes at the end
// only when the list has reached its end (no next page). Otherwise it is left out: it comes with the
// page that holds it, and continuing from the list's endCursor (which an insert never moves) neither
// repeats nor skips an item. Every edge is deduplicated by its node: a mutation's answer and the live
// change that the same write causes both arrive, in either order.

/** The cache's reference string of a purchase, e.g. `Purchase:CFB1...`. */
function purchaseRef(cache, id) {
  return cache.identify({ __typename: 'Purchase', id });
}

/**
 * One list: the User it belongs to (its cache id, e.g. `User:...`; null until the first page names
 * it), its key arguments (`minAmount`, `order`: the list's own, also passed to `purchaseEdge`) and the
 * node field it is sorted by.
 */
export class LiveList {
  constructor(cache, { user = null, minAmount, order = 'ASC', sortKey = 'purchasedAt' }) {
    this.cache = cache;
    this.user = user;
    this.args = { minAmount, order };
    this.sortKey = sortKey;
    /** Changes held while a page is on its way (see hold()). */
    this.pending = [];
    this.holds = 0;
    /** Own new purchases counted into totalCount before their page is loaded. */
    this.countedLater = new Set();
  }

  /** The field's key in the cache, as relayStylePagination(['minAmount', 'order']) stores it. */
  get storeFieldName() {
    const args = {};
    if (this.args.minAmount !== undefined && this.args.minAmount !== null) args.minAmount = this.args.minAmount;
    if (this.args.order !== undefined) args.order = this.args.order;
    return this.cache.policies.getStoreFieldName({ typename: 'User', fieldName: 'purchases', args });
  }

  /**
   * Holds changes until release(): while a page is on its way, an edge that sorts after the last
   * loaded one would be left out, yet the page may have been read before it was written. Applied once
   * the page is merged, it finds its place (or is already there).
   */
  hold() {
    this.holds++;
  }

  release() {
    this.holds = Math.max(0, this.holds - 1);
    this.#flush();
  }

  /** Names the list's User (from the first page) and applies what arrived before it. */
  setUser(user) {
    this.user = user;
    this.#flush();
  }

  #flush() {
    if (this.holds > 0 || !this.user) return;
    for (const apply of this.pending.splice(0)) apply();
  }

  #run(apply) {
    if (this.holds > 0 || !this.user) {
      this.pending.push(apply);
      return 'held';
    }
    return apply();
  }

  /**
   * A live change as purchaseChanges sends it. ADDED and UPDATED carry the edge (an UPDATED item's
   * new fields are already in the cache by its id; it is placed only if missing); REMOVED the id.
   */
  apply(change) {
    if (!change) return 'ignored';
    if (change.kind === 'REMOVED') return this.remove(change.deletedId);
    return this.add(change.edge);
  }

  /**
   * Places an edge of this list (addPurchase's purchaseEdge fetched with the list's own minAmount and
   * order, or a change's edge). `own`: the answer of this client's own addPurchase, known to be new,
   * so that totalCount counts it even when it is left for a later page.
   * Returns 'inserted', 'present', 'later' (left for a later page), 'held' or 'absent' (no such list).
   */
  add(edge, { own = false } = {}) {
    if (!edge?.node) return 'ignored';
    return this.#run(() => {
      const outcome = this.#insert(edge);
      if (outcome === 'later' && own && !this.countedLater.has(edge.node.id)) {
        this.countedLater.add(edge.node.id);
        this.#adjustTotal(+1);
      }
      return outcome;
    });
  }

  /**
   * Takes a purchase out of the list (a REMOVED change: it left this list, and may still be in
   * others). `deleted`: removePurchase deleted it, so it also leaves the cache (evict, then gc).
   * Returns 'removed', 'absent' or 'held'.
   */
  remove(id, { deleted = false } = {}) {
    if (!id) return 'ignored';
    if (deleted) {
      const forget = () => {
        const outcome = this.user ? this.#delete(id) : 'absent';
        this.cache.evict({ id: purchaseRef(this.cache, id) });
        this.cache.gc();
        return outcome;
      };
      // Out of the list at once; and once more after a page on its way, which may have been read
      // before the delete and would bring the purchase back.
      if (this.holds > 0 || !this.user) this.pending.push(forget);
      return forget();
    }
    return this.#run(() => this.#delete(id));
  }

  #insert(edge) {
    const { cache, sortKey } = this;
    const { node } = edge;
    const ref = purchaseRef(cache, node.id);
    const wanted = this.storeFieldName;
    const descending = this.args.order === 'DESC';
    const key = node[sortKey];
    let outcome = 'absent';
    cache.modify({
      id: this.user,
      fields: {
        purchases(existing, { storeFieldName, readField, toReference }) {
          if (storeFieldName !== wanted || !existing?.edges) return existing;
          const edges = existing.edges;
          if (edges.some((stored) => stored.node?.__ref === ref)) {
            outcome = 'present';
            return existing;
          }
          const sortsAfter = (stored) => {
            const other = readField(sortKey, stored.node);
            return other !== undefined && (descending ? other < key : other > key);
          };
          let at = edges.findIndex(sortsAfter);
          if (at < 0) {
            if (existing.pageInfo?.hasNextPage) {
              outcome = 'later';
              return existing;
            }
            at = edges.length;
          }
          outcome = 'inserted';
          const stored = { __typename: edge.__typename ?? 'PurchaseEdge', cursor: edge.cursor, node: toReference(node, true) };
          return withTotal({ ...existing, edges: [...edges.slice(0, at), stored, ...edges.slice(at)] }, +1);
        },
      },
    });
    return outcome;
  }

  #delete(id) {
    const ref = purchaseRef(this.cache, id);
    const wanted = this.storeFieldName;
    let outcome = 'absent';
    this.cache.modify({
      id: this.user,
      fields: {
        purchases(existing, { storeFieldName }) {
          if (storeFieldName !== wanted || !existing?.edges) return existing;
          const edges = existing.edges.filter((stored) => stored.node?.__ref !== ref);
          if (edges.length === existing.edges.length) return existing;
          outcome = 'removed';
          return withTotal({ ...existing, edges }, -1);
        },
      },
    });
    if (outcome === 'absent' && this.countedLater.delete(id)) this.#adjustTotal(-1);
    else this.countedLater.delete(id);
    return outcome;
  }

  #adjustTotal(delta) {
    const wanted = this.storeFieldName;
    this.cache.modify({
      id: this.user,
      fields: {
        purchases(existing, { storeFieldName }) {
          return storeFieldName === wanted && existing ? withTotal(existing, delta) : existing;
        },
      },
    });
  }
}

/** The stored connection with totalCount moved by delta, when the list has one. */
function withTotal(connection, delta) {
  if (typeof connection.totalCount !== 'number') return connection;
  return { ...connection, totalCount: Math.max(0, connection.totalCount + delta) };
}
