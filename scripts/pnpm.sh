#!/usr/bin/env bash
# Runs the pinned pnpm without a global install (corepack cannot fetch pnpm on our machines).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
version=$(node -p "require(process.argv[1]).packageManager.split('@')[1]" "$root/package.json")
exec npx -y "pnpm@${version}" "$@"
