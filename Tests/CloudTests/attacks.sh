#!/usr/bin/env bash
# The security review's attacks (issue 34), replayed as hostile phones against the cloud's schema
# (`hyzer-hub cloud init --print-sql`) on a throwaway PostgreSQL cluster. tools/test runs it;
# alone: HYZER_HUB=.build/debug/hyzer-hub bash Tests/CloudTests/attacks.sh
#
# The cluster: superuser `postgres` over the Unix socket only (peer), every TCP login by password
# (scram-sha-256). Three phones get their own roles (jake_phone organizes, sarah_phone is honest,
# hostile is the attacker); every phone statement goes over TCP with the phone's password.
# Each check prints `ok` or `FAIL`; the script exits 1 if any failed. The cluster is removed at exit.
set -uo pipefail

HUB="${HYZER_HUB:-$(cd "$(dirname "$0")/../.." && pwd)/.build/debug/hyzer-hub}"
[ -x "$HUB" ] || { echo "hyzer-hub is not built at $HUB (set HYZER_HUB)" >&2; exit 2; }
BIN="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)"
[ -x "$BIN/initdb" ] || { echo "PostgreSQL's initdb is missing" >&2; exit 2; }

as_pg() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

PORT="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
DIR="$(mktemp -d /tmp/cloudv2-pg.XXXXXX)"
[ "$(id -u)" -eq 0 ] && chown postgres: "$DIR"
cleanup() {
    as_pg "$BIN/pg_ctl" -D "$DIR/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$DIR"
}
trap cleanup EXIT
SCHEMA="$DIR/schema.sql"
"$HUB" cloud init --print-sql >"$SCHEMA" || { echo "hyzer-hub cloud init --print-sql failed" >&2; exit 2; }
chmod 644 "$SCHEMA"
as_pg "$BIN/initdb" -D "$DIR/data" -U postgres --auth-local=peer --auth-host=scram-sha-256 -E UTF8 --locale=C.UTF-8 --no-sync \
    >"$DIR/initdb.log" 2>&1 || { cat "$DIR/initdb.log" >&2; exit 2; }
as_pg "$BIN/pg_ctl" -D "$DIR/data" -w -t 30 -l "$DIR/server.log" \
    -o "-p $PORT -k $DIR -c listen_addresses=127.0.0.1 -c max_connections=50" start >/dev/null \
    || { cat "$DIR/server.log" >&2; exit 2; }
echo "== PostgreSQL $("$BIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$PORT (TCP: scram-sha-256; socket: peer, superuser)"

# The administrator: superuser over the socket. `owner` plays the owner role (SET ROLE) to show
# that the triggers hold even for the functions' own role.
admin() { as_pg "$BIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$DIR" -p "$PORT" -d hyzer "$@"; }
declare -A PW
# A phone: its own role, over TCP, with its password.
phone() { local role=$1; shift; PGPASSWORD="${PW[$role]}" "$BIN/psql" -X -q -h 127.0.0.1 -p "$PORT" -U "$role" -d hyzer "$@"; }
as() {
    local who=$1; shift
    case "$who" in
        admin) admin "$@" ;;
        owner) local args=() prev=""
               for a in "$@"; do if [ "$prev" = "-c" ]; then args+=("SET ROLE hyzer_owner; $a"); else args+=("$a"); fi; prev=$a; done
               admin "${args[@]}" ;;
        *) phone "$who" "$@" ;;
    esac
}

FAILS=0
ok() { echo "   ok: $*"; }
bad() { echo "   FAIL: $*"; FAILS=$((FAILS + 1)); }
say() { echo; echo "== $*"; }

