#!/usr/bin/env bash
# The heap an idle subscriber holds in the server, by hand (bench/README.md, "Live connections"): the server jar
# started alone on the embedded engine, N graphql-ws clients opened and closed once to warm Tomcat's threads and
# caches, then after a full GC the heap (GC.heap_info) and the class histogram without subscribers and with N idle
# ones on C connections (C = N: a connection each); prints the growth a subscriber and the classes that grew most.
# HEAP_DUMPS=1 also writes both heap dumps to target/bench/idle-{before,after}.hprof, for heap-owners.py.
# usage: bench/idle/measure.sh JAR N [C]      (needs the web build's node_modules: mvn package builds it)
set -u
cd "$(dirname "$0")/../.."
JAR=$1; N=$2; C=${3:-$2}; PORT=${PORT:-18555}; OUT=target/bench; mkdir -p $OUT
rm -f $OUT/idle-before.hprof $OUT/idle-after.hprof   # GC.heap_dump does not write over a file
java -Xms1g -Xmx1g -jar "$JAR" --server.port=$PORT --dynamo-relay.sample-data.enabled=false \
  --dynamo-relay.live.max-subscriptions-per-caller=100000 > $OUT/idle-server.log 2>&1 &
PID=$!
trap 'kill $PID 2>/dev/null' EXIT
for i in $(seq 1 120); do curl -sf localhost:$PORT/actuator/health/readiness >/dev/null 2>&1 && break; sleep 1; done
heap() { jcmd $PID GC.run >/dev/null; sleep 1; jcmd $PID GC.run >/dev/null; jcmd $PID GC.heap_info | grep -o "used [0-9]*K" | head -1 | grep -o "[0-9]*"; }
hist() { jcmd $PID GC.class_histogram | awk 'NR>3 && $4 != "" {print $4, $2, $3}' > $1; }
node bench/idle/clients.mjs $PORT $N $C > $OUT/idle-warm.log 2>&1 & W=$!; sleep 8; kill $W; sleep 3
B=$(heap); hist $OUT/idle-before.txt
[ "${HEAP_DUMPS:-}" = 1 ] && jcmd $PID GC.heap_dump $PWD/$OUT/idle-before.hprof >/dev/null
node bench/idle/clients.mjs $PORT $N $C > $OUT/idle-clients.log 2>&1 & CL=$!; sleep 10
A=$(heap); hist $OUT/idle-after.txt
[ "${HEAP_DUMPS:-}" = 1 ] && jcmd $PID GC.heap_dump $PWD/$OUT/idle-after.hprof >/dev/null
echo "client errors: $(grep -c error $OUT/idle-clients.log)"
echo "heap after GC: ${B}K without, ${A}K with $N subscribers on $C connections: $(( (A-B)*1024/N )) bytes a subscriber"
python3 - $N $OUT <<'PY'
import sys
n, out = int(sys.argv[1]), sys.argv[2]
def load(p):
    d = {}
    for line in open(p):
        parts = line.split()
        if len(parts) == 3: d[parts[0]] = (int(parts[1]), int(parts[2]))
    return d
b = load(out + '/idle-before.txt'); a = load(out + '/idle-after.txt')
rows = sorted(((by - b.get(k, (0, 0))[1], cnt - b.get(k, (0, 0))[0], k) for k, (cnt, by) in a.items()), reverse=True)
print("class histogram's growth: %.0f bytes a subscriber" % (sum(r[0] for r in rows) / n))
for by, cnt, k in rows[:25]: print("%8.0f B %7.2f  %s" % (by / n, cnt / n, k))
PY
kill $CL; sleep 1
