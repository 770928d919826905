#!/bin/sh
# Installs this campus shell release on a Linux server with systemd and nginx: no network, no compiler needed.
# Run as root from the unpacked release folder: ./install.sh --help
set -eu
# what is made here is readable by the service user unless made private on purpose below
umask 022

usage() {
  cat <<'USAGE'
usage: ./install.sh [options]          (as root, from the unpacked campus-shell-<version> folder)

Installs to /opt/campus/releases/<version> with /opt/campus/current pointing at it, links /usr/local/bin/campus,
creates the service user `campus`, writes /etc/campus/campus.env (kept when it exists), makes /var/lib/campus and
/var/backups/campus (0700, campus), installs the systemd units and the nginx TLS site, initialises the database and
writes the one-time administrator password to /etc/campus/initial-admin-password (0600, root only).

  --licence FILE        the customer's licence from the vendor (.lic): installed and put in effect
                        (campus licence add); without it, the first sign-in offers the 30-day trial
  --licence-trust FILE  the vendor's public keys (JSON): copied to /etc/campus/licence-trust.json and named by
                        LICENCE_TRUST_FILE in the environment file
  --tls-cert FILE       the site's certificate (PEM, with its chain); with --tls-key. Both are copied to
  --tls-key FILE        /etc/campus/tls/ (campus.crt, campus.key 0600), which a later run without them keeps using.
                        Without both and no copy there, a self-signed certificate is made (browsers warn)
  --server-name NAME    the site's host name (default: this machine's name)
  --port N              the server's loopback port behind nginx (default 6300)
  --root DIR            lay everything out under DIR instead of / (tests); the paths written into the
                        environment file and units are then under DIR too
  --no-systemd          install the unit files but do not call systemctl; print the command the unit runs
  --no-nginx-reload     install the nginx site and check it, but do not reload nginx
  --keep-default-site   leave Debian's default nginx site enabled (by default it is disabled: it answers port 80
                        for every other name and the bare address, in front of the campus site's redirect)
  -h, --help            this help
Re-running is safe: the environment file, the data and the password file are kept. Over an installation that
has data (an upgrade, or the same release again), it first takes a backup with `campus backup` and stops
campus-server; if the backup fails, nothing is switched.
USAGE
}

step=''
fail() { echo "install.sh: FAILED at: $step${1:+: $1}" >&2; exit 1; }
trap 'status=$?; [ $status -eq 0 ] || echo "install.sh: stopped at step: $step (exit $status)" >&2' EXIT
say() { step=$1; echo "==> $1"; }
# install_copy FROM TO MODE: root's copy, written whole under another name first (nothing when FROM is TO already)
install_copy() {
  [ ! "$1" -ef "$2" ] || return 0
  (umask 077 && cp "$1" "$2.new")
  chown root:root "$2.new"
  chmod "$3" "$2.new"
  mv "$2.new" "$2"
}

root='' tls_cert='' tls_key='' server_name='' port=6300 systemd=1 nginx_reload=1 licence='' licence_trust='' keep_default_site=0
while [ $# -gt 0 ]; do
  case $1 in
    --tls-cert) [ $# -ge 2 ] || fail "--tls-cert needs a file"; tls_cert=$2; shift 2 ;;
    --tls-key) [ $# -ge 2 ] || fail "--tls-key needs a file"; tls_key=$2; shift 2 ;;
    --server-name) [ $# -ge 2 ] || fail "--server-name needs a name"; server_name=$2; shift 2 ;;
    --port) [ $# -ge 2 ] || fail "--port needs a number"; port=$2; shift 2 ;;
    --root) [ $# -ge 2 ] || fail "--root needs a folder"; root=${2%/}; shift 2 ;;
    --no-systemd) systemd=0; shift ;;
    --no-nginx-reload) nginx_reload=0; shift ;;
    --licence) [ $# -ge 2 ] || fail "--licence needs a file"; licence=$2; shift 2 ;;
    --licence-trust) [ $# -ge 2 ] || fail "--licence-trust needs a file"; licence_trust=$2; shift 2 ;;
    --keep-default-site) keep_default_site=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) step='reading the options'; usage >&2; fail "unknown option $1" ;;
  esac
