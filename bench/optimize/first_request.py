#!/usr/bin/env python3
"""A fresh isolate's start-up and first requests in workerd alone, per thread.

    python3 bench/optimize/first_request.py UPLOAD_DIR [V8_FLAG ...]

UPLOAD_DIR holds an exact upload (`wrangler deploy --dry-run --outdir`) and
the `genui.capnp` that `target/release/bench-wasm` wrote beside it (the
driver of ./scripts/bench-wasm.sh); INPUTS names that driver's inputs file
(default target/bench-wasm/inputs.json) and SEQ the case ids to send in
order (default: the 50-field JSON Forms miss twice, then an A2UI cold miss).
V8 flags go to workerd's `v8Flags` (say `--no-wasm-lazy-compilation`), to
see where a first request's CPU goes; the platform sets its own.

Prints each thread's CPU (ms, from /proc/<pid>/task/<tid>/schedstat) for the
start-up (until the first `/healthz` answered) and for each request. The
`workerd` thread runs the isolate (and workerd's own HTTP handling); `V8
DefaultWorke` threads (names are cut at 15 characters) compile, tier up and collect garbage in the
background. A diagnosis tool: it asserts nothing, servers listen on
127.0.0.1 only, and each run is bounded (60 s to start, 30 s a request).
"""
import json, os, re, socket, subprocess, sys, time, urllib.error, urllib.request

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def config(upload, port, flags):
    text = open(os.path.join(upload, "genui.capnp")).read()
    text = re.sub(r"127\.0\.0\.1:\d+", f"127.0.0.1:{port}", text)
    if flags:
        if "  sockets =" not in text:
            sys.exit("genui.capnp has no `sockets =` line to put v8Flags before")
        listed = ", ".join(json.dumps(f) for f in flags)
        text = text.replace("  sockets =", f"  v8Flags = [{listed}],\n  sockets =")
    path = os.path.join(upload, "first-request.capnp")
    open(path, "w").write(text)
    return path


def thread_cpu(pid):
    out = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            name = open(f"/proc/{pid}/task/{tid}/comm").read().strip()
            ns = int(open(f"/proc/{pid}/task/{tid}/schedstat").read().split()[0])
        except OSError:
            continue
        out[f"{name}:{tid}"] = ns
    return out


def request(port, path, body=None):
    headers = {"content-type": "application/json"} if body else {}
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=body, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return resp.status
    except urllib.error.HTTPError as e:
        return e.code


def path_of(case):
    """The route a case of the inputs goes to, as the bench driver sends it."""
    if case.get("route") == "submit":
        return "/v1/submit"
    return f"/v1/generate?format={case['format']}" if case.get("format") else "/v1/generate"


def spent(before, after):
    return {k: round((after[k] - before.get(k, 0)) / 1e6, 2) for k in after if after[k] - before.get(k, 0) > 50_000}


def main():
    upload, flags = sys.argv[1], sys.argv[2:]
    port = free_port()
    log = open(os.path.join(upload, "first-request.log"), "w")
    workerd = subprocess.Popen([os.path.join(ROOT, "node_modules/.bin/workerd"), "serve", config(upload, port, flags)], stdout=log, stderr=log)
    try:
        deadline = time.time() + 60
        while True:
            if workerd.poll() is not None or time.time() > deadline:
                sys.exit(f"workerd did not start; see {log.name}")
            try:
                if request(port, "/healthz") == 200:
                    break
            except OSError:
                pass
            time.sleep(0.025)
        start = thread_cpu(workerd.pid)
        print("start-up", {k: round(v / 1e6, 1) for k, v in start.items()})
        inputs = json.load(open(os.environ.get("INPUTS", os.path.join(ROOT, "target/bench-wasm/inputs.json"))))
        cases = {c["id"]: c for c in inputs["cases"]}
        order = os.environ.get("SEQ", "miss/jsonforms/50,miss/jsonforms/50,coldmiss/a2ui/50").split(",")
        for n, case_id in enumerate(order):
            case = cases[case_id]
            body = case["body"].replace(inputs["placeholder"], f"first-request-{n}-{time.time()}")
            before = thread_cpu(workerd.pid)
            status = request(port, path_of(case), body.encode())
            used = spent(before, thread_cpu(workerd.pid))
            print(case_id, status, "all", round(sum(used.values()), 2), used)
    finally:
        workerd.kill()
        workerd.wait()


if __name__ == "__main__":
    main()
