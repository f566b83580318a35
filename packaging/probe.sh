#!/usr/bin/env bash
# A hostile-input probe of the command line (#16, #54): about 145 inputs an adversarial user would try,
# none of them the fuzzers' or the issue's examples. Every case runs under a 60-s limit and a
# 6 GB address-space cap; a case is flagged when it hangs, ends by a signal, prints "internal
# error" (or an uncaught exception, or raw protobuf log lines), grows past 2 GB, or exits 0 where
# the input must be refused. Prints one line per case and exits 1 if any is flagged.
#   packaging/probe.sh [ASTROLABE_CLI]     (default: build/app/cli/astrolabe-cli)
# Needs python3 (it writes the traces) and GNU time. About a minute.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cli=$(realpath "${1:-$root/build/app/cli/astrolabe-cli}")
[[ -x $cli ]] || { echo "probe: no astrolabe-cli at $cli (packaging/build.sh builds it)" >&2; exit 2; }
command -v python3 >/dev/null && [[ -x /usr/bin/time ]] ||
    { echo "probe: needs python3 and /usr/bin/time (apt-get install python3 time)" >&2; exit 2; }
w=$(mktemp -d "${TMPDIR:-/tmp}/astrolabe-probe.XXXXXX")
trap 'rm -rf "$w"' EXIT
cd "$w" || exit 2
base=$root/projects/quickstart/project.yaml
bad=0; n=0
p() { # NAME EXPECT(fail|ok|any) CMD...
    local name=$1 expect=$2
    shift 2
    n=$((n + 1))
    local out rc rss verdict=ok
    out=$( (ulimit -v 6000000; /usr/bin/time -f 'RSS %M' timeout -s KILL 60 "$@") 2>&1)
    rc=$?
    rss=$(grep -oE 'RSS [0-9]+' <<<"$out" | tail -n 1 | cut -d' ' -f2)
    out=$(grep -v -e '^RSS ' -e 'Command terminated by signal' <<<"$out")
    if ((rc == 137 || rc == 124)); then verdict="HANG/KILLED"
    elif ((rc > 128)); then verdict="SIGNAL $rc"
    elif grep -qi 'internal error\|terminate called\|libprotobuf' <<<"$out"; then verdict="INTERNAL"
    elif ((rss > 2000000)); then verdict="RSS ${rss}k"
    elif [[ $expect == fail && $rc == 0 ]]; then verdict="EXIT0"
    elif [[ $expect == ok && $rc != 0 ]]; then verdict="FAILED rc=$rc"
    fi
    [[ $verdict == ok ]] || bad=$((bad + 1))
    printf '%-4s %-44s rc=%-3s rss=%6sk %s\n     %s\n' "$n" "$name" "$rc" "$rss" "$verdict" \
        "$(head -c 260 <<<"$out" | tr '\n' ' ')"
}
proj() { # FILE SED... : the quick-start project edited by each sed expression
    local f=$1
    shift
    cp "$base" "$f"
    for e in "$@"; do sed -i "$e" "$f"; done
}
refused() { # NAME FILE SED... : run must refuse the edited project
    local name=$1 f=$2
    shift 2
    proj "$f" "$@"
    p "$name" fail "$cli" run "$f" --no-store
}
runs_or_refused() { # NAME FILE SED... : run may finish or refuse, but not crash, hang or grow
    local name=$1 f=$2
    shift 2
    proj "$f" "$@"
    p "$name" any "$cli" run "$f" --no-store
}
stacked() { # FILE COUNT DIMENSION : the quick-start project on COUNT copies of DIMENSION
    {
        sed -n '1,/dimensions:/p' "$base"
        for ((i = 0; i < $2; i++)); do echo "    - $3"; done
        sed -n '/^system:/,$p' "$base"
    } >"$1"
}
astra_refuses() { # NAME SYSTEM.json NETWORK.yml [FLAG...] : tr/ok under ASTRA-sim's flags
    local name=$1 system=$2 network=$3
    shift 3
    p "$name" fail "$cli" astra --workload-configuration=tr/ok --system-configuration="$system" \
        --network-configuration="$network" --remote-memory-configuration=mem.json "$@"
}
# ---- common material
mkdir -p tr; python3 - <<'PY'
import json
def node(i, name, typ, attrs, deps=None, dur=None):
    n = {"id": str(i), "name": name, "type": typ, "attr": attrs}
    if deps: n["dataDeps"] = [str(d) for d in deps]
    if dur is not None: n["durationMicros"] = str(dur)
    return n
