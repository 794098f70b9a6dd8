#!/usr/bin/env python3
"""What holds the heap an idle subscriber adds (bench/README.md, "Live connections"): reads the two heap dumps that
`HEAP_DUMPS=1 bench/idle/measure.sh` writes and prints the growth a subscriber by owner: each object is counted
for the first of a list of owners (Tomcat's socket and WebSocket objects, Spring's session, the server's session and
subscriber, graphql-java's execution, Reactor's operators) met going up the first path found to it. The dump's ids
are 8 bytes where the JVM's compressed references are 4: the sizes are somewhat above the class histogram's, and
the path is one of several; read it as where the bytes are, not as a retained size.

usage: bench/idle/heap-owners.py target/bench/idle-before.hprof target/bench/idle-after.hprof N
"""
import sys, struct, collections, mmap


def parse(path):
    f = open(path, 'rb'); m = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    p = m.find(b'\0') + 1
    idsize = struct.unpack_from('>I', m, p)[0]; p += 4 + 8
    rid = (lambda o: struct.unpack_from('>Q', m, o)[0]) if idsize == 8 else (lambda o: struct.unpack_from('>I', m, o)[0])
    strings = {}; classname = {}; classes = {}  # class id -> (super, [(type)] fields)
    insts = {}   # obj id -> (class id, offset, length)  for instances
    arrays = {}  # obj id -> (kind, size, elemclass or type, offset, count)
    sizes = {}
    tsize = {2: idsize, 4: 1, 5: 2, 6: 4, 7: 8, 8: 1, 9: 2, 10: 4, 11: 8}
    n = len(m)
    while p < n:
        tag = m[p]; length = struct.unpack_from('>I', m, p + 5)[0]; body = p + 9; end = body + length
        if tag == 0x01:
            strings[rid(body)] = m[body + idsize:end].decode('utf-8', 'replace')
        elif tag == 0x02:
            classname[rid(body + 4)] = rid(body + 8 + idsize)
        elif tag in (0x0C, 0x1C):
            q = body
            while q < end:
                st = m[q]; q += 1
                if st == 0xFF: q += idsize
                elif st == 0x01: q += 2 * idsize
                elif st in (0x02, 0x03): q += idsize + 8
                elif st in (0x04, 0x06): q += idsize + 4
                elif st in (0x05, 0x07): q += idsize
                elif st == 0x08: q += idsize + 8
                elif st == 0x20:
                    cid = rid(q); sup = rid(q + 4 + idsize); q += 4 + 7 * idsize; isize = struct.unpack_from('>I', m, q)[0]; q += 4
                    cp = struct.unpack_from('>H', m, q)[0]; q += 2
                    for _ in range(cp):
                        t = m[q + 2]; q += 3 + tsize[t]
                    sc = struct.unpack_from('>H', m, q)[0]; q += 2
                    for _ in range(sc):
                        t = m[q + idsize]; q += idsize + 1 + tsize[t]
                    fc = struct.unpack_from('>H', m, q)[0]; q += 2
                    fields = []
                    for _ in range(fc):
                        fields.append(m[q + idsize]); q += idsize + 1
                    classes[cid] = (sup, fields, isize)
                elif st == 0x21:
                    oid = rid(q); cid = rid(q + 4 + idsize); nb = struct.unpack_from('>I', m, q + 4 + 2 * idsize)[0]
                    off = q + 8 + 2 * idsize
                    insts[oid] = (cid, off, nb); q = off + nb
                elif st == 0x22:
                    oid = rid(q); cnt = struct.unpack_from('>I', m, q + 4 + idsize)[0]; ecid = rid(q + 8 + idsize)
                    off = q + 8 + 2 * idsize
                    arrays[oid] = ('O', ecid, off, cnt); q = off + cnt * idsize
                elif st == 0x23:
                    oid = rid(q); cnt = struct.unpack_from('>I', m, q + 4 + idsize)[0]; t = m[q + 8 + idsize]
                    off = q + 9 + idsize
                    arrays[oid] = ('P', t, off, cnt); q = off + cnt * tsize[t]
                else:
                    raise SystemExit('unknown subtag %x at %d' % (st, q))
        p = end
    name = lambda cid: strings.get(classname.get(cid), '?%x' % cid).replace('/', '.')
    pnames = {4: 'boolean[]', 5: 'char[]', 6: 'float[]', 7: 'double[]', 8: 'byte[]', 9: 'short[]', 10: 'int[]', 11: 'long[]'}
    # layouts
    layout = {}
    def fields_of(cid):
        if cid in layout: return layout[cid]
        out = []
        c = cid
        while c and c in classes:
            out.extend(classes[c][1]); c = classes[c][0]
        layout[cid] = out; return out
    referrer = {}
    def ref(src, dst):
        if dst and dst not in referrer: referrer[dst] = src
    for oid, (cid, off, nb) in insts.items():
        q = off
        for t in fields_of(cid):
            if t == 2: ref(oid, rid(q))
            q += tsize[t]
    for oid, (k, a, off, cnt) in arrays.items():
        if k == 'O':
            for i in range(cnt): ref(oid, rid(off + i * idsize))
    def cls(oid):
        if oid in insts: return name(insts[oid][0])
        if oid in arrays:
            k, a, off, cnt = arrays[oid]
            return (name(a) if k == 'O' else pnames[a])
        return 'root/class'
    def shallow(oid):
        if oid in insts: return 16 + insts[oid][2]
        k, a, off, cnt = arrays[oid]
        return 16 + cnt * (4 if k == 'O' else tsize[a])
    return insts, arrays, referrer, cls, shallow

OWNERS = ['SocketBufferHandler', 'NioChannel', 'NioSocketWrapper', 'WsFrameServer', 'WsRemoteEndpointImplServer', 'WsHandshakeRequest',
          'WsPerSessionServerEndpointConfig', 'WsSession', 'WsHttpUpgradeHandler', 'UpgradeProcessorInternal', 'StandardWebSocketSession', 'GraphQlWsSession', 'Outbox',
          'LiveMemory$Connection', 'LiveSubscriber', 'SubscriptionBytes', 'ExecutionContext', 'ExecutionInput', 'WebSocketGraphQlRequest',
          'DataLoader', 'DataLoaderRegistry', 'PerLevelDataLoaderDispatchStrategy', 'RequestScope', 'RequestBudget', 'DefaultContextSnapshot',
          'GraphQLContext', 'ContextN', 'Context', 'InetSocketAddress', 'URI', 'HttpHeaders', 'LinkedCaseInsensitiveMap', 'CaseInsensitiveKeyMap']

def owners(path, depth=12):
    insts, arrays, referrer, cls, shallow = parse(path)
    g = collections.Counter()
    for oid in list(insts) + list(arrays):
        r = oid; owner = None
        for _ in range(depth):
            c = cls(r)
            short = c.split('.')[-1]
            if short in OWNERS or short.split('$$')[0] in OWNERS:
                owner = short.split('$$')[0]; break
            if c.startswith('reactor.core.publisher'):
                owner = 'reactor operators'; break
            r = referrer.get(r)
            if r is None: break
        g[owner or ('other:' + cls(oid))] += shallow(oid)
    return g

def owner_diff(before, after, n, top=40):
    gb = owners(before); ga = owners(after)
    rows = sorted(((ga[k] - gb.get(k, 0), k) for k in ga), reverse=True)
    print('total %.0f' % (sum(r[0] for r in rows) / n))
    for b, k in rows[:top]: print('%7.0f  %s' % (b / n, k))


if __name__ == '__main__':
    owner_diff(sys.argv[1], sys.argv[2], int(sys.argv[3]))