# refused LABEL SQLSTATE WHO SQL: WHO runs SQL; it must fail with SQLSTATE. Prints the server's words.
refused() {
    local label=$1 want=$2 who=$3 sql=$4 out state message
    out="$(as "$who" -c "$sql" -v VERBOSITY=verbose 2>&1)"
    state="$(sed -n 's/^ERROR:  \([0-9A-Z]\{5\}\): .*/\1/p' <<<"$out" | head -1)"
    message="$(sed -n 's/^ERROR:  [0-9A-Z]\{5\}: //p' <<<"$out" | head -1)"
    if [ "$state" = "$want" ]; then ok "$label -> refused [$state] $message"; else bad "$label: wanted $want, got [${state:-no error}] $out"; fi
}
# allowed LABEL WHO SQL PATTERN: WHO runs SQL; it must succeed and print a line matching PATTERN.
allowed() {
    local label=$1 who=$2 sql=$3 pattern=$4 out
    if out="$(as "$who" -At -F ' | ' -v ON_ERROR_STOP=1 -c "$sql" 2>&1)" && grep -Eq -- "$pattern" <<<"$out"; then
        ok "$label"; sed 's/^/        /' <<<"$out"
    else
        bad "$label: $out"
    fi
}
value() { local who=$1 sql=$2; as "$who" -At -v ON_ERROR_STOP=1 -c "$sql"; }

# upload ROUND SPEC...: the call a phone makes; SPEC is id|player|hole|strokes|supersedes|reporter|device|source.
upload() {
    local round=$1; shift
    local ids=() players=() holes=() strokes=() sup=() reps=() devs=() srcs=() created=() spec id pl ho st su re de so
    for spec in "$@"; do
        IFS='|' read -r id pl ho st su re de so <<<"$spec"
        ids+=("'$id'"); players+=("'$pl'"); holes+=("$ho"); strokes+=("$st")
        if [ -n "$su" ]; then sup+=("'$su'"); else sup+=("NULL"); fi
        reps+=("'$re'"); devs+=("'$de'"); srcs+=("'$so'"); created+=("'2025-06-01T10:00:00.000Z'")
    done
    local IFS=,
    echo "SELECT event_id, round_seq, refusal_code, refusal FROM hyzer.upload_events('$round', ARRAY[${ids[*]}]::uuid[], ARRAY[${players[*]}]::text[],
          ARRAY[${holes[*]}]::int[], ARRAY[${strokes[*]}]::int[], ARRAY[${sup[*]}]::uuid[], ARRAY[${reps[*]}]::text[],
          ARRAY[${devs[*]}]::text[], ARRAY[${srcs[*]}]::text[], ARRAY[${created[*]}]::text[])"
}
ev() { printf 'e0000000-0000-4000-8000-%012d' "$1"; }

R=a0000000-0000-4000-8000-000000000001      # Jake's round: Jake and Sarah at Maple Hill
R5=a0000000-0000-4000-8000-000000000005     # another round of Jake's
RH=b0000000-0000-4000-8000-000000000001     # the hostile phone's own round
JAKE=0A0A0A0A-0000-4000-8000-00000000000A
SARAH=0B0B0B0B-0000-4000-8000-00000000000B
share_jake="SELECT hyzer.share_round('$R', 'Maple Hill', '{3,4,3}', 'Jake', false, '2025-06-01T09:59:00.000Z', ARRAY['$JAKE','$SARAH'], ARRAY['Jake','Sarah'])"

# ------------------------------------------------------------------------------------------------
say "13. schema creation is race-free: two runs of schema.sql at once on a new database, then a third"
as_pg "$BIN/psql" -X -q -h "$DIR" -p "$PORT" -d postgres -c "CREATE DATABASE hyzer"
admin -f "$SCHEMA" >"$DIR/run1.log" 2>&1 & p1=$!
admin -f "$SCHEMA" >"$DIR/run2.log" 2>&1 & p2=$!
wait $p1; s1=$?; wait $p2; s2=$?
admin -f "$SCHEMA" >"$DIR/run3.log" 2>&1; s3=$?
if [ $s1 -eq 0 ] && [ $s2 -eq 0 ] && [ $s3 -eq 0 ]; then ok "three runs, two at once: all succeeded"; else bad "runs exited $s1 $s2 $s3: $(cat "$DIR"/run*.log)"; fi

