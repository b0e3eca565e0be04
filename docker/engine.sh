#!/usr/bin/env bash
# Makes `docker compose` work on a Debian bookworm machine, for the compose test (.ci/run runs this):
#   - a Docker engine that answers: Debian's docker.io installed when there is no docker CLI, and
#     dockerd started in the background when no engine answers;
#   - Compose v2 (`docker compose`, what testcontainers' DockerComposeEnvironment runs). Bookworm ships
#     only Compose v1 (docker-compose 1.29, python); v2 is Debian's docker-compose package of the next
#     release (trixie: 2.26, a Go binary needing libc >= 2.34, bookworm has 2.36). It is downloaded from
#     the machine's own Debian mirror (the one its apt sources name) through a temporary package list
#     and installed with dpkg; the machine's apt sources are not changed.
# Exits 0 when `docker compose version` works, non-zero with the reason otherwise. Needs root.
set -euo pipefail

log() { printf '==> docker: %s\n' "$*" >&2; }
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo -n"; fi

# A machine can carry a docker CLI without an engine (a static client in /usr/local/bin, as some
# images ship): the engine is what matters, so dockerd decides whether docker.io is installed.
if ! command -v docker >/dev/null || ! command -v dockerd >/dev/null; then
  log "installing docker.io"
  $SUDO apt-get update -q >&2
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends docker.io >&2
fi

if ! docker info >/dev/null 2>&1; then
  log "starting dockerd"
  $SUDO sh -c 'nohup dockerd >/var/log/crumbs-dockerd.log 2>&1 &'
  for _ in $(seq 1 120); do
    docker info >/dev/null 2>&1 && break
    sleep 0.5
  done
  if ! docker info >/dev/null 2>&1; then
    echo "dockerd did not start; its log: /var/log/crumbs-dockerd.log" >&2
    tail -n 20 /var/log/crumbs-dockerd.log >&2 || true
    exit 1
  fi
fi

if ! docker compose version >/dev/null 2>&1; then
  mirror=$(apt-get indextargets --format '$(REPO_URI) $(RELEASE)' 2>/dev/null | awk '$2 == "bookworm" { print $1; exit }')
  if [ -z "$mirror" ]; then
    echo "no Debian bookworm apt source on this machine to take the mirror from" >&2
    exit 1
  fi
  log "installing Compose v2: Debian trixie's docker-compose from $mirror"
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  mkdir -p "$work/lists/partial" "$work/archives/partial"
  echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror trixie main" >"$work/trixie.list"
  apt_tmp=(-o "Dir::Etc::SourceList=$work/trixie.list" -o Dir::Etc::SourceParts=/dev/null
    -o "Dir::State::Lists=$work/lists" -o "Dir::Cache::Archives=$work/archives" -o APT::Sandbox::User=root)
  $SUDO apt-get "${apt_tmp[@]}" update -q >&2
  (cd "$work" && $SUDO apt-get "${apt_tmp[@]}" download docker-compose >&2)
  $SUDO dpkg -i "$work"/docker-compose_*.deb >&2
fi
docker compose version >&2
