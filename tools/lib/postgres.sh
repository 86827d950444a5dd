# A throwaway PostgreSQL cluster for the tests, the demo and the bench: the cloud of several phones.
# Sourced, not run (after common.sh). PostgreSQL refuses to run as root, so as root the cluster
# belongs to and runs as the `postgres` user that Debian's package creates.

HYZER_POSTGRES_PACKAGES=(postgresql)

hyzer_postgres_bin() {
    local bin
    bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)"
    [ -n "$bin" ] && [ -x "$bin/initdb" ] || die "PostgreSQL's initdb is missing; install it: apt-get install postgresql"
    printf '%s\n' "$bin"
}

# Runs a command as the cluster's owner: `postgres` when we are root, else ourselves.
hyzer_as_postgres() {
    if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

hyzer_free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# start_throwaway_postgres: starts a new cluster on a free loopback port and sets
# HYZER_POSTGRES_DIR and HYZER_POSTGRES_URL (the `postgres` superuser with a generated password).
# Every TCP login needs its password (scram-sha-256), as on a real server: a phone's role is its
# identity in the cloud, so no phone may log in as another.
# Neither is exported: a child script that sources this file (tools/demo run by a test) must never
# stop a cluster it did not start. Call stop_throwaway_postgres when done (an EXIT trap is the usual place).
start_throwaway_postgres() {
    local bin port dir
    bin="$(hyzer_postgres_bin)"
    port="$(hyzer_free_port)"
    dir="$(mktemp -d /tmp/hyzer-postgres.XXXXXX)"
    [ "$(id -u)" -eq 0 ] && chown postgres: "$dir"
    local password
    password="$(python3 -c 'import secrets; print(secrets.token_hex(16))')"
    printf '%s\n' "$password" >"$dir/superuser-password"
    [ "$(id -u)" -eq 0 ] && chown postgres: "$dir/superuser-password"
    hyzer_as_postgres "$bin/initdb" -D "$dir/data" -U postgres --pwfile="$dir/superuser-password" \
        --auth-local=trust --auth-host=scram-sha-256 -E UTF8 --locale=C.UTF-8 --no-sync >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; die "initdb failed (log above)"; }
    hyzer_as_postgres "$bin/pg_ctl" -D "$dir/data" -w -t 30 -l "$dir/server.log" \
        -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=200" start >/dev/null \
        || { cat "$dir/server.log" >&2; die "PostgreSQL did not start (log above)"; }
    HYZER_POSTGRES_DIR="$dir"
    HYZER_POSTGRES_URL="postgres://postgres:$password@127.0.0.1:$port/postgres?sslmode=disable"
    hyzer_postgres_started_here="$dir"
    say "PostgreSQL running on 127.0.0.1:$port (cluster in $dir)"
}

stop_throwaway_postgres() {
    # Only the cluster this very shell started.
    [ -n "${hyzer_postgres_started_here:-}" ] && [ "${hyzer_postgres_started_here}" = "${HYZER_POSTGRES_DIR:-}" ] \
        && [ -d "$HYZER_POSTGRES_DIR/data" ] || return 0
    hyzer_as_postgres "$(hyzer_postgres_bin)/pg_ctl" -D "$HYZER_POSTGRES_DIR/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$HYZER_POSTGRES_DIR"
}