def trace(nodes): return {"globalMetadata": {"version": "0.0.4"}, "nodes": nodes}
def i64(k, v): return {"name": k, "int64Val": str(v)}
def i32(k, v): return {"name": k, "int32Val": v}
def u64(k, v): return {"name": k, "uint64Val": str(v)}
cases = {
 "durmax":  [node(1, "c", "COMP_NODE", [], dur=18446744073709551615)],
 "dur2p62": [node(1, "c", "COMP_NODE", [], dur=2**62), node(2, "c2", "COMP_NODE", [], deps=[1], dur=2**62)],
 "sizeneg": [node(1, "ar", "COMM_COLL_NODE", [i64("comm_type", 0), i64("comm_size", -4096)])],
 "sizehuge":[node(1, "ar", "COMM_COLL_NODE", [i64("comm_type", 0), i64("comm_size", 2**62)])],
 "dstneg":  [node(1, "s", "COMM_SEND_NODE", [i32("comm_dst", -1), i64("comm_size", 64), i32("comm_tag", 1)])],
 "dstfar":  [node(1, "s", "COMM_SEND_NODE", [i32("comm_dst", 2**31-1), i64("comm_size", 64), i32("comm_tag", 1)])],
 "depself": [node(1, "c", "COMP_NODE", [], deps=[1], dur=5)],
 "depcycle":[node(1, "c", "COMP_NODE", [], deps=[2], dur=5), node(2, "d", "COMP_NODE", [], deps=[1], dur=5)],
 "depmiss": [node(1, "c", "COMP_NODE", [], deps=[99999999999], dur=5)],
 "dupid":   [node(1, "c", "COMP_NODE", [], dur=5), node(1, "c", "COMP_NODE", [], dur=7)],
 "typebad": [node(1, "ar", "COMM_COLL_NODE", [i64("comm_type", 77), i64("comm_size", 64)])],
 "pgbig":   [node(1, "ar", "COMM_COLL_NODE", [i64("comm_type", 0), i64("comm_size", 64), {"name": "pg_name", "stringVal": "99999999999999999999"}])],
 "pgneg":   [node(1, "ar", "COMM_COLL_NODE", [i64("comm_type", 0), i64("comm_size", 64), {"name": "pg_name", "stringVal": "-3"}])],
 "recvonly":[node(1, "r", "COMM_RECV_NODE", [i32("comm_src", 1), i64("comm_size", 64), i32("comm_tag", 5)])],
 "ok":      [node(1, "c", "COMP_NODE", [], dur=5), node(2, "ar", "COMM_COLL_NODE", [i64("comm_type", 0), i64("comm_size", 1048576)], deps=[1])],
 "opsbig":  [node(1, "c", "COMP_NODE", [i64("num_ops", 2**63-1), u64("tensor_size", 2**64-1)], dur=1)],
}
for k, nodes in cases.items():
    for r in range(2):
        json.dump(trace(nodes), open(f"tr/{k}.{r}.et", "w"))
PY
tproj() { # NAME: 2-NPU project on trace tr/NAME, with roofline when $2 = roofline
  cat > "t-$1.yaml" <<Y
name: t-$1
platform:
  dimensions: [{type: Ring, size: 2, bandwidth: 50 GB/s, latency: 500 ns}]
system: {algorithms: {all-reduce: [ring]}, chunks: 4, roofline: ${2:-false}, peak-perf: 100 TFLOP/s, local-memory-bandwidth: 50 GB/s}
workload: {trace: tr/$1}
Y
}
mkfifo fifo
ln -s /dev/zero zero-link
mkdir adir
cp "$base" q.yaml

