#!/usr/bin/env bash
# The README's main command: installs everything and runs the product.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/pnpm.sh install --frozen-lockfile
if [ -f apps/server/package.json ]; then
  exec bash scripts/pnpm.sh --filter @eo/server start
fi
echo "EO Field Desk: the reference service (apps/server) has not landed yet; nothing to start."
echo "Run 'npm test' to run the test suite of what exists (packages/domain)."