say "phones: one role each (hyzer_admin.add_phone, run by the administrator)"
for p in jake_phone sarah_phone hostile; do PW[$p]="$(value admin "SELECT hyzer_admin.add_phone('$p')")"; done
admin -c "SELECT r.rolname AS role, r.rolcanlogin AS login, r.rolsuper AS super, r.rolcreaterole AS createrole, r.rolconnlimit AS conns,
          (SELECT string_agg(g.rolname, ',') FROM pg_auth_members m JOIN pg_roles g ON g.oid = m.roleid WHERE m.member = r.oid) AS member_of
          FROM pg_roles r WHERE r.rolname IN ('hyzer_owner','hyzer_phone','jake_phone','sarah_phone','hostile') ORDER BY 1"
out="$(PGPASSWORD=wrong "$BIN/psql" -X -h 127.0.0.1 -p "$PORT" -U hostile -d hyzer -c 'SELECT 1' 2>&1)"
grep -q 'password authentication failed' <<<"$out" && ok "a wrong password is refused over TCP" || bad "wrong password: $out"
out="$(PGPASSWORD=x "$BIN/psql" -X -h 127.0.0.1 -p "$PORT" -U postgres -d hyzer -c 'SELECT 1' 2>&1)"
grep -q 'password authentication failed' <<<"$out" && ok "the superuser has no password: no TCP login at all" || bad "superuser over TCP: $out"
refused "hostile calls hyzer_admin.add_phone" 42501 hostile "SELECT hyzer_admin.add_phone('eve')"

# ------------------------------------------------------------------------------------------------
say "honest play: Jake's phone shares the round, both phones upload"
allowed "jake_phone shares round R (organizer = its role)" jake_phone "$share_jake" '^shared$'
allowed "sharing the same round again is a no-op" jake_phone "$share_jake" '^already shared$'
allowed "jake_phone uploads Jake 3 and Sarah 3 on hole 1" jake_phone "$(upload $R "$(ev 1)|$JAKE|1|3||$JAKE|phone-jake|tap" "$(ev 2)|$SARAH|1|3||$JAKE|phone-jake|tap")" \
    "^$(ev 2) \| 2 \|"
allowed "sarah_phone uploads Sarah 4 on hole 1 (a discrepancy)" sarah_phone "$(upload $R "$(ev 3)|$SARAH|1|4||$SARAH|phone-sarah|tap")" "^$(ev 3) \| 3 \|"
allowed "jake_phone killed after the commit sends both again: the same numbers, nothing written" jake_phone \
    "$(upload $R "$(ev 1)|$JAKE|1|3||$JAKE|phone-jake|tap" "$(ev 2)|$SARAH|1|3||$JAKE|phone-jake|tap")" "^$(ev 1) \| 1 \| +\| *$"
[ "$(value sarah_phone "SELECT last_seq FROM hyzer.round_info('$R')")" = 3 ] && ok "last_seq is still 3" || bad "last_seq moved"
allowed "a resend whose created_at was written at another precision is the same score" sarah_phone \
    "$(upload $R "$(ev 3)|$SARAH|1|4||$SARAH|phone-sarah|tap" | sed "s/2025-06-01T10:00:00.000Z/2025-06-01T10:00:00Z/")" "^$(ev 3) \| 3 \|"
refused "upload_events in a REPEATABLE READ transaction (its snapshot could miss the last upload)" 25000 sarah_phone \
    "BEGIN ISOLATION LEVEL REPEATABLE READ; $(upload $R "$(ev 4)|$SARAH|2|3||$SARAH|phone-sarah|tap")"
allowed "a batch with one bad row: the good rows are numbered without a gap, the bad one comes back refused" sarah_phone \
    "$(upload $R "$(ev 4)|$SARAH|2|3||$SARAH|phone-sarah|tap" "$(ev 5)|$SARAH|99|3||$SARAH|phone-sarah|tap" "$(ev 6)|$JAKE|2|4||$SARAH|phone-sarah|tap")" \
    "^$(ev 5) \| +\| HZ022 \|"

