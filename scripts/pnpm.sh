#!/usr/bin/env bash
# Runs the pinned pnpm without a global install (corepack cannot fetch pnpm on our machines).
set -euo pipefail
version=$(node -p "require('$(dirname "$0")/../package.json').packageManager.split('@')[1]")
exec npx -y "pnpm@${version}" "$@"
