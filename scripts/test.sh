#!/usr/bin/env bash
# The README's test command: installs everything and runs the whole test suite.
# Works on a fresh Debian machine with only Node 20 and npm (run as root for the apt step).
set -euo pipefail
cd "$(dirname "$0")/.."
pnpm() { bash scripts/pnpm.sh "$@"; }

# System packages tests need (headless Chromium for UI tests), installed when missing.
bash scripts/system-deps.sh

echo "== install"
pnpm install --frozen-lockfile
echo "== lint"
pnpm exec eslint . --max-warnings=0
echo "== unused files, dependencies and exports (knip.json: benches and workers are entries)"
pnpm exec knip
echo "== format"
pnpm exec prettier --check . --log-level warn
echo "== typecheck"
pnpm exec turbo run typecheck --output-logs=errors-only
echo "== benchmark smoke runs (tiny sizes: they prove each benchmark still runs; figures come from pnpm bench)"
pnpm exec turbo run bench:smoke --concurrency=1 --output-logs=new-only
echo "== test (the last line is the verdict: tests: N passed, N failed)"
pnpm exec vitest run
