// The Relay operations of the client tests (test/writes.test.mjs, test/live.test.mjs), compiled into
// relay/__generated__/ (`npm run relay`; build output, not committed). Nothing imports this file: with
// no Babel plugin, the tests import the generated artifacts themselves.
import { graphql } from 'relay-runtime';

// One page of a user's purchases. @connection keeps one merged list per (user, minAmount, order): a
// fetch with `after` = the list's endCursor appends to it, one without `after` starts it again.
graphql`
  query PurchasesQuery($userId: String!, $first: Int!, $after: String, $minAmount: Float, $order: SortOrder) {
    user(userId: $userId) {
      id
      purchases(first: $first, after: $after, minAmount: $minAmount, order: $order)
        @connection(key: "Purchases_purchases") {
        __id
        edges { cursor node { id purchasedAt product amount } }
        pageInfo { hasNextPage endCursor }
      }
    }
  }
`;

// A new purchase as an edge of the list with the same minAmount and order, appended to the connections
// given (pass none while the list has more pages: the purchase sorts last and arrives with them).
graphql`
  mutation PurchasesAppendMutation($input: AddPurchaseInput!, $minAmount: Float, $order: SortOrder,
                                   $connections: [ID!]!) {
    addPurchase(input: $input) {
      purchaseEdge(minAmount: $minAmount, order: $order) @appendEdge(connections: $connections) {
        cursor
        node { id purchasedAt product amount }
      }
    }
  }
`;

// The same for a list in DESC order, where a new purchase comes first.
graphql`
  mutation PurchasesPrependMutation($input: AddPurchaseInput!, $minAmount: Float, $order: SortOrder,
                                    $connections: [ID!]!) {
    addPurchase(input: $input) {
      purchaseEdge(minAmount: $minAmount, order: $order) @prependEdge(connections: $connections) {
        cursor
        node { id purchasedAt product amount }
      }
    }
  }
`;

// The deleted purchase leaves the connections given (@deleteEdge) and the store (@deleteRecord). The
// compiler keeps one of two handles on one field (relay-compiler 21 dropped @deleteRecord, silently):
// hence the alias.
graphql`
  mutation PurchasesRemoveMutation($input: RemovePurchaseInput!, $connections: [ID!]!) {
    removePurchase(input: $input) {
      removedEdge: deletedId @deleteEdge(connections: $connections)
      deletedId @deleteRecord
    }
  }
`;

// The user's purchases kept live (graphql-ws): each change's node lands in the store by its id.
graphql`
  subscription PurchasesChangesSubscription($userId: String!, $minAmount: Float, $after: String) {
    purchaseChanges(userId: $userId, minAmount: $minAmount, after: $after) {
      kind
      deletedId
      eventId
      edge { cursor node { id purchasedAt product amount } }
    }
  }
`;