# ------------------------------------------------------------------------------------------------
say "1. a row with round_seq = 9e18 (every phone's cursor would jump past honest uploads)"
refused "INSERT INTO hyzer.score_event ... round_seq 9e18" 42501 hostile \
    "INSERT INTO hyzer.score_event (id, round_id, round_seq, player_id, hole, strokes, reported_by, device_id, source, created_at, uploaded_by, uploaded_at)
     VALUES ('$(ev 90)', '$R', 9000000000000000000, '$JAKE', 1, 3, '$JAKE', 'x', 'tap', '2025-06-01T10:00:00.000Z', 'hostile', now())"
refused "UPDATE hyzer.score_event SET round_seq = 9e18" 42501 hostile "UPDATE hyzer.score_event SET round_seq = 9000000000000000000"
refused "upload_events has no round_seq to pass" 42883 hostile "SELECT * FROM hyzer.upload_events(round_id => '$R', round_seq => 9000000000000000000)"
refused "even the owner role cannot renumber an event" 23001 owner "UPDATE hyzer.score_event SET round_seq = 9000000000000000000 WHERE id = '$(ev 6)'"
refused "even the owner role's own INSERT with round_seq 9e18 is refused: numbers continue the round's" 23001 owner \
    "INSERT INTO hyzer.score_event (id, round_id, round_seq, player_id, hole, strokes, reported_by, device_id, source, created_at)
     VALUES ('$(ev 91)', '$R', 9000000000000000000, '$JAKE', 3, 3, '$JAKE', 'owner-test', 'tap', '2025-06-01T10:00:00.000Z')"
refused "even the owner role's own INSERT at the next number but as another uploader is refused" 23001 owner \
    "INSERT INTO hyzer.score_event (id, round_id, round_seq, player_id, hole, strokes, reported_by, device_id, source, created_at, uploaded_by)
     VALUES ('$(ev 91)', '$R', 6, '$JAKE', 3, 3, '$JAKE', 'owner-test', 'tap', '2025-06-01T10:00:00.000Z', 'jake_phone')"
allowed "the owner role's own INSERT at the next number is taken, recorded as its session's (rolled back here)" owner \
    "BEGIN; INSERT INTO hyzer.score_event (id, round_id, round_seq, player_id, hole, strokes, reported_by, device_id, source, created_at)
     VALUES ('$(ev 91)', '$R', 6, '$JAKE', 3, 3, '$JAKE', 'owner-test', 'tap', '2025-06-01T10:00:00.000Z') RETURNING round_seq, uploaded_by; ROLLBACK" '^6 \| postgres$'

say "2. five rows at last_seq+1..+5 (every honest upload would hit a unique violation)"
refused "INSERT five rows numbered 6..10" 42501 hostile \
    "INSERT INTO hyzer.score_event (id, round_id, round_seq, player_id, hole, strokes, reported_by, device_id, source, created_at, uploaded_by, uploaded_at)
     SELECT gen_random_uuid(), '$R', s, '$JAKE', 1, 3, '$JAKE', 'x', 'tap', '2025-06-01T10:00:00.000Z', 'hostile', now() FROM generate_series(6, 10) s"
allowed "through the API the hostile phone may add valid scores, numbered by the server, recorded as its own" hostile \
    "$(upload $R "$(ev 11)|$JAKE|2|2||$JAKE|phone-hostile|tap" "$(ev 12)|$JAKE|3|2||$JAKE|phone-hostile|tap" "$(ev 13)|$SARAH|2|9||$JAKE|phone-hostile|tap" \
                 "$(ev 14)|$SARAH|3|9||$JAKE|phone-hostile|tap" "$(ev 15)|$JAKE|1|1||$JAKE|phone-hostile|tap")" "^$(ev 15) \| 10 \|"
allowed "sarah_phone's next upload just gets 11: no unique violation" sarah_phone "$(upload $R "$(ev 16)|$SARAH|3|3||$SARAH|phone-sarah|tap")" "^$(ev 16) \| 11 \|"

say "3. a resolution passed off as the organizer's"
refused "INSERT a resolution with uploaded_by = 'jake_phone'" 42501 hostile \
    "INSERT INTO hyzer.score_event (id, round_id, round_seq, player_id, hole, strokes, reported_by, device_id, source, created_at, uploaded_by, uploaded_at)
     VALUES ('$(ev 92)', '$R', 12, '$SARAH', 1, 9, '$JAKE', 'phone-jake', 'resolution', '2025-06-01T10:00:00.000Z', 'jake_phone', now())"
