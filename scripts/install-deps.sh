#!/usr/bin/env bash
# Installs what streamlint needs to build and test on Debian 12.
# Each component appends its packages to the lists below.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

# --- npm tools, installed into tools/node/ (ignored by git) ---------------
# SARIF validators for tests/output (FACTS.md): the SARIF multitool, and
# ajv-cli + ajv-formats for JSON-schema validation against the 2.1.0 schema
# shipped by @microsoft/sarif-multitool-linux.
npm_packages=(
  @microsoft/sarif-multitool@5.7.0
  ajv-cli@5.0.0
  ajv-formats@3.0.1
)
if command -v npm >/dev/null; then
  mkdir -p "$root/tools/node"
  [[ -f $root/tools/node/package.json ]] || echo '{"private": true}' >"$root/tools/node/package.json"
  npm install --prefix "$root/tools/node" --no-audit --no-fund "${npm_packages[@]}"
  # The multitool's postinstall (chmod) may be skipped by npm's script policy.
  chmod u+x "$root"/tools/node/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool 2>/dev/null || true
else
  echo "install-deps: npm not found; SARIF validation tests will be skipped" >&2
fi
