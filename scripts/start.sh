#!/usr/bin/env bash
# The README's main command: installs everything and runs the product.
# Until the desktop app lands, the product's main job is the reference service with demo data.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/pnpm.sh install --frozen-lockfile
data_dir="${EO_DATA_DIR:-$PWD/.data/server}"
echo "Starting the EO imagery reference service (data: $data_dir)."
echo "On the first start it seeds demo data and prints a demo API key once;"
echo "make another any time with: bash scripts/pnpm.sh --silent --filter @eo/server run eo-server keys create --org org-demo --user usr-demo-analyst --data-dir $data_dir"
exec bash scripts/pnpm.sh --silent --filter @eo/server run eo-server start --data-dir "$data_dir" "$@"
