#!/usr/bin/env bash
# The README's main command: installs everything, builds the desktop app and runs it.
# With no service configured the app starts the embedded reference service with demo data and
# connects to it. Electron when its binary is installed and a display is present; otherwise
# browser mode (the same app served on 127.0.0.1), with the URL to open printed.
set -euo pipefail
cd "$(dirname "$0")/.."
# The Electron binary cannot be downloaded everywhere; browser mode needs none.
export ELECTRON_SKIP_BINARY_DOWNLOAD="${ELECTRON_SKIP_BINARY_DOWNLOAD:-1}"
# pnpm keeps a copy of the lockfile it installed (node_modules/.pnpm/lock.yaml): the same
# lockfile means nothing to install, and pnpm's own start-up (about 3 s) is skipped.
if ! cmp -s pnpm-lock.yaml node_modules/.pnpm/lock.yaml; then
  bash scripts/pnpm.sh install --frozen-lockfile
fi
# Rebuilt only when a source the bundles are made of changed (by content: scripts/desktop-build-stamp.mjs).
if node scripts/desktop-build-stamp.mjs fresh; then
  echo "== the desktop app is built from these sources"
else
  echo "== building the desktop app"
  digest="$(node scripts/desktop-build-stamp.mjs digest)"
  bash scripts/pnpm.sh --silent --filter @eo/desktop run build >/dev/null
  node scripts/desktop-build-stamp.mjs write "$digest"
fi
export EO_DATA_DIR="${EO_DATA_DIR:-$PWD/.data/desktop}"
electron_dist=apps/desktop/node_modules/electron/dist
if [ -d "$electron_dist" ] && [ -n "$(ls -A "$electron_dist" 2>/dev/null)" ] &&
  { [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; }; then
  echo "== starting EO Field Desk (Electron; data: $EO_DATA_DIR)"
  exec bash scripts/pnpm.sh --silent --filter @eo/desktop exec electron . "$@"
fi
echo "== starting EO Field Desk in browser mode (no Electron binary or no display; data: $EO_DATA_DIR)"
# The built launcher (electron-vite bundles it into out/main), run by node itself: neither
# TypeScript compiled at launch nor pnpm's own start-up (apps/desktop/bench/cold-start.ts).
exec node apps/desktop/out/main/browser-mode.cjs --data-dir "$EO_DATA_DIR" "$@"