done

step='checking the options'
[ "$(id -u)" = 0 ] || fail "run as root (the installer creates a user and writes to /etc and /opt)"
case $port in ''|*[!0-9]*) fail "--port must be a number, got $port" ;; esac
[ "$port" -ge 1 ] && [ "$port" -le 65535 ] || fail "--port must be between 1 and 65535"
if [ -n "$tls_cert$tls_key" ]; then
  [ -n "$tls_cert" ] && [ -n "$tls_key" ] || fail "give both --tls-cert and --tls-key, or neither"
  [ -r "$tls_cert" ] || fail "cannot read the certificate $tls_cert"
  [ -r "$tls_key" ] || fail "cannot read the key $tls_key"
fi
if [ -n "$licence" ]; then
  [ -f "$licence" ] && [ -r "$licence" ] || fail "cannot read the licence file $licence"
  case $licence in *.lic|*.LIC) ;; *) fail "--licence takes the vendor's .lic file, got $licence" ;; esac
fi
if [ -n "$licence_trust" ]; then [ -f "$licence_trust" ] && [ -r "$licence_trust" ] || fail "cannot read the vendor's trust file $licence_trust"; fi
[ -n "$server_name" ] || server_name=$(hostname -f 2>/dev/null || hostname)
case $server_name in *[!A-Za-z0-9.-]*|'') fail "--server-name must be a host name, got $server_name" ;; esac
if [ -n "$root" ]; then mkdir -p "$root"; root=$(cd "$root" && pwd -P); fi

here=$(cd "$(dirname "$0")" && pwd -P)
[ -f "$here/VERSION" ] && [ -x "$here/node/bin/node" ] || fail "run install.sh from the unpacked release folder ($here has no VERSION or node/)"
version=$(cat "$here/VERSION")
user=campus
opt=/opt/campus
release=$opt/releases/$version
etc=/etc/campus
env_file=$etc/campus.env
data_dir=/var/lib/campus
backup_dir=/var/backups/campus
password_file=$etc/initial-admin-password
units=/etc/systemd/system
nginx_site=/etc/nginx/conf.d/campus-shell.conf
tls_dir=$etc/tls
trust_file=$etc/licence-trust.json
command_link=/usr/local/bin/campus
log_dir=/var/log/nginx

say "checking the release's files (SHA256SUMS)"
(cd "$here" && sha256sum --quiet -c SHA256SUMS) || fail "some files of the release are damaged or changed"

# A release folder is never replaced by another build: rolling back (ln -sfn releases/<version>) must find the old
# code there. The same build again (the same SHA256SUMS) is a re-run and copies it afresh.
if [ "$here" != "$root$release" ] && [ -e "$root$release" ]; then
  say "comparing with the release already installed in $root$release"
  if ! cmp -s "$here/SHA256SUMS" "$root$release/SHA256SUMS"; then
    fail "$root$release holds another build that also calls itself $version (its files differ from this release's).
    Nothing was changed. Installing over it would leave no old code to roll back to. Install a build with a version of its
    own (npm run release from a clean commit names each build after its commit), or, if that folder is not in use
    ($root$opt/current points at $(readlink "$root$opt/current" 2>/dev/null || echo nothing)), move it away first"
  fi
  echo "    the same build is installed there: installing it again"
fi

say "creating the service user $user"
if ! id "$user" >/dev/null 2>&1; then
  useradd --system --user-group --no-create-home --home-dir "$data_dir" --shell /usr/sbin/nologin "$user"
  echo "    created system user $user (no login shell)"
else
  echo "    $user exists"
fi

# the release in use now, if any: an upgrade (or a re-install) backs up before it switches
previous=''
if [ -L "$root$opt/current" ]; then previous=$(readlink "$root$opt/current"); fi