echo "== 1. what is not a regular file"
refused "astra-network /dev/urandom" p1a.yaml 's|^platform:|platform:\n  astra-network: /dev/urandom|' '/dimensions:/,+1d'
cat > p1b.yaml <<Y
name: p1b
platform: {astra-network: zero-link}
system: {astra-system: adir}
workload: {microbenchmark: {collective: all-reduce, size: 1 MiB}}
Y
p "astra-network symlink to /dev/zero" fail $cli run p1b.yaml --no-store
refused "astra-memory FIFO" p1c.yaml 's|^workload:|memory: {astra-memory: fifo}\nworkload:|'
refused "comm-groups /proc/self/mem" p1d.yaml 's|^workload:|comm-groups: /proc/self/mem\nworkload:|'
refused "per-node-custom FIFO" p1e.yaml 's|^  chunks: 4.*|  chunks: 4\n  per-node-custom: fifo|'
refused "custom-algorithms prefix in a folder of nothing" p1f.yaml 's|^  chunks: 4.*|  chunks: 4\n  custom-algorithms: {all-reduce: adir/x}|'
p "run: project is a FIFO" fail $cli run fifo --no-store
p "run: project is a folder" fail $cli run adir --no-store
p "run: project is /dev/urandom" fail $cli run /dev/urandom --no-store
p "trace dump /dev/urandom" fail $cli trace dump /dev/urandom
p "trace dump fifo" fail $cli trace dump fifo
p "trace check prefix of folders" fail bash -c "mkdir -p d.0.et d.1.et; $cli trace check d --npus=2"
p "sweep on /dev/zero" fail $cli sweep /dev/zero --dry-run
p "astra: system config is a FIFO" fail $cli astra --workload-configuration=tr/ok --system-configuration=fifo --network-configuration=/dev/null
p "astra: network config is /dev/zero" fail $cli astra --workload-configuration=tr/ok --system-configuration=/dev/zero --network-configuration=/dev/zero
p "graph import: CSV is /dev/urandom" fail $cli graph import /dev/urandom
p "synthesize on a FIFO" fail $cli synthesize fifo
p "lesson check on a FIFO" fail $cli lesson check fifo
echo "== 2. sizes that explode memory"
refused "chunks 2^32" p2a.yaml 's|chunks: 4 |chunks: 4294967296 |'
refused "active-chunks-per-dimension 1e12" p2b.yaml 's|active-chunks-per-dimension: 1|active-chunks-per-dimension: 1000000000000|'
refused "num-queues-per-dim 123456789" p2c.yaml 's|^  chunks: 4.*|  chunks: 4\n  num-queues-per-dim: 123456789|'
stacked p2d.yaml 30 "{type: FullyConnected, size: 2, bandwidth: 50 GB/s, latency: 1 ns}"
p "30 dimensions of 2 (2^30 NPUs)" fail $cli run p2d.yaml --no-store
refused "Switch of 3e9 NPUs" p2e.yaml 's|{type: Ring, size: 8,|{type: Switch, size: 3000000000,|'
runs_or_refused "all-reduce of 10^18 B (finishes or is refused)" p2f.yaml 's|size: 1 MiB|size: 1000000 TB|'
p "generate-llm 10^9 layers" fail $cli generate-llm --preset=gpt2-124m --layers=1000000000 --out=$w/llm
p "generate-llm dp 2^40" fail $cli generate-llm --preset=gpt2-124m --dp=1099511627776 --out=$w/llm
cat > s2.yaml <<Y
project: q.yaml
axes:
  - {path: system.chunks, range: {from: 1, to: 1000000000000, step: 1}}
Y
cat > s3.yaml <<Y
project: q.yaml
axes:
  - path: system.chunks
    range: {from: 1, to: 1000, step: 1}
  - path: platform.dimensions[0].size
    range: {from: 2, to: 1001, step: 1}
  - path: system.active-chunks-per-dimension
    range: {from: 1, to: 1000, step: 1}
Y
cat > s4.yaml <<Y
project: q.yaml
axes:
  - {path: system.chunks, values: [1, 2]}
Y
p "sweep axis of 10^12 values --dry-run" fail $cli sweep s2.yaml --dry-run
p "sweep of 10^9 points (three axes of 1000) --dry-run" fail $cli sweep s3.yaml --dry-run
python3 -c "
import gzip
with gzip.open('bomb.0.et','wb') as f:
    f.write(b'\x00' * (1 << 30))
"
cp bomb.0.et bomb.1.et
p "gzip trace inflating to 1 GiB of zeros" fail $cli trace check bomb --npus=2
python3 -c "
import json
n=[{'id':str(i),'name':'c','type':'COMP_NODE','durationMicros':'1','dataDeps':[str(j) for j in range(max(0,i-3000),i)]} for i in range(3000)]
t={'globalMetadata':{'version':'0.0.4'},'nodes':n}; json.dump(t, open('deps.0.et','w')); json.dump(t, open('deps.1.et','w'))
"
p "4.5 M dependency edges in JSON (runs or refused)" any $cli trace check deps --npus=2