allowed "upload_events: a resolution from the hostile phone is refused (uploaded_by is session_user)" hostile \
    "$(upload $R "$(ev 17)|$SARAH|1|9|$(ev 3)|$JAKE|phone-jake|resolution")" "HZ025"
# A "correction" under Jake's device id is a valid upload: every phone stores it as
# phone-jake@hostile, another device, so it disputes Jake's score and cannot withdraw it
# (HostileCloudTests shows it with real phones).
allowed "the events record who really uploaded them" sarah_phone \
    "SELECT round_seq, uploaded_by, device_id FROM hyzer.events_after('$R', 7, 3)" '^8 \| hostile \| phone-hostile$'

say "4. a hostile round with a control or bidi character in a player name, naming another phone's owner"
refused "player name with a BEL" HZ102 hostile \
    "SELECT hyzer.share_round('$RH', 'Maple Hill', '{3}', 'Jake', true, '2025-06-01T09:59:00.000Z', ARRAY['$JAKE','guest:x'], ARRAY['Jake', E'Sar\\x07ah'])"
refused "player name with U+202E (right-to-left override)" HZ102 hostile \
    "SELECT hyzer.share_round('$RH', 'Maple Hill', '{3}', 'Jake', true, '2025-06-01T09:59:00.000Z', ARRAY['$JAKE','guest:x'], ARRAY['Jake', U&'Sa\\202Erah'])"
refused "player name with U+200B (zero width space)" HZ102 hostile \
    "SELECT hyzer.share_round('$RH', 'Maple Hill', '{3}', 'Jake', true, '2025-06-01T09:59:00.000Z', ARRAY['$JAKE','guest:x'], ARRAY[U&'Ja\\200Bke', 'x'])"
refused "course name with U+2066 (bidi isolate)" HZ102 hostile \
    "SELECT hyzer.share_round('$RH', U&'Maple\\2066 Hill', '{3}', 'Jake', true, '2025-06-01T09:59:00.000Z', ARRAY['$JAKE'], ARRAY['Jake'])"
allowed "a clean round naming Jake is accepted: discovery shows who organizes each round (the phone decides)" hostile \
    "SELECT hyzer.share_round('$RH', 'Maple Hill', '{3,3,3}', 'Jake', true, '2025-06-01T09:59:00.000Z', ARRAY['$JAKE','guest:Mallory'], ARRAY['Jake','Mallory']);
     SELECT round_id, organizer FROM hyzer.active_rounds(player_name => 'jake')" "^$RH \| hostile$"

say "5. players added later, tables and triggers under the phone's control"
refused "INSERT INTO hyzer.round_player (a late player)" 42501 hostile "INSERT INTO hyzer.round_player VALUES ('$R', 'guest:Eve', 'Eve', 2)"
refused "share_round of round R again with a third player" HZ101 hostile \
    "SELECT hyzer.share_round('$R', 'Maple Hill', '{3,4,3}', 'Jake', false, '2025-06-01T09:59:00.000Z', ARRAY['$JAKE','$SARAH','guest:Eve'], ARRAY['Jake','Sarah','Eve'])"
refused "the organizer itself cannot change its round (other course)" HZ101 jake_phone \
    "SELECT hyzer.share_round('$R', 'Other Course', '{3,4,3}', 'Jake', false, '2025-06-01T09:59:00.000Z', ARRAY['$JAKE','$SARAH'], ARRAY['Jake','Sarah'])"