say "copying the release to $root$release"
if [ "$here" != "$root$release" ]; then
  mkdir -p "$root$opt/releases"
  rm -rf "$root$release.new"
  cp -a "$here" "$root$release.new"
  rm -rf "$root$release"
  mv "$root$release.new" "$root$release"
fi
chown -R root:root "$root$release"
chmod -R go-w,a+rX "$root$release"
chmod 0755 "$root$opt" "$root$opt/releases"

say "writing the environment file $root$env_file"
mkdir -p "$root$etc"
chmod 0755 "$root$etc"
if [ -f "$root$env_file" ]; then
  echo "    kept (it exists)"
else
  sed -e "s#@DATA_DIR@#$root$data_dir#" -e "s#@BACKUP_DIR@#$root$backup_dir#" -e "s#@PORT@#$port#" \
    "$here/deploy/campus.env.template" > "$root$env_file.new"
  chown root:"$user" "$root$env_file.new"
  chmod 0640 "$root$env_file.new"
  mv "$root$env_file.new" "$root$env_file"
  echo "    written from the template; edit it, then: systemctl restart campus-server"
fi
chown root:"$user" "$root$env_file"
chmod 0640 "$root$env_file"

if [ -n "$licence_trust" ]; then
  say "installing the vendor's licence keys $root$trust_file"
  named=$(sed -n 's/^[[:space:]]*LICENCE_TRUST_FILE=//p' "$root$env_file" | tail -n 1)
  if [ -n "$named" ] && [ "$named" != "$root$trust_file" ]; then
    fail "$root$env_file names LICENCE_TRUST_FILE=$named: put the vendor's keys there, or remove that line and re-run"
  fi
  install_copy "$licence_trust" "$root$trust_file" 0644
  if [ -z "$named" ]; then
    printf '\n# the vendor'"'"'s licence keys (install.sh --licence-trust)\nLICENCE_TRUST_FILE=%s\n' "$root$trust_file" >> "$root$env_file"
    echo "    LICENCE_TRUST_FILE=$root$trust_file added to $root$env_file"
  fi
fi

say "making the data folder $root$data_dir and the backup folder $root$backup_dir"
for dir in "$root$data_dir" "$root$backup_dir"; do
  mkdir -p "$dir"
  chown "$user:$user" "$dir"
  chmod 0700 "$dir"
done

say "installing the systemd units into $root$units"
mkdir -p "$root$units"
for unit in campus-server.service campus-backup.service campus-backup.timer; do
  sed -e "s#@CURRENT@#$root$opt/current#g" -e "s#@ENV_FILE@#$root$env_file#g" -e "s#@DATA_DIR@#$root$data_dir#g" \
    -e "s#@BACKUP_DIR@#$root$backup_dir#g" "$here/deploy/systemd/$unit" > "$root$units/$unit"
  chmod 0644 "$root$units/$unit"
done

has_data=0
if [ -f "$root$data_dir/campus.db" ] || grep -Eq '^[[:space:]]*DATABASE_URL=[^[:space:]]' "$root$env_file"; then has_data=1; fi
if [ -n "$previous" ] && [ "$has_data" = 1 ]; then
  say "backing up the installation before switching from ${previous#releases/} to $version (campus backup)"
  CAMPUS_ENV_FILE="$root$env_file" "$root$release/bin/campus" backup --remarks "before installing $version over ${previous#releases/}" \
    || fail "the backup failed (its messages are above); nothing was switched, $root$opt/current still points at $previous"
  if [ "$systemd" = 1 ]; then
    say "stopping campus-server for the switch"
    systemctl stop campus-server.service
  fi
fi

say "switching $root$opt/current to releases/$version"
ln -sfn "releases/$version" "$root$opt/current.new"
mv -T "$root$opt/current.new" "$root$opt/current"
echo "    $root$opt/current -> releases/$version"