echo "== 3. overflow: silent wrong answers"
for t in durmax dur2p62 sizeneg sizehuge dstneg dstfar depself depcycle depmiss dupid typebad pgbig pgneg recvonly; do
  # A self-dependency, a cycle and a dependency on an absent node run by the written lenient
  # rules (docs/real-traces.md) and are refused in strict mode.
  e=fail; [[ $t == dep* ]] && e=ok
  tproj $t; p "trace $t: run" $e $cli run t-$t.yaml --no-store
  [[ $t == sizehuge ]] && e=any
  p "trace $t: trace check" $e $cli trace check tr/$t --npus=2
  [[ $t == dep* ]] && p "trace $t: trace check --strict" fail $cli trace check tr/$t --npus=2 --strict
done
tproj opsbig true; p "num_ops 2^63-1 with roofline" fail $cli run t-opsbig.yaml --no-store
refused "latency 2^63-1 ns" p3a.yaml 's|latency: 500 ns|latency: 9223372036854775807 ns|'
refused "latency 1e300 s" p3b.yaml 's|latency: 500 ns|latency: 1e300 s|'
refused "endpoint-delay 2^64+1 ns" p3c.yaml 's|endpoint-delay: 10 ns|endpoint-delay: 18446744073709551617 ns|'
refused "all-reduce of 16 EiB (2^64 B)" p3d.yaml 's|size: 1 MiB|size: 18446744073709551616 B|'
refused "negative size" p3e.yaml 's|size: 1 MiB|size: -1 MiB|'
refused "Ring of 2^32+2" p3f.yaml 's|{type: Ring, size: 8,|{type: Ring, size: 4294967298,|'
stacked p3g.yaml 4 "{type: Switch, size: 256, bandwidth: 50 GB/s, latency: 1 ns}"
p "4 Switch dims of 256 (2^32 NPUs)" fail $cli run p3g.yaml --no-store
p "trace check --dims 65536x65536" fail $cli trace check tr/depself --dims=65536,65536
cat > sys.json <<J
{
    "scheduling-policy": "LIFO",
    "endpoint-delay": 10,
    "active-chunks-per-dimension": 1,
    "preferred-dataset-splits": 4,
    "all-reduce-implementation": ["ring"],
    "collective-optimization": "localBWAware",
    "local-mem-bw": 1600
}
J
echo '{"memory-type": "NO_MEMORY_EXPANSION"}' > mem.json
printf 'topology: [ Ring ]\nnpus_count: [ 2 ]\nbandwidth: [ 50.0 ]\nlatency: [ 500.0 ]\n' > net.yml
astra_refuses "astra: --injection-scale=1e308" sys.json net.yml --injection-scale=1e308
astra_refuses "astra: --num-queues-per-dim=-1" sys.json net.yml --num-queues-per-dim=-1
sed 's/"endpoint-delay": 10/"endpoint-delay": 1e30/' sys.json > sysd.json
astra_refuses "astra: endpoint-delay 1e30 in JSON" sysd.json net.yml
sed 's/"preferred-dataset-splits": 4/"preferred-dataset-splits": 4.5/' sys.json > sysf.json
astra_refuses "astra: preferred-dataset-splits 4.5" sysf.json net.yml
sed 's/"preferred-dataset-splits": 4,/"preferred-dataset-splits": 4, "preferred-dataset-splits": 16,/' sys.json > sysk.json
astra_refuses "astra: a JSON key given twice" sysk.json net.yml
printf 'topology: [ Ring ]\nnpus_count: [ 2 ]\nbandwidth: [ 50.0 ]\nlatency: [ -5 ]\n' > netneg.yml
astra_refuses "astra: latency -5" sys.json netneg.yml
printf 'topology: [ Ring, Ring ]\nnpus_count: [ 2 ]\nbandwidth: [ 50.0, 1 ]\nlatency: [ 5 , 5]\n' > netmis.yml
astra_refuses "astra: lists of different lengths" sys.json netmis.yml

