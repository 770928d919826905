#!/bin/sh
# Shared by bin/campus and bin/campus-server: run-node <bundle name> [arguments]. Reads the environment file,
# drops from root to the service user, and runs apps/server/dist/<name>.mjs with the release's own node.
# The settings are the environment file's only, as systemd gives them to the service: a DATABASE_URL or DATA_DIR
# left in an operator's shell must not make `campus backup` or `campus init` work on another database than the
# service's. From the caller it keeps only the command search path, the locale, the time zone and the terminal.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd -P)
bundle="$here/apps/server/dist/$1.mjs"
shift
program_args=$#
if [ ! -f "$bundle" ]; then
  echo "campus: $bundle is missing from this release" >&2
  exit 1
fi
# the caller's first, so that the environment file's own (a PATH, a TZ) come later and win
for name in PATH LANG LC_ALL LC_CTYPE LC_MESSAGES TZ TERM NO_COLOR; do
  eval "given=\${$name+x} value=\${$name-}"
  if [ -n "$given" ]; then set -- "$@" "$name=$value"; fi
done
env_file=${CAMPUS_ENV_FILE:-/etc/campus/campus.env}
if [ -f "$env_file" ]; then
  if [ ! -r "$env_file" ]; then
    echo "campus: cannot read $env_file (run as root or as the service user)" >&2
    exit 1
  fi
  # KEY=value lines read as systemd's EnvironmentFile= reads them (no shell evaluation: a value may hold spaces,
  # parentheses or $); one pair of surrounding quotes is removed
  while IFS= read -r line || [ -n "$line" ]; do
    line=${line#"${line%%[![:space:]]*}"}
    case $line in ''|'#'*|';'*) continue ;; esac
    key=${line%%=*}
    case $key in
      "$line"|''|[0-9]*|*[!A-Za-z0-9_]*) echo "campus: $env_file: not a KEY=value line: $key" >&2; exit 1 ;;
    esac
    value=${line#*=}
    case $value in
      \"*\") value=${value#\"}; value=${value%\"} ;;
      \'*\') value=${value#\'}; value=${value%\'} ;;
    esac
    set -- "$@" "$key=$value"
  done < "$env_file"
elif [ -n "${CAMPUS_ENV_FILE:-}" ]; then
  echo "campus: CAMPUS_ENV_FILE=$CAMPUS_ENV_FILE does not exist" >&2
  exit 1
fi
# V8's young generation at most 4 MB a half: by default it grows to 16 MB a half under load and the process keeps it
# committed however little lives there. Measured on the release's server (issue 48): about 18 MB less RSS idle and
# under load, the same CPU time a call. bench/support/release-memory.mjs starts the server it measures with these.
node_flags='--max-semi-space-size=4'
set -- "$@" "$here/node/bin/node" "$node_flags" "$bundle"
# the program's own arguments came first; move them behind the settings, the node and the bundle
while [ "$program_args" -gt 0 ]; do
  argument=$1
  shift
  set -- "$@" "$argument"
  program_args=$((program_args - 1))
done
service_user=${CAMPUS_USER:-campus}
if [ "$(id -u)" = 0 ]; then
  if ! id "$service_user" >/dev/null 2>&1; then
    echo "campus: the service user $service_user does not exist (run install.sh)" >&2
    exit 1
  fi
  if command -v setpriv >/dev/null 2>&1; then
    exec setpriv --reuid="$service_user" --regid="$(id -g "$service_user")" --init-groups --inh-caps=-all -- env -i "$@"
  fi
  exec runuser -u "$service_user" -- env -i "$@"
fi
exec env -i "$@"
