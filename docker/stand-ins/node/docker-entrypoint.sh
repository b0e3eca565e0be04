#!/bin/sh
set -e
# As the official image: `docker run node:22 script.js` or `-e ...` runs node.
if [ "${1#-}" != "${1}" ] || [ -z "$(command -v "${1}")" ] || { [ -f "${1}" ] && ! [ -x "${1}" ]; }; then
  set -- node "$@"
fi
exec "$@"
