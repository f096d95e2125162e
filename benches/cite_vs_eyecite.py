#!/usr/bin/env python3
"""Whole-process citation extraction throughput: lexstack against eyecite.

    python3 benches/cite_vs_eyecite.py \
        --corpus ../shared/eval/citations/corpus \
        --lexstack $CARGO_TARGET_DIR/release/lexstack \
        --eyecite-python /work/venv-eyecite/bin/python

Both run on the same machine in the same run, one thread each. eyecite is
timed by its project's own script (bench_eyecite.py, next to the corpus) on
every file except the 1.7 MB bound volume, which takes it many minutes.
lexstack is timed as whole processes (`lexstack cite extract --jsonl`,
start-up and JSON output included) on the same files, and on the whole
corpus; the best of --repeat runs is kept. Standard library only.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

BOUND_VOLUME = "us557_bound_volume.txt"


def documents(corpus, skip_bound_volume):
    names = sorted(f for f in os.listdir(corpus) if f.endswith(".txt"))
    if skip_bound_volume:
        names = [n for n in names if n != BOUND_VOLUME]
    return [(n, open(os.path.join(corpus, n), encoding="utf-8").read()) for n in names]


def lexstack_run(binary, docs, repeat):
    payload = "".join(json.dumps({"id": n, "text": t}) + "\n" for n, t in docs).encode()
    best, citations = None, 0
    for _ in range(repeat):
        started = time.perf_counter()
        out = subprocess.run([binary, "cite", "extract", "--jsonl"], input=payload,
                             capture_output=True, check=True)
        elapsed = time.perf_counter() - started
        best = elapsed if best is None else min(best, elapsed)
        citations = sum(len(json.loads(line)["citations"]) for line in out.stdout.splitlines())
    size = sum(len(t.encode()) for _, t in docs)
    return {"seconds": best, "MB_per_s": size / best / 1e6, "citations": citations, "bytes": size}


def startup(binary, repeat):
    best = None
    for _ in range(repeat):
        started = time.perf_counter()
        subprocess.run([binary, "cite", "extract"], input=b"Foo v. Bar, 1 F.3d 1 (9th Cir. 1993)",
                       capture_output=True, check=True)
        elapsed = time.perf_counter() - started
        best = elapsed if best is None else min(best, elapsed)
    return best


def eyecite_run(python, corpus, docs):
    with tempfile.TemporaryDirectory() as tmp:
        for name, text in docs:
            with open(os.path.join(tmp, name), "w", encoding="utf-8") as f:
                f.write(text)
        report = os.path.join(tmp, "eyecite.json")
        script = os.path.join(os.path.dirname(os.path.abspath(corpus)), "bench_eyecite.py")
        subprocess.run([python, script, "--corpus", tmp, "--mode", "per-doc", "--repeat", "1",
                        "--json", report], check=True, capture_output=True)
        return json.load(open(report))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--lexstack", required=True)
    ap.add_argument("--eyecite-python", help="python with eyecite installed; omit to skip eyecite")
    ap.add_argument("--repeat", type=int, default=5)
    a = ap.parse_args()

    small = documents(a.corpus, skip_bound_volume=True)
    full = documents(a.corpus, skip_bound_volume=False)
    result = {
        "lexstack_startup_process_s": startup(a.lexstack, a.repeat),
        "lexstack_without_bound_volume": lexstack_run(a.lexstack, small, a.repeat),
        "lexstack_whole_corpus": lexstack_run(a.lexstack, full, a.repeat),
    }
    if a.eyecite_python:
        eye = eyecite_run(a.eyecite_python, a.corpus, small)
        result["eyecite_without_bound_volume"] = {
            "init_s": eye["init_s"],
            "seconds": eye["per-doc"]["seconds_best"],
            "MB_per_s": eye["per-doc"]["MB_per_s"],
            "citations": eye["per-doc"]["citations"],
            "eyecite": eye["machine"]["eyecite"],
        }
        ours = result["lexstack_without_bound_volume"]["MB_per_s"]
        theirs = eye["corpus"]["utf8_bytes"] / eye["per-doc"]["seconds_best"] / 1e6
        result["ratio_same_files"] = ours / theirs
    json.dump(result, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
