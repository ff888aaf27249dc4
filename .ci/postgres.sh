#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests: 127.0.0.1 only, a free port, trust auth.
#
#   .ci/postgres.sh start DIR   # prints the URL to use (postgresql+psycopg://...)
#   .ci/postgres.sh stop DIR    # stops the cluster and removes DIR
#
# Installs Debian's postgresql-15 with apt-get when the binaries are missing
# (as root).  initdb refuses to run as root, so the cluster belongs to the
# "postgres" user when run as root (created if missing).
set -euo pipefail
BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
cmd=${1:?usage: postgres.sh start|stop DIR}
dir=${2:?usage: postgres.sh start|stop DIR}

as_owner() {
    if [ "$(id -u)" = 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

case "$cmd" in
start)
    if [ ! -x "$BIN/initdb" ]; then
        echo "postgres.sh: installing postgresql-15" >&2
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq >&2 && apt-get install -y -qq --no-install-recommends postgresql-15 >&2
    fi
    if [ "$(id -u)" = 0 ] && ! id postgres >/dev/null 2>&1; then
        useradd --system --no-create-home --shell /usr/sbin/nologin postgres
    fi
    mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown postgres "$dir"
    chmod 700 "$dir"
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    as_owner "$BIN/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --no-locale >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; exit 1; }
    # TLS with a certificate of its own (for localhost and 127.0.0.1), so that the tests can try
    # sslmode=require and verify-full (sslrootcert=DIR/data/server.crt); plain connections still work.
    openssl req -new -x509 -days 3650 -nodes -subj "/CN=localhost" \
        -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" \
        -keyout "$dir/data/server.key" -out "$dir/data/server.crt" >/dev/null 2>&1
    chmod 600 "$dir/data/server.key"
    chmod 644 "$dir/data/server.crt"
    [ "$(id -u)" = 0 ] && chown postgres "$dir/data/server.key" "$dir/data/server.crt"
    # In the cluster's own settings, so that a test can stop and start it with plain pg_ctl.
    # fsync stays on: the tests check durability.  The socket lives in DIR, not /var/run.
    printf '%s\n' "listen_addresses = '127.0.0.1'" "port = $port" "unix_socket_directories = '$dir'" \
        "max_connections = 300" "ssl = on" "ssl_cert_file = 'server.crt'" "ssl_key_file = 'server.key'" \
        | as_owner tee -a "$dir/data/postgresql.conf" >/dev/null
    as_owner "$BIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start >&2 \
        || { cat "$dir/server.log" >&2; exit 1; }
    echo "$port" >"$dir/port"
    echo "postgresql+psycopg://postgres@127.0.0.1:$port/postgres"
    ;;
stop)
    if [ -d "$dir/data" ]; then
        as_owner "$BIN/pg_ctl" -D "$dir/data" -m fast -w stop >&2 || true
    fi
    rm -rf "$dir"
    ;;
*)
    echo "usage: postgres.sh start|stop DIR" >&2
    exit 2
    ;;
esac