echo "== 4. internal error instead of a message"
proj p4a.yaml 's|^name: .*|name: "\\xff\\xfe bad \\x00 name"|'
printf 'name: \xc3\x28 broken utf8 \xff\n' > p4b.yaml; sed -n '/^platform:/,$p' "$base" >> p4b.yaml
p "name with escaped 0xFF and NUL" ok $cli run p4a.yaml --db=$w/n.db
p "name with raw invalid UTF-8 bytes" ok $cli run p4b.yaml --db=$w/n.db
p "runs list on that database" ok $cli runs list --db=$w/n.db
p "runs export json of that run" ok $cli runs export 2 --db=$w/n.db --out=$w/n2.json
refused "chunks: a list" p4c.yaml 's|chunks: 4 |chunks: [4] |'
refused "type: a map" p4d.yaml 's|type: Ring|type: {Ring: 1}|'
refused "bandwidth nan" p4e.yaml 's|50 GiB/s|nan GiB/s|'
refused "latency inf" p4f.yaml 's|500 ns|inf ns|'
runs_or_refused "size 0x10 (YAML hex integer: 16)" p4g.yaml 's|size: 8,|size: 0x10,|'
refused "scheduling-policy null" p4h.yaml 's|scheduling-policy: LIFO|scheduling-policy: ~|'
printf '%s\n' '*a' > p4i.yaml
p "YAML: undefined alias" fail $cli run p4i.yaml --no-store
printf 'a: &x [*x]\n' > p4j.yaml
p "YAML: self-referencing alias" fail $cli run p4j.yaml --no-store
python3 -c "print('a: ' + '['*100000 + ']'*100000)" > p4k.yaml
p "YAML: 100,000 nested lists" fail $cli run p4k.yaml --no-store
python3 -c "print('{' * 50000)" > deep.0.et; cp deep.0.et deep.1.et
p "JSON trace: 50,000 nested objects" fail $cli trace check deep --npus=2
p "runs export --budget-mb=-5" fail $cli runs export 1 --db=$w/n.db --format=perfetto --budget-mb=-5 --out=$w/pf.json
p "runs export --budget-mb=1e99" fail $cli runs export 1 --db=$w/n.db --format=perfetto --budget-mb=1e99 --out=$w/pf.json
p "runs show 99999999999999999999" fail $cli runs show 99999999999999999999 --db=$w/n.db
p "runs show -1" fail $cli runs show -1 --db=$w/n.db
p "sweep --jobs=0" fail $cli sweep s4.yaml --jobs=0 --dry-run
p "sweep --jobs=abc" fail $cli sweep s4.yaml --jobs=abc
p "generate-llm --bytes=3" fail $cli generate-llm --preset=gpt2-124m --bytes=3 --out=$w/llm
p "generate-llm --efficiency=nan" fail $cli generate-llm --preset=gpt2-124m --efficiency=nan --out=$w/llm
p "generate-llm --tp=0" fail $cli generate-llm --preset=gpt2-124m --tp=0 --out=$w/llm
p "run --backend=" fail $cli run q.yaml --backend= --no-store
p "run --json=" fail $cli run q.yaml --no-store --json=
p "run --db=" fail $cli run q.yaml --db=
p "trace check --npus=2000000000" fail $cli trace check tr/depself --npus=2000000000
p "trace check --dims=1000,1000,3" fail $cli trace check tr/depself --dims=1000,1000,3
p "--units=metric" fail $cli run q.yaml --units=metric --no-store
printf 'not a db' > fake.db
p "--db is not a database" fail $cli run q.yaml --db=$w/fake.db
p "runs list on /dev/urandom as db" fail $cli runs list --db=/dev/urandom

echo "== 5. lost results, failed writes"
p "run --json=/dev/full" fail $cli run q.yaml --no-store --json=/dev/full
p "run --json into a missing folder" fail $cli run q.yaml --no-store --json=$w/nope/x.json
p "runs export csv --out=/dev/full" fail $cli runs export 1 --db=$w/n.db --format=csv --table=links --out=/dev/full
p "runs export perfetto --out=/dev/full" fail $cli runs export 1 --db=$w/n.db --format=perfetto --out=/dev/full
p "runs export astra --out=/dev/full" fail $cli runs export 1 --db=$w/n.db --format=astra --out=/dev/full
p "runs list > /dev/full" fail bash -c "$cli runs list --db=$w/n.db > /dev/full"
p "sweep --csv=/dev/full" fail $cli sweep s4.yaml --csv=/dev/full --db=$w/sw.db
p "generate-llm --out=/dev/full/x" fail $cli generate-llm --preset=gpt2-124m --out=/dev/full/x
p "graph export > /dev/full" fail bash -c "$cli graph export $root/projects/graph-dgx1/project.yaml > /dev/full"
rm -f c.db
for i in 1 2 3 4 5 6 7 8; do $cli run q.yaml --db=$w/c.db >/dev/null 2>c$i.err & done; wait
stored=$(python3 -c "import sqlite3; print(sqlite3.connect('c.db').execute('select count(*) from runs').fetchone()[0])" 2>&1)
n=$((n + 1))
if [[ $stored == 8 ]]; then
    echo "$n    8 concurrent first runs on a new database: 8 stored  ok"
