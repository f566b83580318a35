#!/usr/bin/env python3
# The 72 Themis cases of docs/themis.md: platform x size x chunks x network model, one column per
# inter-dimension scheduling. Usage: CLI=build/app/cli/astrolabe-cli JOBS=2 python3 tests/bench/themis72.py ascending themis offlineGreedy
import json, subprocess, sys, os, itertools, concurrent.futures as cf
CLI = os.environ.get("CLI", "build/app/cli/astrolabe-cli")
OUT = "/tmp/themis72"
os.makedirs(OUT, exist_ok=True)
PLATFORMS = {
    "W-1D": [("Switch", 512, 500)],
    "W-2D": [("Switch", 32, 250), ("Switch", 16, 250)],
    "Conv-3D": [("Ring", 16, 200), ("FullyConnected", 8, 100), ("Switch", 4, 50)],
    "Conv-4D": [("Ring", 2, 250), ("FullyConnected", 8, 200), ("Ring", 8, 100), ("Switch", 4, 50)],
}
SIZES = {"1MB": "1 MB", "64MB": "64 MB", "1GB": "1 GB"}
SPLITS = [int(s) for s in os.environ.get("SPLITS", "1,4,16").split(",")]
BACKENDS = os.environ.get("BACKENDS", "congestion-unaware,congestion-aware").split(",")
SCHEDS = sys.argv[1:] or ["ascending", "offlineGreedy"]

def project(plat, size, splits, backend, sched):
    dims = "\n".join(f"    - {{type: {t}, size: {n}, bandwidth: {b} GB/s, latency: 500 ns}}" for t, n, b in PLATFORMS[plat])
    algos = ", ".join({"Ring": "ring", "FullyConnected": "direct", "Switch": "ring"}[t] for t, _, _ in PLATFORMS[plat])
    return f"""name: themis {plat} {size} {splits} {backend} {sched}
platform:
  dimensions:
{dims}
system:
  algorithms: {{all-reduce: [{algos}], reduce-scatter: [{algos}], all-gather: [{algos}], all-to-all: [{algos}]}}
  chunks: {splits}
  endpoint-delay: 10 ns
  collective-optimization: localBWAware
  local-memory-bandwidth: 1600 GB/s
  inter-dimension-scheduling: {sched}
workload:
  microbenchmark: {{collective: all-reduce, size: {SIZES[size]}}}
run:
  backend: {backend}
"""

def run(case):
    plat, size, splits, backend, sched = case
    name = f"{plat}_{size}_{splits}_{backend}_{sched}"
    y = f"{OUT}/{name}.yaml"; j = f"{OUT}/{name}.json"
    open(y, "w").write(project(*case))
    r = subprocess.run([CLI, "run", y, "--no-store", f"--json={j}", "--progress=never"], capture_output=True, text=True)
    if r.returncode != 0:
        return case, None, r.stderr.strip()[:300]
    d = json.load(open(j))
    return case, d["endTimeNs"], d.get("wallSeconds")

cases = list(itertools.product(PLATFORMS, SIZES, SPLITS, BACKENDS, SCHEDS))
res = {}
with cf.ThreadPoolExecutor(int(os.environ.get("JOBS", "1"))) as ex:
    for case, t, extra in ex.map(run, cases):
        res[case] = t
        if t is None and not res.get("failed"): res["failed"]=1; print("FAIL", case, extra, file=sys.stderr)
print("platform size splits backend " + " ".join(SCHEDS) + "  ratios(base/x)")
for plat, size, splits, backend in itertools.product(PLATFORMS, SIZES, SPLITS, BACKENDS):
    ts = [res[(plat, size, splits, backend, s)] for s in SCHEDS]
    base = ts[0]
    rat = " ".join(f"{base/t:.3f}" if t and base else "-" for t in ts[1:])
    print(f"{plat} {size} {splits} {backend} " + " ".join(f"{t/1e6:.4f}ms" if t else "FAIL" for t in ts) + "  " + rat)
