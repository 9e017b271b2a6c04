#!/bin/sh
# Starts the Debian PostgreSQL cluster (idempotently), makes sure the test role
# and database `clawbridge_test` exist, and prints the DSN export line for the
# db_query tests:   eval "$(scripts/start-postgres.sh)"
# Runs as root on Debian (postgresql installed). Diagnostics go to stderr so
# that stdout carries only the export line.
set -eu

PASS="${CLAWBRIDGE_TEST_PG_PASSWORD:-cb_test_pw_5f3a9}"
PORT=5432

ver=$(ls /usr/lib/postgresql 2>/dev/null | sort -n | tail -1)
if [ -z "$ver" ]; then
	echo "start-postgres: PostgreSQL is not installed (apt-get install postgresql)" >&2
	exit 1
fi

if command -v pg_lsclusters >/dev/null 2>&1; then
	if ! pg_lsclusters -h | awk '{print $1" "$2}' | grep -q "^$ver main$"; then
		pg_createcluster "$ver" main >&2
	fi
	PORT=$(pg_lsclusters -h | awk -v v="$ver" '$1==v && $2=="main" {print $3}')
	if ! pg_lsclusters -h | awk -v v="$ver" '$1==v && $2=="main" {print $4}' | grep -q online; then
		pg_ctlcluster "$ver" main start >&2 || service postgresql start >&2
	fi
else
	service postgresql start >&2
fi

# Wait until the server accepts connections.
i=0
until su postgres -c "psql -p $PORT -qAtc 'select 1'" >/dev/null 2>&1; do
	i=$((i + 1))
	if [ "$i" -gt 60 ]; then
		echo "start-postgres: server did not come up on port $PORT" >&2
		exit 1
	fi
	sleep 0.5
done

psql_su() { su postgres -c "psql -p $PORT -v ON_ERROR_STOP=1 -qAt" >&2; }

if [ "$(su postgres -c "psql -p $PORT -qAtc \"select 1 from pg_roles where rolname='clawbridge_test'\"")" != "1" ]; then
	echo "CREATE ROLE clawbridge_test LOGIN PASSWORD '$PASS';" | psql_su
else
	echo "ALTER ROLE clawbridge_test LOGIN PASSWORD '$PASS';" | psql_su
fi
if [ "$(su postgres -c "psql -p $PORT -qAtc \"select 1 from pg_database where datname='clawbridge_test'\"")" != "1" ]; then
	echo "CREATE DATABASE clawbridge_test OWNER clawbridge_test;" | psql_su
fi

echo "export CLAWBRIDGE_TEST_PG_DSN=postgres://clawbridge_test:$PASS@127.0.0.1:$PORT/clawbridge_test?sslmode=disable"