say "linking the campus command $root$command_link"
mkdir -p "$root$(dirname "$command_link")"
# another program's campus (a file, or a link elsewhere) is left alone
linked_to=''
if [ -L "$root$command_link" ]; then linked_to=$(readlink "$root$command_link"); fi
if [ -e "$root$command_link" ] && [ -z "$linked_to" ]; then
  echo "    kept $root$command_link: it is a file of its own, not this installer's link; the command is $root$opt/current/bin/campus"
elif [ -n "$linked_to" ] && [ "${linked_to#"$root$opt"/}" = "$linked_to" ]; then
  echo "    kept $root$command_link: it points at $linked_to; the command is $root$opt/current/bin/campus"
else
  ln -sfn "$root$opt/current/bin/campus" "$root$command_link.new"
  mv -T "$root$command_link.new" "$root$command_link"
  echo "    $root$command_link -> $root$opt/current/bin/campus (the release in use, after every upgrade)"
fi
back=''
if [ -n "$previous" ] && [ "$has_data" = 1 ]; then
  back="; the backup taken before the switch is the newest in $root$backup_dir: to go back, campus restore it with $root$release/bin/campus, then ln -sfn $previous $root$opt/current (docs/operating.md, Rolling back)"
fi

say "initialising the database and the system administrator (campus init)"
[ -f "$root$release/apps/server/dist/campus.mjs" ] || fail "this release has no campus command (apps/server/dist/campus.mjs)"
if [ -s "$root$password_file" ]; then
  echo "    kept $root$password_file (it exists): the administrator was set up before"
  CAMPUS_ENV_FILE="$root$env_file" "$root$release/bin/campus" init > /dev/null || fail "campus init failed (its messages are above)$back"
else
  # the password file is root's only before a byte goes into it
  rm -f "$root$password_file"
  (umask 077 && : > "$root$password_file")
  chown root:root "$root$password_file"
  chmod 0600 "$root$password_file"
  CAMPUS_ENV_FILE="$root$env_file" "$root$release/bin/campus" init > "$root$password_file" \
    || { rm -f "$root$password_file"; fail "campus init failed (its messages are above)$back"; }
  if [ -s "$root$password_file" ]; then
    echo "    the one-time administrator password is in $root$password_file (root only): sign in, change it, delete the file"
  else
    rm -f "$root$password_file"
    echo "    the database was initialised before: no new administrator password"
  fi
fi

licence_code=''
if [ -n "$licence" ]; then
  say "installing the licence $licence (campus licence add)"
  # as root the command reads the file and hands it to the service user
  added=$(CAMPUS_ENV_FILE="$root$env_file" "$root$release/bin/campus" licence add "$licence") \
    || fail "the licence was not installed (the reason is above); re-run with the right file, or without --licence and add it later: campus licence add FILE$back"
  printf '%s\n' "$added" | sed 's/^/    /'
  licence_code=$(printf '%s\n' "$added" | sed -n 's/^Licence \([^ ]*\) .*/\1/p')
fi

say "installing the nginx site $root$nginx_site"
# the private keys' folder: the service's root only (docs/operating.md "Files")
mkdir -p "$root$tls_dir"
chmod 0700 "$root$tls_dir"
site_cert=$tls_dir/campus.crt
site_key=$tls_dir/campus.key
if [ -n "$tls_cert" ]; then
  # copies the installation owns (docs/operating.md "TLS"): nginx never reads a file that moves or is renewed elsewhere
  install_copy "$tls_cert" "$root$site_cert" 0644
  install_copy "$tls_key" "$root$site_key" 0600
  echo "    copied the certificate and its key to $root$site_cert and $root$site_key"
  cert_path=$root$site_cert key_path=$root$site_key
elif [ -f "$root$site_cert" ] && [ -f "$root$site_key" ]; then
  echo "    kept the certificate installed before: $root$site_cert (to replace it, re-run with --tls-cert and --tls-key)"
  cert_path=$root$site_cert key_path=$root$site_key