else
    bad=$((bad + 1))
    echo "$n    8 concurrent first runs: stored=$stored  LOST"
    head -n 5 c*.err
fi

echo "== 6. calibrate nccl-tests"
qp=$root/projects/quickstart/project.yaml
hdr='#  Rank  0 Group  0 Pid 1 on a device  0 [0x0f] GPU
#  Rank  1 Group  0 Pid 2 on a device  1 [0x15] GPU
#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong'
p "calibrate: file is /dev/urandom" fail $cli calibrate nccl-tests /dev/urandom --project $qp --dry-run
p "calibrate: file is a FIFO" fail $cli calibrate nccl-tests fifo --project $qp --dry-run
p "calibrate: file is a folder" fail $cli calibrate nccl-tests adir --project $qp --dry-run
printf '# ranks: 1048576\n# collective: all_reduce\nsize,time\n1,1\n2,2\n4,4\n' > n1.csv
p "calibrate: 2^20 ranks, three sizes" any $cli calibrate nccl-tests n1.csv --project $qp --dry-run
printf '# ranks: 8\n# collective: all_gather\nsize,time\n18446744073709551615,1e-300\n2,1e300\n4,5\n' > n2.csv
p "calibrate: size 2^64-1, times 1e-300 and 1e300" fail $cli calibrate nccl-tests n2.csv --project $qp --dry-run
python3 -c "
print('# ranks: 8'); print('# collective: all_reduce'); print('size,time')
for i in range(200000): print(f'{i + 1},{(i + 1) * 1e-3 + 5}')" > n3.csv
p "calibrate: 200,000 sizes" any $cli calibrate nccl-tests n3.csv --project $qp --dry-run
{ echo "$hdr"; for i in $(seq 1 20000); do echo "  8 2 float sum -1 5.0 0.00 0.00 0 5.0 0.00 0.00 0"; done; } > n4.txt
p "calibrate: 20,000 rows of one size" fail $cli calibrate nccl-tests n4.txt --project $qp --collective all_reduce --dry-run
p "calibrate: --dimension 64" fail $cli calibrate nccl-tests n1.csv --project $qp --dimension 64 --dry-run
p "calibrate: --out into /dev/full" fail $cli calibrate nccl-tests $root/tests/data/nccl-tests/a100-oci-1node-all_reduce.txt --project $root/projects/hgx-h100/project.yaml --out /dev/full
echo "== 7. sweeps, graphs, lessons and the generator under hostile input (#54)"
cat > s6a.yaml <<Y
project: q.yaml
axes:
  - {path: system.chunks, range: {from: 1, to: 1000, steps: 1000}}
  - {path: system.endpoint-delay, range: {from: 1 ns, to: 1000 ns, steps: 1000}}
  - {path: platform.dimensions.0.latency, range: {from: 1 ns, to: 1000 ns, steps: 1000}}
sample: {method: latin-hypercube, count: 1000000}
Y
p "sweep: 10^6 sampled points --dry-run (bounded)" ok bash -c "set -o pipefail; $cli sweep s6a.yaml --dry-run --db=$w/s6a.db | tail -n 1"
[[ -e s6a.db || -e q.astrolabe.db ]] && { bad=$((bad + 1)); echo "     FLAGGED: --dry-run created a database"; }
python3 -c "
print('name: big\nplatform:\n  graph:\n    npus: 1024\n    links:')
for i in range(1000001):
    print('      - {from: npu%d, to: npu%d, bandwidth: 50 GB/s, latency: 500 ns}' % (i % 1024, (i + 1) % 1024))