refused "ALTER TABLE hyzer.score_event DISABLE TRIGGER ALL" 42501 hostile "ALTER TABLE hyzer.score_event DISABLE TRIGGER ALL"
refused "DROP TRIGGER score_event_append_only" 42501 hostile "DROP TRIGGER score_event_append_only ON hyzer.score_event"
refused "UPDATE hyzer.round SET course_name" 42501 hostile "UPDATE hyzer.round SET course_name = 'Other' WHERE id = '$R'"
refused "UPDATE hyzer.score_event SET strokes (rewriting scores)" 42501 hostile "UPDATE hyzer.score_event SET strokes = 1"
refused "DELETE FROM hyzer.score_event" 42501 hostile "DELETE FROM hyzer.score_event"
refused "SELECT * FROM hyzer.round (no table privileges; reads go through the functions)" 42501 hostile "SELECT * FROM hyzer.round"
refused "LOCK TABLE hyzer.round" 42501 hostile "BEGIN; LOCK TABLE hyzer.round IN ACCESS SHARE MODE"
refused "SET ROLE hyzer_owner" 42501 hostile "SET ROLE hyzer_owner"
refused "CREATE FUNCTION in schema hyzer" 42501 hostile "CREATE FUNCTION hyzer.x() RETURNS int LANGUAGE sql RETURN 1"
refused "CREATE TABLE in schema public" 42501 hostile "CREATE TABLE public.x (i int)"
refused "CREATE TEMP TABLE (to shadow a table in a definer function)" 42501 hostile "CREATE TEMP TABLE round (id uuid)"
refused "calling an internal function (hyzer.is_clean)" 42501 hostile "SELECT hyzer.is_clean('x', 1)"
refused "pg_advisory_lock(7466577) (would block cloud init)" 42501 hostile "SELECT pg_advisory_lock(7466577)"
refused "lo_from_bytea (large objects fill the disk)" 42501 hostile "SELECT lo_from_bytea(0, 'x')"
refused "even the owner role cannot add a late player" 23001 owner "INSERT INTO hyzer.round_player VALUES ('$R', 'guest:Eve', 'Eve', 2)"
refused "even the owner role cannot change the course" 23001 owner "UPDATE hyzer.round SET course_name = 'Other' WHERE id = '$R'"
refused "even the owner role cannot rewrite a score" 23001 owner "UPDATE hyzer.score_event SET strokes = 1 WHERE id = '$(ev 1)'"

say "6. a player name of 3,000 letters"
refused "share_round with a 3,000-letter name" HZ102 hostile \
    "SELECT hyzer.share_round('b0000000-0000-4000-8000-000000000006', 'Maple Hill', '{3}', 'Jake', true, '2025-06-01T09:59:00.000Z', ARRAY['$JAKE','guest:long'], ARRAY['Jake', repeat('a', 3000)])"
refused "a 65-letter name is refused too" HZ102 hostile \
    "SELECT hyzer.share_round('b0000000-0000-4000-8000-000000000006', 'Maple Hill', '{3}', 'Jake', true, '2025-06-01T09:59:00.000Z', ARRAY['$JAKE'], ARRAY[repeat('a', 65)])"
allowed "a 64-letter name is fine" jake_phone \
    "SELECT hyzer.share_round('$R5', 'Maple Hill', '{3}', 'Jake', false, '2025-06-01T09:59:00.000Z', ARRAY['$JAKE','guest:long'], ARRAY['Jake', repeat('a', 64)])" '^shared$'

say "7. an id the cloud holds under another round; the same id with other content"
allowed "the hostile phone sends Jake's score $(ev 1) in its own round" hostile \
    "$(upload $RH "$(ev 1)|$JAKE|1|3||$JAKE|phone-hostile|tap")" "HZ010"
allowed "the hostile phone sends Sarah's score $(ev 3) with other strokes" hostile \
    "$(upload $R "$(ev 3)|$SARAH|1|1||$SARAH|phone-sarah|tap")" "HZ011"
allowed "sarah_phone sends $(ev 3) again as it is: its number, 3" sarah_phone "$(upload $R "$(ev 3)|$SARAH|1|4||$SARAH|phone-sarah|tap")" "^$(ev 3) \| 3 \| +\| *$"
allowed "sarah_phone sends $(ev 3) with other strokes: refused, named" sarah_phone "$(upload $R "$(ev 3)|$SARAH|1|5||$SARAH|phone-sarah|tap")" "HZ011"