else
  tls_cert=$tls_dir/selfsigned.crt
  tls_key=$tls_dir/selfsigned.key
  if [ ! -f "$root$tls_key" ]; then
    openssl req -x509 -newkey rsa:2048 -nodes -days 825 -subj "/CN=$server_name" \
      -addext "subjectAltName=DNS:$server_name" -keyout "$root$tls_key" -out "$root$tls_cert" 2>/dev/null
    chmod 0600 "$root$tls_key"
  fi
  echo "    !!! No --tls-cert/--tls-key given: using a SELF-SIGNED certificate ($tls_cert)."
  echo "    !!! Browsers will warn. Re-run with --tls-cert and --tls-key for the real one."
  cert_path=$root$tls_cert key_path=$root$tls_key
fi
mkdir -p "$root$(dirname "$nginx_site")" "$root$log_dir"
sed -e "s#@PORT@#$port#g" -e "s#@SERVER_NAME@#$server_name#g" -e "s#@TLS_CERT@#$cert_path#g" \
  -e "s#@TLS_KEY@#$key_path#g" -e "s#@LOG_DIR@#$root$log_dir#g" "$here/deploy/nginx/campus-shell-tls.conf" > "$root$nginx_site"
# the certificate with its chain: OCSP stapling on (the site's "#stapling" lines)
if [ "$(grep -c -- '-----BEGIN CERTIFICATE-----' "$cert_path")" -ge 2 ]; then
  sed -i 's|^\( *\)#stapling |\1|' "$root$nginx_site"
  echo "    OCSP stapling on (the certificate file holds its chain)"
fi
chmod 0644 "$root$nginx_site"

default_site=$root/etc/nginx/sites-enabled/default
if [ -L "$default_site" ] && [ "$keep_default_site" = 0 ]; then
  case $(readlink "$default_site") in
    */sites-available/default)
      rm -f "$default_site"
      echo "    disabled Debian's default nginx site (it answered port 80 for other names and the bare address);"
      echo "    to bring it back: ln -s /etc/nginx/sites-available/default /etc/nginx/sites-enabled/default"
      ;;
  esac
elif [ -e "$default_site" ]; then
  echo "    note: $default_site is enabled and answers port 80 for other names and the bare address (docs/operating.md \"TLS\")"
fi

if [ -z "$root" ]; then
  say "checking nginx's configuration (nginx -t)"
  nginx -t || fail "nginx -t refused the configuration; $nginx_site is installed, fix it and re-run"
else
  echo "    (--root: nginx -t is left to the caller, with $root$nginx_site included in its http block)"
fi

if [ "$systemd" = 1 ]; then
  say "starting the services (systemctl)"
  systemctl daemon-reload
  systemctl enable --now campus-server.service campus-backup.timer
  systemctl restart campus-server.service
else
  step='printing the service command'
  echo "==> --no-systemd: the units are installed but not started. campus-server.service runs, as $user:"
  echo "    CAMPUS_ENV_FILE=$root$env_file $root$opt/current/bin/campus-server"
fi
if [ "$nginx_reload" = 1 ] && [ -z "$root" ]; then
  say "reloading nginx"
  systemctl reload nginx || nginx -s reload || fail "nginx did not reload"
fi
step='done'
echo "Installed campus shell $version. Site: https://$server_name/  Settings: $root$env_file  Data: $root$data_dir"
echo "The command: $root$command_link (campus --help)"
[ -z "$licence_code" ] || echo "Licence: $licence_code in effect."
if [ -s "$root$password_file" ]; then
  if [ -n "$licence_code" ]; then
    echo "First sign-in: https://$server_name/login with the one-time password in $root$password_file; change it there."
  else
    echo "First sign-in: https://$server_name/login with the one-time password in $root$password_file: register the 30-day"
    echo "trial there (or campus licence add FILE), sign in again and change the password (docs/operating.md \"First sign-in\")."
  fi
fi