print('system: {algorithms: [ring], chunks: 1}\nworkload: {microbenchmark: {collective: all-reduce, size: 1 MiB}}')
" > g6.yaml
p "graph of 1,000,001 links in the YAML" fail $cli run g6.yaml --no-store
python3 -c "print('project: q.yaml\naxes: [{path: system.chunks, values: [1, 2]}]\nconstraints: [\"' + ' + '.join(['chunks'] * 20000) + ' > 0\"]')" > s6b.yaml
p "sweep: constraint of 20,000 terms" fail $cli sweep s6b.yaml --dry-run
p "generate-llm --npus 1048576 (bounded)" any $cli generate-llm --preset gpt2-124m --npus 1048576
printf 'project: q.yaml\naxes:\n  - {name: a, path: system.chunks, values: [1, 2]}\n  - {name: b, path: system.chunks, values: [4, 8]}\n' > s6c.yaml
p "sweep: two axes on one path" fail $cli sweep s6c.yaml --dry-run
printf 'project: s6d.yaml\naxes: [{path: system.chunks, values: [1]}]\n' > s6d.yaml
p "sweep: project is the sweep itself" fail $cli sweep s6d.yaml --dry-run
printf 'project: /etc/passwd\naxes: [{path: system.chunks, values: [1]}]\n' > s6e.yaml
p "sweep: project is /etc/passwd" fail $cli sweep s6e.yaml --dry-run
proj p6f.yaml 's|^  chunks: 4.*|  chunks: 4\n  chunks: 8|'
p "project: a key given twice" fail $cli run p6f.yaml --no-store
p "generate-llm hidden 1000 over 7 heads" fail $cli model-info --preset gpt2-124m --hidden 1000 --heads 7
p "generate-llm hidden 10^6 (48 T parameters)" fail $cli model-info --preset gpt2-124m --hidden 1000000
p "optimize: total out of the maximums' reach" any $cli optimize bandwidth q.yaml --total-bandwidth 100 --max 0=1
python3 -c "print('from,to,bandwidth,latency\nnpu0,npu1,' + 'x' * 10000000 + ',1 us')" > big-field.csv
p "graph import: a 10 MB field (short message)" fail bash -c "$cli graph import big-field.csv --out=$w/gi.yaml 2>&1 | head -c 2000; exit \${PIPESTATUS[0]}"
printf '\xef\xbb\xbffrom,to,bandwidth,latency\nnpu0,npu1,50 GB/s,1 us\n' > bom.csv
p "graph import: a CSV with a byte-order mark" ok $cli graph import bom.csv --out=$w/bom.yaml
mkdir -p les
cp q.yaml les/project.yaml
printf '# T\n```try\nset system.chunks = [1, \nrun\n```\n' > les/broken.md
p "lesson: a set value that is not YAML" fail $cli lesson check les/broken.md
printf '# T\n```setup\nproject: ../../../../etc/passwd\n```\n```try\nrun\n```\n' > les/escape.md
p "lesson: project out of the lesson folder" fail $cli lesson check les/escape.md
ln -sf /dev/zero les/zero.yaml
printf '# T\n```setup\nproject: zero.yaml\n```\n```try\nrun\n```\n' > les/zero.md
p "lesson: project is /dev/zero" fail $cli lesson check les/zero.md

echo "== 8. utilization"
cat > p7.yaml <<Y
name: a2a on a switch
platform: {dimensions: [{type: Switch, size: 16, bandwidth: 50 GB/s, latency: 500 ns}]}
system: {algorithms: {all-to-all: [direct]}, chunks: 16, active-chunks-per-dimension: 16}
workload: {microbenchmark: {collective: all-to-all, size: 64 MiB}}
Y
# Over-subscription under the congestion-unaware model is explained where it is shown; the
# congestion-aware model shares links and stays within the run.
unaware=$($cli run p7.yaml --no-store 2>&1)
aware=$($cli run p7.yaml --no-store --backend=congestion-aware 2>&1)
most=$(grep -oE 'busy [0-9.]+%' <<<"$aware" | grep -oE '[0-9.]+' | sort -g | tail -n 1)
n=$((n+1))
if grep -q 'links busy longer than the run' <<<"$unaware" && [[ -n $most ]] &&
    awk -v m="$most" 'BEGIN { exit !(m <= 100.0001) }'; then
    echo "$n    over-subscription explained; congestion-aware busiest link $most%  ok"
else
    bad=$((bad + 1))
    echo "$n    over-subscription: unexplained, or congestion-aware past 100% ($most%)  FLAGGED"
fi
echo "== $n cases, $bad flagged"
((bad == 0))
