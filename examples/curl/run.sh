#!/bin/sh
# The README's two requests: ask for a form (generate.json), then send the
# person's answer to it (submit.json). Prints each answer on its own line.
#
#   ./run.sh [worker URL]     default http://127.0.0.1:8787 (./scripts/dev.sh)
set -eu
cd "$(dirname "$0")"
url=${1:-http://127.0.0.1:8787}
post() { # <route> <body file>
  curl -sS --fail-with-body "$url$1" -H 'content-type: application/json' -d "@$2"
  echo
}
post /v1/generate generate.json
post /v1/submit submit.json