say "9. fields no phone could read, or of any length (a hostile review of the set-based upload)"
allowed "a time with the right shape but no such day (2025-02-30) is refused, not numbered" hostile \
    "$(upload $R "$(ev 93)|$JAKE|2|3||$JAKE|phone-hostile|tap" | sed "s/2025-06-01T10:00:00.000Z/2025-02-30T10:00:00Z/")" "HZ026"
refused "2,000 events whose player ids are 2,000 bytes each: refused whole before the round's lock" 22023 hostile \
    "SELECT count(*) FROM hyzer.upload_events('$R', ARRAY(SELECT gen_random_uuid() FROM generate_series(1, 2000)),
        array_fill(repeat('x', 2000), ARRAY[2000]), array_fill(1, ARRAY[2000]), array_fill(3, ARRAY[2000]), array_fill(NULL::uuid, ARRAY[2000]),
        array_fill('$JAKE'::text, ARRAY[2000]), array_fill('d'::text, ARRAY[2000]), array_fill('tap'::text, ARRAY[2000]),
        array_fill('2025-06-01T10:00:00Z'::text, ARRAY[2000]))"
refused "no ids but a player, a hole and the rest of one event: a malformed call, not an empty upload" 22023 hostile \
    "SELECT count(*) FROM hyzer.upload_events('$R', ARRAY[]::uuid[], ARRAY['$JAKE'], ARRAY[1], ARRAY[3], ARRAY[NULL]::uuid[],
        ARRAY['$JAKE'], ARRAY['d'], ARRAY['tap'], ARRAY['2025-06-01T10:00:00Z'])"
refused "null ids with one event's other fields: the same" 22023 hostile \
    "SELECT count(*) FROM hyzer.upload_events('$R', NULL, ARRAY['$JAKE'], ARRAY[1], ARRAY[3], ARRAY[NULL]::uuid[],
        ARRAY['$JAKE'], ARRAY['d'], ARRAY['tap'], ARRAY['2025-06-01T10:00:00Z'])"
allowed "an upload of no events at all answers nothing" hostile \
    "SELECT count(*) FROM hyzer.upload_events('$R', ARRAY[]::uuid[], ARRAY[]::text[], ARRAY[]::integer[], ARRAY[]::integer[], ARRAY[]::uuid[],
        ARRAY[]::text[], ARRAY[]::text[], ARRAY[]::text[], ARRAY[]::text[])" "^0$"

say "completing rounds"
refused "the hostile phone completes Jake's round R5, where it never scored" HZ104 hostile "SELECT hyzer.complete_round('$R5')"
refused "the hostile phone completes Jake's round R, where it scored: only the organizer ends a round" HZ104 hostile "SELECT hyzer.complete_round('$R')"

say "8. NOTIFY: any role may notify any channel (PostgreSQL has no privilege for it)"
hostile_notify="PGPASSWORD='${PW[hostile]}' $BIN/psql -X -q -h 127.0.0.1 -p $PORT -U hostile -d hyzer -c \"NOTIFY hyzer_events, 'not-a-round'\" -c \"SELECT pg_notify('hyzer_events', '$R:999999')\" >/dev/null"
jake_upload="PGPASSWORD='${PW[jake_phone]}' $BIN/psql -X -q -h 127.0.0.1 -p $PORT -U jake_phone -d hyzer -At -c \"$(upload $R "$(ev 19)|$SARAH|1|4|$(ev 2)|$JAKE|phone-jake|resolution" | tr '\n' ' ')\" >/dev/null"
out="$(phone sarah_phone -At <<EOF 2>&1
LISTEN hyzer_events;
\! $hostile_notify
SELECT 'after the hostile NOTIFY';
\! $jake_upload
SELECT 'after the organizer''s resolution';
EOF
)"
sed 's/^/        /' <<<"$out"
grep -q 'payload "not-a-round"' <<<"$out" && ok "a hostile payload reaches listeners (the phone ignores what is not a round it holds past its cursor)" || bad "notify: $out"
grep -q "payload \"$R:12\"" <<<"$out" && ok "the organizer's resolution was numbered 12 and notified once as round:last_seq" || bad "resolution notify: $out"

