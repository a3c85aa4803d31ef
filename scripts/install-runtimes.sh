#!/usr/bin/env bash
# Installs the runtimes the runtime tests (npm run test:runtimes) run the packed SDK in: Cloudflare's
# workerd, Bun and Deno, all from the npm registry, outside the project (inside it, their bins would
# land in node_modules/.bin). Already installed at these versions: nothing to do.
#   SCHOOL_ADMIN_RUNTIMES_DIR  where (default: ${TMPDIR:-/tmp}/sdk-runtimes)
set -euo pipefail

dir="${SCHOOL_ADMIN_RUNTIMES_DIR:-${TMPDIR:-/tmp}/sdk-runtimes}"
# Pinned, so a run is reproducible; raise them together with a run of npm run test:runtimes.
packages=(workerd@1.20261117.1 bun@1.4.5 deno@2.9.6)

installed_version() { node -p "require('$dir/node_modules/$1/package.json').version" 2>/dev/null || true; }

missing=()
for spec in "${packages[@]}"; do
  name="${spec%@*}"
  if [ "$(installed_version "$name")" != "${spec##*@}" ] || [ ! -x "$dir/node_modules/.bin/$name" ]; then missing+=("$spec"); fi
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing ${missing[*]} into $dir"
  mkdir -p "$dir"
  npm install --prefix "$dir" --no-audit --no-fund --loglevel=error "${packages[@]}"
fi
for name in workerd bun deno; do
  printf '%s: ' "$name"
  "$dir/node_modules/.bin/$name" --version | head -n 1
done
