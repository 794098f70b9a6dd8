// The merged list of one connection of any schema, as the connections page shows it: the pages read so
// far, in the connection's order, each item once, kept current with the changes of the subscription that
// keeps the connection live (ADDED, UPDATED, REMOVED), in place: no refetch. The purchases page does the
// same for the sample in Apollo's cache (live-list.js); this list knows no type, so it holds the edges
// itself and places a node by the field that orders the connection, as the server's description names it.
//
// Where an edge goes (as in live-list.js): the list holds the connection's first pages, in its order. An
// edge that sorts before the last loaded edge goes to its place among them; one that sorts after it goes
// at the end only when the list has reached its end (no next page). Otherwise it is left out: it comes
// with the page that holds it, and continuing from the list's endCursor (which an insert never moves)
// neither repeats nor skips an item. A connection with no such field (a Scan) has no order to place by:
// a new edge goes at the end once the list has reached it, and is otherwise left for the pages to bring.

/**
 * One connection's list. `sortField`: the node field that orders the connection (null when none does);
 * `numeric`: its values compare as numbers; `descending`: the list is in descending order.
 */
export class ConnectionList {
  constructor({ sortField = null, numeric = false, descending = false } = {}) {
    this.sortField = sortField;
    this.numeric = numeric;
    this.descending = descending;
    /** The edges shown, each { cursor, node }, in the connection's order. */
    this.edges = [];
    this.endCursor = null;
    this.hasNextPage = true;
    /** Whether a first page has been merged: before it, changes wait (see hold()). */
    this.started = false;
    this.holds = 0;
    this.pending = [];
  }

  /** The key an item is known by: its node id, else (a node without one) its cursor. */
  static key(edge) {
    return edge?.node?.id ?? edge?.cursor;
  }

  /**
   * Merges a page read after the list's endCursor. Its edges already shown (a change brought them
   * first) stay where they are, with the page's node; the list continues from the page's endCursor,
   * even when the read budget cut the page with no edges.
   */
  addPage({ edges, pageInfo }) {
    const shown = new Map(this.edges.map((edge, index) => [ConnectionList.key(edge), index]));
    for (const edge of edges ?? []) {
      const at = shown.get(ConnectionList.key(edge));
      if (at === undefined) {
        shown.set(ConnectionList.key(edge), this.edges.length);
        this.edges.push(edge);
      } else {
        this.edges[at] = edge;
      }
    }
    if (pageInfo?.endCursor) this.endCursor = pageInfo.endCursor;
    this.hasNextPage = Boolean(pageInfo?.hasNextPage);
    this.started = true;
    this.#flush();
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

  #flush() {
    if (this.holds > 0 || !this.started) return;
    for (const apply of this.pending.splice(0)) apply();
  }

  /**
   * A change as a live subscription sends it: `{ kind, edge, deletedId }` (the change type's fields by
   * these names). Returns 'inserted', 'updated', 'present', 'later', 'removed', 'absent', 'held' or
   * 'ignored'.
   */
  apply(change) {
    if (!change?.kind) return 'ignored';
    if (this.holds > 0 || !this.started) {
      this.pending.push(() => this.apply(change));
      return 'held';
    }
    if (change.kind === 'REMOVED') return this.#remove(change.deletedId);
    if (!change.edge?.node) return 'ignored';
    return this.#place(change.edge);
  }

  #remove(id) {
    const at = this.edges.findIndex((edge) => edge.node?.id === id);
    if (at < 0) return 'absent';
    this.edges.splice(at, 1);
    return 'removed';
  }

  #place(edge) {
    const key = ConnectionList.key(edge);
    const at = this.edges.findIndex((stored) => ConnectionList.key(stored) === key);
    if (at >= 0) {
      const before = this.edges[at];
      // Changed in place when its position holds; moved when the value it is ordered by changed (an index's
      // sort key may be a field that an update changes).
      if (!this.sortField || this.#compare(before.node, edge.node) === 0) {
        this.edges[at] = { ...before, node: edge.node };
        return 'updated';
      }
      this.edges.splice(at, 1);
      const outcome = this.#insert(edge);
      return outcome === 'inserted' ? 'updated' : outcome;
    }
    return this.#insert(edge);
  }

  #insert(edge) {
    let at = this.sortField ? this.edges.findIndex((stored) => this.#compare(stored.node, edge.node) > 0) : -1;
    if (at < 0) {
      if (this.hasNextPage) return 'later';
      at = this.edges.length;
    }
    this.edges.splice(at, 0, edge);
    return 'inserted';
  }

  /** > 0 when `a` comes after `b` in the list; values missing compare as equal (the new one goes after). */
  #compare(a, b) {
    const x = a?.[this.sortField];
    const y = b?.[this.sortField];
    if (x === undefined || x === null || y === undefined || y === null) return 0;
    let order;
    if (this.numeric) order = Number(x) - Number(y);
    else order = String(x) < String(y) ? -1 : String(x) > String(y) ? 1 : 0;
    return this.descending ? -order : order;
  }
}