# ------------------------------------------------------------------------------------------------
say "a phone holding its transaction open holds the round's lock (not preventable in SQL; the reaper ends it)"
phone hostile -At >"$DIR/hold.log" 2>&1 <<EOF &
SET statement_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
BEGIN;
$(upload $R "$(ev 20)|$JAKE|3|3||$JAKE|phone-hostile|tap");
SELECT pg_sleep(60);
COMMIT;
EOF
holder=$!
sleep 1
refused "sarah_phone's upload waits 5 s for the round, then gives up (temporary: retried)" 55P03 sarah_phone "$(upload $R "$(ev 21)|$SARAH|3|3||$SARAH|phone-sarah|tap")"
allowed "the administrator's reaper ends the phone's session" admin "SELECT phone, transaction_age > interval '5 seconds' FROM hyzer_admin.reap_stuck_phones('3 seconds')" '^hostile \| t$'
wait $holder 2>/dev/null
allowed "sarah_phone's retry gets 13: the hostile's uncommitted 13 is gone, no gap" sarah_phone "$(upload $R "$(ev 21)|$SARAH|3|3||$SARAH|phone-sarah|tap")" "^$(ev 21) \| 13 \|"

# ------------------------------------------------------------------------------------------------
say "order under load: two phones upload at once while a third reads with a cursor"
jobs_sql() {  # phone device first-event-number
    local i n
    for i in $(seq 0 14); do n=$(($3 + 2 * i)); echo "$(upload $R "$(ev $n)|$JAKE|1|3||$JAKE|$2|tap" "$(ev $((n + 1)))|$SARAH|1|3||$SARAH|$2|tap") ;"; done
}
jobs_sql jake_phone phone-jake 100 | phone jake_phone -At >"$DIR/load1.log" 2>&1 & l1=$!
jobs_sql sarah_phone phone-sarah 200 | phone sarah_phone -At >"$DIR/load2.log" 2>&1 & l2=$!
cursor=13; reads=0; broken=""
while [ "$cursor" -lt 73 ] && [ "$reads" -lt 2000 ]; do
    reads=$((reads + 1))
    for seq in $(value hostile "SELECT round_seq FROM hyzer.events_after('$R', $cursor, 7)"); do
        [ "$seq" -eq $((cursor + 1)) ] || broken="$broken after $cursor came $seq;"
        cursor=$seq
    done
done
wait $l1 $l2
[ -z "$broken" ] && [ "$cursor" -eq 73 ] && ok "60 events from two phones at once; a reader's batches ($reads reads) always began at cursor+1, no gap, reached 73" \
    || bad "reader: cursor $cursor, $broken $(cat "$DIR"/load*.log)"

say "the end state"
allowed "round_seq is 1..last_seq with no gap and no duplicate, ids unique" admin \
    "SELECT count(*) AS events, min(round_seq), max(round_seq), (SELECT last_seq FROM hyzer.round_info('$R')) AS last_seq, count(DISTINCT id) AS ids
     FROM hyzer.score_event WHERE round_id = '$R'" '^73 \| 1 \| 73 \| 73 \| 73$'
allowed "who uploaded what (server-recorded)" admin \
    "SELECT uploaded_by, count(*), string_agg(DISTINCT source, ',') FROM hyzer.score_event WHERE round_id = '$R' GROUP BY 1 ORDER BY 1" '^hostile \| 5 \| tap$'
allowed "jake_phone completes round R; again is a no-op" jake_phone "SELECT hyzer.complete_round('$R'); SELECT hyzer.complete_round('$R')" '^f$'
allowed "round_info as every phone reads it" hostile "SELECT id, course_name, pars, organizer, status, last_seq, completed_by, player_names FROM hyzer.round_info('$R')" 'completed'
allowed "the administrator disables the hostile phone" admin "SELECT hyzer_admin.disable_phone('hostile')" '^0$'
out="$(phone hostile -c 'SELECT 1' 2>&1)"
grep -q 'not permitted to log in' <<<"$out" && ok "its login is refused: $(head -1 <<<"$out")" || bad "disabled phone: $out"

echo
if [ "$FAILS" -eq 0 ]; then echo "== all checks passed"; else echo "== $FAILS check(s) FAILED"; exit 1; fi
