#!/usr/bin/env python3
"""Latency of POST /v1/documents/review through a real server: a 200,000-char
contract per request (the longest dev contracts, repeated to length), sent one
at a time after 5 warm-up requests; prints p50/p90/p99.

  benches/review_latency.py BIN CUAD_JSONL_GZ [REQUESTS]
"""
import gzip
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

binary, cuad = sys.argv[1], sys.argv[2]
requests = int(sys.argv[3]) if len(sys.argv) > 3 else 200
docs = [json.loads(line) for line in gzip.open(cuad, "rt")]
docs.sort(key=lambda d: -len(d["text"]))
texts = []
for d in docs[:10]:
    text = d["text"]
    while len(text) < 200_000:
        text += "\n\n" + d["text"]
    texts.append(text[:200_000])

with tempfile.TemporaryDirectory() as data:
    config = os.path.join(data, "bench.toml")
    with open(config, "w") as f:
        # The default review limit (60/min) would throttle a sequential run.
        f.write("[rate_limits.review]\nper_minute = 100000\nburst = 1000\n")
    common = ["--data", data, "--config", config]
    key = subprocess.run([binary, "keys", "create", "--balance", "100", *common],
                         check=True, capture_output=True, text=True).stdout.strip()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen([binary, "serve", "--addr", f"127.0.0.1:{port}", *common],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(100):
            try:
                urllib.request.urlopen(base + "/v1/health")
                break
            except OSError:
                time.sleep(0.05)
        times = []
        for i in range(requests + 5):
            body = json.dumps({"text": texts[i % len(texts)]}).encode()
            req = urllib.request.Request(
                base + "/v1/documents/review", data=body, method="POST",
                headers={"Content-Type": "application/json", "Authorization": "Bearer " + key})
            start = time.perf_counter()
            with urllib.request.urlopen(req) as r:
                reply = json.loads(r.read())["data"]
            if i >= 5:
                times.append((time.perf_counter() - start) * 1000)
        assert reply["analyzedChars"] == 200_000 and reply["reviewed"]
    finally:
        server.terminate()
        server.wait()
times.sort()
at = lambda q: times[min(len(times) - 1, int(q * len(times)))]
print(f"review endpoint, 200,000 chars, {len(times)} requests: "
      f"p50 {at(0.5):.1f} ms, p90 {at(0.9):.1f} ms, p99 {at(0.99):.1f} ms")
