# dev/spmm/bin_dev.sh ab: CELLS.json = {"inputs": {name: "spbench gen arguments"}, "cells": [[label, input, nb, precision, layout], ...]}
import json, os, statistics, subprocess, sys
spec = json.load(open(sys.argv[1]))
for name, args in spec["inputs"].items():  # (made here unless already there: inputs made elsewhere need no Node on the GPU machine)
    if not os.path.exists(f"/tmp/{name}.spb"): subprocess.run(["node", "bin/spbench.js", "gen", *args.split(), "-o", f"/tmp/{name}.spb"], check=True, capture_output=True)
variants = json.loads(os.environ.get("VARIANTS", '[["base", {}]]'))
named = "," in os.environ.get("M", "")  # several methods: each figure under its method's name
pick = lambda j: f"({j['info']['choice']})" if j["method"] == "auto" and "choice" in j.get("info", {}) else ""  # auto: the method it ran
with open(sys.argv[2], "w") as out:
    for label, inp, nb, prec, layout in spec["cells"]:
        row = [label]
        for exe, env in variants:
            tag = exe + ("+" + ",".join(f"{k}={v}" for k, v in env.items()) if env else "")
            try:  # a run takes seconds; one that hangs costs AB_TIMEOUT, is marked and the sweep goes on
                r = subprocess.run([f".dev/bin/{exe}", "spmm", "--input", f"/tmp/{inp}.spb", "--nb", str(nb), "--precision", prec, "--layout", layout,
                                    "--methods", os.environ.get("M", "batched-tile"), "--mode", "graph", "--samples", "10"],
                                   capture_output=True, text=True, env=dict(os.environ, **env), timeout=int(os.environ.get("AB_TIMEOUT", "90")))
            except subprocess.TimeoutExpired:
                row.append(f"{tag}=TIMEOUT")
                continue
            res = [j for j in (json.loads(l) for l in r.stdout.splitlines() if l.startswith("{")) if j.get("type") == "result" and j.get("status") == "ok"]
            row.append(f"{tag}=" + (" ".join(f"{j['method'] + ':' if named else ''}{statistics.median(j['samples_ms']) * 1000:.1f}{'' if j['verify'].get('passed') else '!'}{pick(j)}" for j in res) or "ERR"))
        print(" ".join(row), file=out, flush=True)
