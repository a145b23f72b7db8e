"""llama.cpp's own HTTP server (llama-server) from the prebuilt `xllamacpp` wheel.

The wheel has no command-line program, so scripts/local-llm starts this instead:

    python scripts/llama-server.py --model M.gguf --alias NAME --port P [--threads N] [--ctx N]

It serves /v1/models and /v1/chat/completions (grammar, response_format json_object and
json_schema, streaming) on 127.0.0.1 until SIGTERM or SIGINT.
"""

import argparse
import signal
import sys
import threading

import xllamacpp


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", required=True)
    ap.add_argument("--alias", required=True)
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--ctx", type=int, default=4096)
    args = ap.parse_args()

    p = xllamacpp.CommonParams()
    p.model.path = args.model
    p.model_alias = {args.alias}
    p.port = args.port
    p.hostnames = ["127.0.0.1"]
    p.n_ctx = args.ctx
    # One request at a time, like the benchmark and the tests send them: a fresh server fed
    # the same requests at temperature 0 then answers the same way every time.
    p.n_parallel = 1
    p.use_jinja = True
    p.cpuparams.n_threads = args.threads
    p.cpuparams_batch.n_threads = args.threads
    # The page on another localhost port calls it: llama-server allows every origin by default.
    p.ui = False

    done = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: done.set())
    server = xllamacpp.Server(p)  # serves from its own threads until this process ends
    print(f"llama-server (xllamacpp) "
          f"serving {args.alias} on 127.0.0.1:{args.port}", flush=True)
    done.wait()
    del server
    return 0


if __name__ == "__main__":
    sys.exit(main())
