#!/usr/bin/env bash
# The official postgres image's start-up, in short: as root, own PGDATA and drop to `postgres`;
# on an empty PGDATA, initdb with POSTGRES_USER and POSTGRES_PASSWORD, create POSTGRES_DB, run
# /docker-entrypoint-initdb.d/*.sql|*.sh on a socket-only server; then exec the server.
set -Eeuo pipefail

if [ "${1:0:1}" = '-' ]; then set -- postgres "$@"; fi
if [ "$1" != postgres ]; then exec "$@"; fi

if [ "$(id -u)" = 0 ]; then
  mkdir -p "$PGDATA"
  chown postgres:postgres "$PGDATA"
  chmod 700 "$PGDATA"
  exec setpriv --reuid=postgres --regid=postgres --init-groups "$BASH_SOURCE" "$@"
fi

if [ ! -s "$PGDATA/PG_VERSION" ]; then
  : "${POSTGRES_USER:=postgres}"
  : "${POSTGRES_DB:=$POSTGRES_USER}"
  auth="${POSTGRES_HOST_AUTH_METHOD:-scram-sha-256}"
  if [ -z "${POSTGRES_PASSWORD:-}" ] && [ "$auth" != trust ]; then
    echo 'Error: Database is uninitialized and superuser password is not specified.' >&2
    echo '       Set POSTGRES_PASSWORD (or POSTGRES_HOST_AUTH_METHOD=trust).' >&2
    exit 1
  fi
  pwfile=$(mktemp)
  printf '%s\n' "${POSTGRES_PASSWORD:-}" >"$pwfile"
  # shellcheck disable=SC2086 # POSTGRES_INITDB_ARGS is a word list, as in the official image.
  initdb --username="$POSTGRES_USER" --pwfile="$pwfile" ${POSTGRES_INITDB_ARGS:-} -D "$PGDATA"
  rm -f "$pwfile"
  printf '\nhost all all all %s\n' "$auth" >>"$PGDATA/pg_hba.conf"

  pg_ctl -D "$PGDATA" -o "-c listen_addresses='' -p 5432" -w start
  export PGUSER="$POSTGRES_USER" PGPASSWORD="${POSTGRES_PASSWORD:-}"
  if [ "$POSTGRES_DB" != postgres ]; then
    psql -v ON_ERROR_STOP=1 --dbname postgres -c "CREATE DATABASE \"$POSTGRES_DB\";"
  fi
  for f in /docker-entrypoint-initdb.d/*; do
    case "$f" in
      *.sh) echo "running $f"; . "$f" ;;
      *.sql) echo "running $f"; psql -v ON_ERROR_STOP=1 --dbname "$POSTGRES_DB" -f "$f" ;;
      *) ;;
    esac
  done
  pg_ctl -D "$PGDATA" -m fast -w stop
  unset PGPASSWORD
  echo 'PostgreSQL init process complete; ready for start up.'
fi

exec "$@"
