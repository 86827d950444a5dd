import Foundation

/// The cloud's schema (docs/SYNC.md, "A cloud that trusts no phone"): run once by an administrator
/// with `hyzer-hub cloud init ADMIN-URL`, never by a phone. Phones log in as roles of their own
/// (`hyzer_admin.add_phone`) that may only call the functions of schema `hyzer`; the server numbers
/// every event and records who uploaded it. Running it again replaces the functions and keeps the data.
public enum CloudSchema {
    /// What `hyzer.api_version()` answers for this schema; a phone refuses any other.
    static let apiVersion = 2
    static let channel = "hyzer_events"

    public static let sql = #"""
-- Hyzer cloud, schema v2: phones that do not trust each other.
--
-- Run once by an administrator (a superuser) on a database of its own (`hyzer-hub cloud init ADMIN-URL`; `--print-sql` prints this);
-- running it again is harmless (it replaces the functions and keeps the data). Everything happens in
-- one transaction under one advisory lock, roles and functions included, so two runs at once take turns.
--
--   hyzer_owner  NOLOGIN: owns the schema `hyzer`, its tables and its SECURITY DEFINER functions.
--   hyzer_phone  NOLOGIN group: EXECUTE on the phone API below, nothing else. Each phone logs in as
--                its own role, a member of hyzer_phone (hyzer_admin.add_phone), and that role,
--                `session_user`, is who the cloud says uploaded a row or organizes a round.
--
-- Phones have no table privileges at all (no INSERT/UPDATE/DELETE/SELECT, no ownership, so no ALTER
-- TABLE or DISABLE TRIGGER), no TEMP, no CREATE anywhere. The server hands out every number: a
-- round's row is locked by every upload and `round_seq` is made in one place (upload_events; the
-- insert trigger holds that every insert continues the round's numbers with no gap).
--
-- Statements end with `;` at the end of a line and function bodies are between `$$` lines, so the
-- app can run the file statement by statement (CloudSchema.statements) or in one simple query.

BEGIN;
SELECT pg_advisory_xact_lock(7466577);

DO $$
BEGIN
    IF current_setting('server_encoding') <> 'UTF8' THEN
        RAISE EXCEPTION 'the Hyzer cloud needs a UTF8 database; this one is %', current_setting('server_encoding');
    END IF;
    -- Roles belong to the cluster, not the database: `cloud init` on two databases at once may
    -- both find one missing, and the second CREATE then fails; that one is made already.
    BEGIN
        IF NOT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = 'hyzer_owner') THEN
            CREATE ROLE hyzer_owner NOLOGIN NOINHERIT;
        END IF;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
    END;
    BEGIN
        IF NOT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = 'hyzer_phone') THEN
            CREATE ROLE hyzer_phone NOLOGIN;
        END IF;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
    END;
    -- A database of its own: only phones connect, nobody makes temporary tables.
    EXECUTE format('REVOKE ALL ON DATABASE %I FROM PUBLIC', current_database());
    EXECUTE format('GRANT CONNECT ON DATABASE %I TO hyzer_phone', current_database());
END $$;

REVOKE CREATE ON SCHEMA public FROM PUBLIC;
-- Nothing a phone needs, and each is a lever: large objects fill the disk; an advisory lock held
-- by a phone would block `cloud init`. (NOTIFY and LISTEN cannot be revoked: see NOTES.md.)
REVOKE EXECUTE ON FUNCTION pg_catalog.lo_create(oid), pg_catalog.lo_creat(integer), pg_catalog.lo_from_bytea(oid, bytea),
    pg_catalog.lo_put(oid, bigint, bytea), pg_catalog.lo_import(text), pg_catalog.lo_import(text, oid) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION pg_catalog.pg_advisory_lock(bigint), pg_catalog.pg_advisory_lock(integer, integer),
    pg_catalog.pg_advisory_lock_shared(bigint), pg_catalog.pg_advisory_lock_shared(integer, integer),
    pg_catalog.pg_try_advisory_lock(bigint), pg_catalog.pg_try_advisory_lock(integer, integer),
    pg_catalog.pg_try_advisory_lock_shared(bigint), pg_catalog.pg_try_advisory_lock_shared(integer, integer),
    pg_catalog.pg_advisory_xact_lock(bigint), pg_catalog.pg_advisory_xact_lock(integer, integer),
    pg_catalog.pg_advisory_xact_lock_shared(bigint), pg_catalog.pg_advisory_xact_lock_shared(integer, integer),
    pg_catalog.pg_try_advisory_xact_lock(bigint), pg_catalog.pg_try_advisory_xact_lock(integer, integer),
    pg_catalog.pg_try_advisory_xact_lock_shared(bigint), pg_catalog.pg_try_advisory_xact_lock_shared(integer, integer) FROM PUBLIC;

CREATE SCHEMA IF NOT EXISTS hyzer AUTHORIZATION hyzer_owner;
REVOKE ALL ON SCHEMA hyzer FROM PUBLIC;
GRANT USAGE ON SCHEMA hyzer TO hyzer_phone;
ALTER DEFAULT PRIVILEGES FOR ROLE hyzer_owner REVOKE EXECUTE ON FUNCTIONS FROM PUBLIC;

-- From here on, objects are made by (so owned by) hyzer_owner.
SET LOCAL ROLE hyzer_owner;

CREATE TABLE IF NOT EXISTS hyzer.migration (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now());

-- A name or id a person reads: 1..max_chars characters, not blank, and none of Unicode's Cc
-- (controls), Cf (format: bidi overrides, zero-width, soft hyphen, tags, ...), Zl/Zp (line and
-- paragraph separators) nor the Hangul fillers that draw as nothing. The list is spelled out (not
-- the platform's Unicode tables) so that every phone can apply exactly the same rule.
-- (This and is_timestamp are not STRICT, though null gives null all the same: PostgreSQL then
-- writes their expression into the queries and checks that use them, instead of running a
-- function that is set up anew for every statement.)
CREATE OR REPLACE FUNCTION hyzer.is_clean(value text, max_chars integer) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN char_length(value) BETWEEN 1 AND max_chars
        AND value !~ '[\u0001-\u001F\u007F-\u009F\u00AD\u0600-\u0605\u061C\u06DD\u070F\u0890-\u0891\u08E2\u115F\u1160\u180E\u200B-\u200F\u2028-\u202E\u2060-\u2064\u2066-\u206F\u3164\uFEFF\uFFA0\uFFF9-\uFFFB\U000110BD\U000110CD\U00013430-\U0001343F\U0001BCA0-\U0001BCA3\U0001D173-\U0001D17A\U000E0001\U000E0020-\U000E007F]'
        AND value ~ '[^[:space:]]';

-- A time every phone can read (HyzerJSON.parseTimestamp): YYYY-MM-DDTHH:MM:SS[.fraction]Z, a real
-- date (years 0001 to 9999, the month's own days) and time (no 24:00, no leap second). The shape
-- is checked before the day (a CASE: what is not digits never reaches a cast).
CREATE OR REPLACE FUNCTION hyzer.is_timestamp(value text) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN CASE
        WHEN value !~ '^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\.[0-9]{1,9})?Z$'
             OR left(value, 4) = '0000' THEN false
        WHEN substr(value, 9, 2) <= '28' THEN true
        WHEN substr(value, 6, 2) = '02' THEN substr(value, 9, 2) = '29' AND left(value, 4)::integer % 4 = 0
                                             AND (left(value, 4)::integer % 100 <> 0 OR left(value, 4)::integer % 400 = 0)
        ELSE substr(value, 9, 2) <> '31' OR substr(value, 6, 2) NOT IN ('04', '06', '09', '11')
    END;

CREATE TABLE IF NOT EXISTS hyzer.round (
    id uuid PRIMARY KEY,
    course_name text NOT NULL CHECK (hyzer.is_clean(course_name, 64)),
    pars integer[] NOT NULL CHECK (array_ndims(pars) = 1 AND array_lower(pars, 1) = 1 AND cardinality(pars) BETWEEN 1 AND 36
                                   AND array_position(pars, NULL) IS NULL AND 2 <= ALL(pars) AND 6 >= ALL(pars)),
    organizer text NOT NULL,                      -- the role that shared it: session_user, never a client string
    organizer_name text CHECK (organizer_name IS NULL OR hyzer.is_clean(organizer_name, 64)),
    any_player_resolves boolean NOT NULL,
    status text NOT NULL CHECK (status IN ('active', 'completed')),
    created_at text NOT NULL CHECK (hyzer.is_timestamp(created_at)),   -- the organizer's clock: shown, never trusted
    shared_at timestamptz NOT NULL,               -- the server's clock: discovery sorts and filters by it
    completed_by text,
    completed_at timestamptz,
    created_xact xid8 NOT NULL                    -- players may be added only by this transaction
);
CREATE INDEX IF NOT EXISTS round_active ON hyzer.round (shared_at DESC) WHERE status = 'active';
CREATE INDEX IF NOT EXISTS round_organizer ON hyzer.round (organizer, shared_at);

CREATE TABLE IF NOT EXISTS hyzer.round_player (
    round_id uuid NOT NULL REFERENCES hyzer.round (id),
    player_id text NOT NULL CHECK (octet_length(player_id) <= 128 AND hyzer.is_clean(player_id, 128)),
    name text NOT NULL CHECK (hyzer.is_clean(name, 64)),
    ordinal integer NOT NULL CHECK (ordinal >= 0),
    PRIMARY KEY (round_id, player_id),
    UNIQUE (round_id, ordinal)
);
CREATE INDEX IF NOT EXISTS round_player_name ON hyzer.round_player (lower(name));
CREATE INDEX IF NOT EXISTS round_player_id ON hyzer.round_player (player_id);

-- The events' references (round, players, the score a correction supersedes) are held by the
-- insert trigger for a whole statement at once, not by foreign keys: those check a row at a time
-- (four of them were 16 µs an event, more than the insert itself).
CREATE TABLE IF NOT EXISTS hyzer.score_event (
    id uuid PRIMARY KEY,
    round_id uuid NOT NULL,
    round_seq bigint NOT NULL CHECK (round_seq >= 1),
    player_id text NOT NULL,
    hole integer NOT NULL CHECK (hole >= 1),
    strokes integer NOT NULL CHECK (strokes BETWEEN 1 AND 10),
    supersedes uuid,
    reported_by text NOT NULL,
    device_id text NOT NULL CHECK (octet_length(device_id) <= 64 AND hyzer.is_clean(device_id, 64)),
    source text NOT NULL CHECK (source IN ('tap', 'voice', 'crown', 'resolution')),
    created_at text NOT NULL CHECK (hyzer.is_timestamp(created_at)),
    uploaded_by text NOT NULL DEFAULT session_user,
    uploaded_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (round_id, round_seq)
);
CREATE INDEX IF NOT EXISTS score_event_uploader ON hyzer.score_event (round_id, uploaded_by);

-- A device is the pair (phone, device id): phones store another phone's event under
-- "DEVICE@PHONE" (docs/SYNC.md), so no phone can withdraw another's score by naming its device.
-- Binding a device id to the first phone that used it let a phone claim another's ids first.
DROP TABLE IF EXISTS hyzer.round_device;
-- A cloud made before uploads were checked as a set: the uploader and time now come from the
-- columns' defaults, and the rules are held once per statement (score_event_checked).
ALTER TABLE hyzer.score_event ALTER COLUMN uploaded_by SET DEFAULT session_user, ALTER COLUMN uploaded_at SET DEFAULT now();
ALTER TABLE hyzer.score_event DROP CONSTRAINT IF EXISTS score_event_round_id_fkey, DROP CONSTRAINT IF EXISTS score_event_supersedes_fkey,
    DROP CONSTRAINT IF EXISTS score_event_round_id_player_id_fkey, DROP CONSTRAINT IF EXISTS score_event_round_id_reported_by_fkey;
DROP TRIGGER IF EXISTS score_event_before_insert ON hyzer.score_event;
DROP FUNCTION IF EXISTS hyzer.score_event_before_insert();
DROP FUNCTION IF EXISTS hyzer.event_refusal(hyzer.round, uuid, text, integer, integer, uuid, text, text, text, text, text);

-- Belt and braces: were a privilege ever granted by mistake, no policy lets a phone see or write a row.
ALTER TABLE hyzer.round ENABLE ROW LEVEL SECURITY;
ALTER TABLE hyzer.round_player ENABLE ROW LEVEL SECURITY;
ALTER TABLE hyzer.score_event ENABLE ROW LEVEL SECURITY;
-- A row per phone that has shared a round, locked by each share: a phone's shares take turns, so
-- the 50-a-day count holds across its connections.
CREATE TABLE IF NOT EXISTS hyzer.phone_shares (phone text PRIMARY KEY);
ALTER TABLE hyzer.phone_shares ENABLE ROW LEVEL SECURITY;

-- ---------------------------------------------------------------------------------------------
-- Invariants, held by triggers even against the owner's own functions.

CREATE OR REPLACE FUNCTION hyzer.refuse_change() RETURNS trigger
    LANGUAGE plpgsql SET search_path = pg_catalog, hyzer, pg_temp AS $$
BEGIN
    RAISE EXCEPTION '% is append-only: % is not allowed', TG_TABLE_NAME, TG_OP USING ERRCODE = 'restrict_violation';
END $$;

CREATE OR REPLACE FUNCTION hyzer.round_before_insert() RETURNS trigger
    LANGUAGE plpgsql SET search_path = pg_catalog, hyzer, pg_temp AS $$
BEGIN
    NEW.organizer := session_user;
    NEW.status := 'active';
    NEW.shared_at := now();
    NEW.completed_by := NULL;
    NEW.completed_at := NULL;
    NEW.created_xact := pg_current_xact_id();
    RETURN NEW;
END $$;

CREATE OR REPLACE FUNCTION hyzer.round_before_update() RETURNS trigger
    LANGUAGE plpgsql SET search_path = pg_catalog, hyzer, pg_temp AS $$
BEGIN
    IF (NEW.id, NEW.course_name, NEW.pars, NEW.organizer, NEW.organizer_name, NEW.any_player_resolves, NEW.created_at, NEW.shared_at, NEW.created_xact)
       IS DISTINCT FROM (OLD.id, OLD.course_name, OLD.pars, OLD.organizer, OLD.organizer_name, OLD.any_player_resolves, OLD.created_at, OLD.shared_at, OLD.created_xact) THEN
        RAISE EXCEPTION 'a round''s course, pars, organizer and options never change' USING ERRCODE = 'restrict_violation';
    END IF;
    IF OLD.status = 'completed' AND (NEW.status, NEW.completed_by, NEW.completed_at) IS DISTINCT FROM (OLD.status, OLD.completed_by, OLD.completed_at) THEN
        RAISE EXCEPTION 'a completed round stays completed' USING ERRCODE = 'restrict_violation';
    END IF;
    RETURN NEW;
END $$;

CREATE OR REPLACE FUNCTION hyzer.round_player_before_insert() RETURNS trigger
    LANGUAGE plpgsql SET search_path = pg_catalog, hyzer, pg_temp AS $$
DECLARE
    r hyzer.round;
BEGIN
    SELECT * INTO r FROM hyzer.round AS x WHERE x.id = NEW.round_id;
    -- "Has the round a score?" as its highest number, read from the index: as EXISTS, planned for
    -- any round (from a share's sixth player on) it looked cheapest as a scan that stops at the
    -- first match, and a new round has none: every player's insert read every phone's scores.
    IF NOT FOUND OR r.created_xact <> pg_current_xact_id()
       OR (SELECT e.round_seq FROM hyzer.score_event e WHERE e.round_id = NEW.round_id ORDER BY e.round_seq DESC LIMIT 1) IS NOT NULL THEN
        RAISE EXCEPTION 'a round''s players are fixed when it is shared: nobody joins round % later', NEW.round_id
            USING ERRCODE = 'restrict_violation';
    END IF;
    RETURN NEW;
END $$;

-- An upload's arrays as rows, with each event's place (ord). Said to give 1,000 rows: the plans
-- PostgreSQL keeps for a connection's uploads are made without the arrays, and planned for a few
-- rows they joined the upload with itself row by row (a batch of 1,000 took 5 times as long).
-- PL/pgSQL, not SQL: its query is planned once per connection; a SQL function that sets its
-- search_path is planned again at each of the three calls of every upload.
DROP FUNCTION IF EXISTS hyzer.upload_rows(uuid[], text[], integer[], integer[], uuid[], text[], text[], text[], text[]);
CREATE FUNCTION hyzer.upload_rows(a_ids uuid[], a_players text[], a_holes integer[], a_strokes integer[], a_supersedes uuid[],
                                  a_reporters text[], a_devices text[], a_sources text[], a_created text[])
    RETURNS TABLE (id uuid, player text, hole integer, strokes integer, supersedes uuid, reporter text, device text, source text,
                   created text, ord bigint)
    LANGUAGE plpgsql IMMUTABLE ROWS 1000 SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    RETURN QUERY SELECT * FROM unnest(a_ids, a_players, a_holes, a_strokes, a_supersedes, a_reporters, a_devices, a_sources, a_created) WITH ORDINALITY;
END $$;

-- Older clouds checked the rules of a score in a function of their own; upload_events checks them
-- in its own query (one pass over the upload, no join of two result sets by each event's place).
DROP FUNCTION IF EXISTS hyzer.event_refusals(hyzer.round, text, uuid[], text[], integer[], integer[], uuid[], text[], text[], text[], text[]);

-- What no code may get wrong, held once per INSERT statement even for the owner's own functions:
-- every row names a round the cloud holds, was uploaded by the session's role (`session_user`,
-- the columns' default) now, and is numbered next. `round_seq` is made in one place,
-- upload_events, under the round's row lock (held until commit): a round's uploads take turns
-- and commit in the order they number, and a rolled-back upload takes its numbers with it. Here
-- the lock is taken (again) and each round's new rows must continue its numbers with no gap.
-- The rules of a score itself are upload_events', the only way in; the columns'
-- checks hold what a single value must be.
CREATE OR REPLACE FUNCTION hyzer.score_event_checked() RETURNS trigger
    LANGUAGE plpgsql SET search_path = pg_catalog, hyzer, pg_temp AS $$
DECLARE
    r record;
    previous bigint;
BEGIN
    IF current_setting('transaction_isolation') <> 'read committed' THEN
        RAISE EXCEPTION 'scores are uploaded in READ COMMITTED transactions (this one is %)', current_setting('transaction_isolation')
            USING ERRCODE = 'invalid_transaction_state';
    END IF;
    IF EXISTS (SELECT FROM added a WHERE a.uploaded_by <> session_user OR a.uploaded_at <> now()) THEN
        RAISE EXCEPTION 'a score''s uploader is the role that uploads it, now (leave uploaded_by and uploaded_at to their defaults)'
            USING ERRCODE = 'restrict_violation';
    END IF;
    IF EXISTS (SELECT FROM added a WHERE NOT EXISTS (SELECT FROM hyzer.round x WHERE x.id = a.round_id)) THEN
        RAISE EXCEPTION 'a score names a round that is not in the cloud' USING ERRCODE = 'HZ100';
    END IF;
    FOR r IN SELECT a.round_id AS id, min(a.round_seq) AS lo, max(a.round_seq) AS hi, count(*) AS n FROM added a GROUP BY a.round_id ORDER BY a.round_id LOOP
        PERFORM FROM hyzer.round x WHERE x.id = r.id FOR UPDATE;
        previous := coalesce((SELECT e.round_seq FROM hyzer.score_event e WHERE e.round_id = r.id AND e.round_seq < r.lo
                              ORDER BY e.round_seq DESC LIMIT 1), 0);
        -- The highest number by the index, not EXISTS (... > hi): planned without the values, that
        -- expects a match at once and scans the whole table to find there is none.
        IF r.lo <> previous + 1 OR r.hi - r.lo + 1 <> r.n OR (SELECT max(e.round_seq) FROM hyzer.score_event e WHERE e.round_id = r.id) <> r.hi THEN
            RAISE EXCEPTION 'round % continues from number %: these scores are numbered % to %; numbers are given by hyzer.upload_events, with no gap',
                r.id, previous, r.lo, r.hi USING ERRCODE = 'restrict_violation';
        END IF;
    END LOOP;
    RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER round_before_insert BEFORE INSERT ON hyzer.round FOR EACH ROW EXECUTE FUNCTION hyzer.round_before_insert();
CREATE OR REPLACE TRIGGER round_before_update BEFORE UPDATE ON hyzer.round FOR EACH ROW EXECUTE FUNCTION hyzer.round_before_update();
CREATE OR REPLACE TRIGGER round_no_delete BEFORE DELETE ON hyzer.round FOR EACH ROW EXECUTE FUNCTION hyzer.refuse_change();
CREATE OR REPLACE TRIGGER round_no_truncate BEFORE TRUNCATE ON hyzer.round FOR EACH STATEMENT EXECUTE FUNCTION hyzer.refuse_change();
CREATE OR REPLACE TRIGGER round_player_before_insert BEFORE INSERT ON hyzer.round_player FOR EACH ROW EXECUTE FUNCTION hyzer.round_player_before_insert();
CREATE OR REPLACE TRIGGER round_player_fixed BEFORE UPDATE OR DELETE ON hyzer.round_player FOR EACH ROW EXECUTE FUNCTION hyzer.refuse_change();
CREATE OR REPLACE TRIGGER round_player_no_truncate BEFORE TRUNCATE ON hyzer.round_player FOR EACH STATEMENT EXECUTE FUNCTION hyzer.refuse_change();
CREATE OR REPLACE TRIGGER score_event_checked AFTER INSERT ON hyzer.score_event REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION hyzer.score_event_checked();
CREATE OR REPLACE TRIGGER score_event_append_only BEFORE UPDATE OR DELETE ON hyzer.score_event FOR EACH ROW EXECUTE FUNCTION hyzer.refuse_change();
CREATE OR REPLACE TRIGGER score_event_no_truncate BEFORE TRUNCATE ON hyzer.score_event FOR EACH STATEMENT EXECUTE FUNCTION hyzer.refuse_change();

-- ---------------------------------------------------------------------------------------------
-- The phone API. Every function: SECURITY DEFINER (runs as hyzer_owner), search_path pinned with
-- pg_temp last, every object schema-qualified. Codes HZ0xx are per-event refusals (returned as rows
-- by upload_events); HZ1xx are raised.

-- A phone's first call: the API's version, once the caller is known to be a phone.
CREATE OR REPLACE FUNCTION hyzer.api_version() RETURNS integer
    LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, hyzer, pg_temp AS $$
BEGIN
    PERFORM hyzer.require_phone();
    RETURN 2;
END $$;

CREATE OR REPLACE FUNCTION hyzer.require_phone() RETURNS void
    LANGUAGE plpgsql STABLE SET search_path = pg_catalog, hyzer, pg_temp AS $$
BEGIN
    -- A superuser is a member of every role, but its password has no place on a phone.
    IF NOT pg_has_role(session_user, 'hyzer_phone', 'MEMBER')
       OR (SELECT r.rolsuper FROM pg_catalog.pg_roles r WHERE r.rolname = session_user) THEN
        RAISE EXCEPTION 'role % is not a Hyzer phone (each phone logs in as its own role: hyzer-hub cloud init ADMIN-URL --phone NAME)', session_user
            USING ERRCODE = 'insufficient_privilege';
    END IF;
END $$;

CREATE OR REPLACE FUNCTION hyzer.share_round(id uuid, course_name text, pars integer[], organizer_name text, any_player_resolves boolean,
                                             created_at text, player_ids text[], player_names text[])
    RETURNS text
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, hyzer, pg_temp SET lock_timeout = '5s' AS $$
DECLARE
    v_id uuid := share_round.id;
    v_course text := share_round.course_name;
    v_pars integer[] := share_round.pars;
    v_org_name text := share_round.organizer_name;
    v_any boolean := share_round.any_player_resolves;
    v_created text := share_round.created_at;
    v_ids text[] := share_round.player_ids;
    v_names text[] := share_round.player_names;
    -- The phone as text: session_user is a name, compared in collation "C", so a text column's
    -- index (in the database's collation) cannot serve a comparison with it.
    v_phone text := session_user;
    n integer := coalesce(cardinality(share_round.player_ids), 0);
    problem text;
    r hyzer.round;
    i integer;
BEGIN
    PERFORM hyzer.require_phone();
    IF v_id IS NULL THEN
        problem := 'it has no id';
    ELSIF v_course IS NULL OR NOT hyzer.is_clean(v_course, 64) THEN
        problem := 'a course name is 1 to 64 characters, not blank, with no control or invisible format characters';
    ELSIF v_pars IS NULL OR array_ndims(v_pars) <> 1 OR array_lower(v_pars, 1) <> 1 OR cardinality(v_pars) NOT BETWEEN 1 AND 36
          OR array_position(v_pars, NULL) IS NOT NULL OR NOT (2 <= ALL(v_pars) AND 6 >= ALL(v_pars)) THEN
        problem := 'a course has 1 to 36 holes, each of par 2 to 6';
    ELSIF v_org_name IS NOT NULL AND NOT hyzer.is_clean(v_org_name, 64) THEN
        problem := 'the organizer''s name is 1 to 64 characters, not blank, with no control or invisible format characters';
    ELSIF v_any IS NULL OR v_created IS NULL OR octet_length(v_created) > 40 OR NOT hyzer.is_timestamp(v_created) THEN
        problem := 'any_player_resolves and created_at (a real date and time, YYYY-MM-DDTHH:MM:SS[.fraction]Z) are required';
    ELSIF n NOT BETWEEN 1 AND 50 OR array_ndims(v_ids) <> 1 OR v_names IS NULL OR array_ndims(v_names) <> 1
          OR cardinality(v_names) <> n OR array_lower(v_ids, 1) <> 1 OR array_lower(v_names, 1) <> 1 THEN
        problem := 'a round has 1 to 50 players, each with an id and a name';
    END IF;
    IF problem IS NULL THEN
        FOR i IN 1..n LOOP
            IF v_ids[i] IS NULL OR octet_length(v_ids[i]) > 128 OR NOT hyzer.is_clean(v_ids[i], 128) THEN
                problem := format('player %s''s id must be 1 to 128 bytes with no control or invisible format characters', i);
            ELSIF v_names[i] IS NULL OR char_length(v_names[i]) > 64 OR NOT hyzer.is_clean(v_names[i], 64) THEN
                problem := format('player %s''s name must be 1 to 64 characters, not blank, with no control or invisible format characters (it has %s)',
                                  i, coalesce(char_length(v_names[i]), 0));
            END IF;
            EXIT WHEN problem IS NOT NULL;
        END LOOP;
    END IF;
    IF problem IS NULL AND (SELECT count(DISTINCT x) FROM unnest(v_ids) AS x) <> n THEN
        problem := 'two players have the same id';
    END IF;
    IF problem IS NOT NULL THEN
        RAISE EXCEPTION 'round % is refused: %', v_id, problem USING ERRCODE = 'HZ102';
    END IF;

    SELECT * INTO r FROM hyzer.round AS x WHERE x.id = v_id;
    IF FOUND THEN
        IF r.organizer <> v_phone THEN
            RAISE EXCEPTION 'round % is already in the cloud, shared by another phone (%)', v_id, r.organizer USING ERRCODE = 'HZ101';
        END IF;
        IF (r.course_name, r.pars, r.organizer_name, r.any_player_resolves, r.created_at) IS DISTINCT FROM (v_course, v_pars, v_org_name, v_any, v_created)
           OR ARRAY(SELECT p.player_id FROM hyzer.round_player p WHERE p.round_id = v_id ORDER BY p.ordinal) IS DISTINCT FROM v_ids
           OR ARRAY(SELECT p.name FROM hyzer.round_player p WHERE p.round_id = v_id ORDER BY p.ordinal) IS DISTINCT FROM v_names THEN
            RAISE EXCEPTION 'round % is already in the cloud with another course, players, options or creation time; a round never changes', v_id
                USING ERRCODE = 'HZ101';
        END IF;
        RETURN 'already shared';
    END IF;
    -- One share at a time per phone (its row locked until commit): the count below sees every
    -- round the phone shared before, whatever its other connections do meanwhile.
    INSERT INTO hyzer.phone_shares AS s (phone) VALUES (v_phone) ON CONFLICT (phone) DO NOTHING;
    PERFORM FROM hyzer.phone_shares s WHERE s.phone = v_phone FOR UPDATE;
    IF (SELECT count(*) FROM hyzer.round x WHERE x.organizer = v_phone AND x.shared_at > now() - interval '1 day') >= 50 THEN
        RAISE EXCEPTION 'phone % shared 50 rounds in the last 24 hours; try later', v_phone USING ERRCODE = 'HZ103';
    END IF;
    BEGIN
        INSERT INTO hyzer.round AS x (id, course_name, pars, organizer, organizer_name, any_player_resolves, status, created_at, shared_at, created_xact)
            VALUES (v_id, v_course, v_pars, v_phone, v_org_name, v_any, 'active', v_created, now(), pg_current_xact_id());
    EXCEPTION WHEN unique_violation THEN
        -- Another connection shared this id between our look and our insert: the next try finds
        -- it and answers as above ('already shared', or HZ101).
        RAISE EXCEPTION 'round % was shared by a concurrent call; send it again', v_id USING ERRCODE = 'serialization_failure';
    END;
    INSERT INTO hyzer.round_player AS p (round_id, player_id, name, ordinal)
        SELECT v_id, u.player_id, u.name, u.ord - 1 FROM unnest(v_ids, v_names) WITH ORDINALITY AS u(player_id, name, ord);
    PERFORM pg_notify('hyzer_events', v_id::text || ':0');
    RETURN 'shared';
END $$;

CREATE OR REPLACE FUNCTION hyzer.upload_events(round_id uuid, ids uuid[], player_ids text[], holes integer[], strokes integer[],
                                               supersedes uuid[], reported_by text[], device_ids text[], sources text[], created_at text[])
    RETURNS TABLE (event_id uuid, round_seq bigint, refusal_code text, refusal text)
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, hyzer, pg_temp SET lock_timeout = '5s' AS $$
#variable_conflict use_column
DECLARE
    v_round uuid := upload_events.round_id;
    a_ids uuid[] := upload_events.ids;
    a_players text[] := upload_events.player_ids;
    a_holes integer[] := upload_events.holes;
    a_strokes integer[] := upload_events.strokes;
    a_supersedes uuid[] := upload_events.supersedes;
    a_reporters text[] := upload_events.reported_by;
    a_devices text[] := upload_events.device_ids;
    a_sources text[] := upload_events.sources;
    a_created text[] := upload_events.created_at;
    n integer := coalesce(cardinality(upload_events.ids), 0);
    uploader text := session_user;
    r hyzer.round;
    hole_count integer;
    base bigint;
    last bigint;
    used bigint;
    quota bigint;
BEGIN
    PERFORM hyzer.require_phone();
    IF v_round IS NULL OR n > 2000 THEN
        RAISE EXCEPTION 'upload_events takes a round id and at most 2000 events' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    -- Nothing to upload: done. (No ids but another array with elements is a malformed call, below.)
    IF n = 0 AND coalesce(greatest(cardinality(a_players), cardinality(a_holes), cardinality(a_strokes), cardinality(a_supersedes),
                                   cardinality(a_reporters), cardinality(a_devices), cardinality(a_sources), cardinality(a_created)), 0) = 0 THEN
        RETURN;
    END IF;
    IF current_setting('transaction_isolation') <> 'read committed' THEN
        RAISE EXCEPTION 'call upload_events in a READ COMMITTED transaction (this one is %)', current_setting('transaction_isolation')
            USING ERRCODE = 'invalid_transaction_state';
    END IF;
    IF EXISTS (SELECT FROM unnest(ARRAY[array_ndims(a_ids), array_ndims(a_players), array_ndims(a_holes), array_ndims(a_strokes),
                                        array_ndims(a_supersedes), array_ndims(a_reporters), array_ndims(a_devices), array_ndims(a_sources),
                                        array_ndims(a_created)]) AS d(ndims) WHERE d.ndims IS DISTINCT FROM 1)
       OR EXISTS (SELECT FROM unnest(ARRAY[array_lower(a_ids, 1), array_lower(a_players, 1), array_lower(a_holes, 1), array_lower(a_strokes, 1),
                                           array_lower(a_supersedes, 1), array_lower(a_reporters, 1), array_lower(a_devices, 1),
                                           array_lower(a_sources, 1), array_lower(a_created, 1)]) AS l(lower) WHERE l.lower IS DISTINCT FROM 1)
       OR EXISTS (SELECT FROM unnest(ARRAY[cardinality(a_players), cardinality(a_holes), cardinality(a_strokes), cardinality(a_supersedes),
                                           cardinality(a_reporters), cardinality(a_devices), cardinality(a_sources), cardinality(a_created)]) AS c(card)
                  WHERE c.card IS DISTINCT FROM n) THEN
        RAISE EXCEPTION 'upload_events takes ten one-dimensional arrays with one element per event (supersedes: null for a first score)'
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    -- Before the round's lock: no field of a score is that long (ids 128 bytes, devices 64, times
    -- 40), and strings of any length would hold the lock while the rules read them.
    IF EXISTS (SELECT FROM hyzer.upload_rows(a_ids, a_players, a_holes, a_strokes, a_supersedes, a_reporters, a_devices, a_sources, a_created) u
               WHERE greatest(octet_length(u.player), octet_length(u.reporter), octet_length(u.device), octet_length(u.source), octet_length(u.created)) > 1000) THEN
        RAISE EXCEPTION 'upload_events refuses a field longer than 1,000 bytes (no score has one: ids are at most 128 bytes, devices 64, times 40)'
            USING ERRCODE = 'invalid_parameter_value';
    END IF;

    -- The round's row lock, held until commit: uploads of a round take turns and commit in order.
    SELECT * INTO r FROM hyzer.round AS x WHERE x.id = v_round FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'round % is not in the cloud yet: share it first', v_round USING ERRCODE = 'HZ100';
    END IF;
    hole_count := cardinality(r.pars);
    base := coalesce((SELECT e.round_seq FROM hyzer.score_event e WHERE e.round_id = v_round ORDER BY e.round_seq DESC LIMIT 1), 0);
    quota := 20::bigint * hole_count * (SELECT count(*) FROM hyzer.round_player p WHERE p.round_id = v_round);
    -- The phone's own count (one index entry per score it holds: ~1 ms at 5,000, on every upload)
    -- only when the round as a whole could reach the quota: `base` counts every phone's scores, so
    -- below that no event of this upload can be over it.
    used := CASE WHEN base + n > quota
                 THEN (SELECT count(*) FROM hyzer.score_event e WHERE e.round_id = v_round AND e.uploaded_by = uploader) ELSE 0 END;

    -- The whole upload in one statement, answered event by event in its order:
    --   judged: an event the cloud holds already gets its number again (the same content) or HZ010/
    --           HZ011; a new one is held to the rules of a score, in the order docs/SYNC.md gives
    --           them; a later copy of an id given earlier in this upload is answered as that one
    --           (HZ011 if it differs);
    --   chain:  a correction of an event this upload does not store is refused with it (HZ024),
    --           and so on along the chain;
    --   stored: the rest, numbered next in upload order, up to the phone's quota (then HZ028).
    -- Lookups by key are one index probe each (LATERAL ... LIMIT 1): planned for 1,000 rows, a
    -- join would read a whole table into a hash for one event. The round's players are read once
    -- and hashed: probed by key, PostgreSQL scanned the whole player table for each event while
    -- it was small enough to look cheap (a few hundred rows: 8 µs an event, twice).
    BEGIN
        RETURN QUERY
        WITH RECURSIVE input AS (
            SELECT u.*, CASE WHEN u.id IS NULL THEN u.ord ELSE min(u.ord) OVER (PARTITION BY u.id) END AS first_ord
            FROM hyzer.upload_rows(a_ids, a_players, a_holes, a_strokes, a_supersedes, a_reporters, a_devices, a_sources, a_created) AS u
        ), player AS MATERIALIZED (
            SELECT x.player_id FROM hyzer.round_player x WHERE x.round_id = v_round
        ), device AS MATERIALIZED (  -- an upload names few devices: each is read once
            SELECT d.name, octet_length(d.name) <= 64 AND hyzer.is_clean(d.name, 64) AND strpos(d.name, '@') = 0 AS clean
            FROM (SELECT DISTINCT i.device FROM input i) AS d(name)
        ), first_of_id AS (  -- what a correction may name earlier in this upload (DISTINCT ON: counted as
                             -- many rows, it is hashed; filtered to ord = first_ord, it was scanned per event)
            SELECT DISTINCT ON (i.id) i.id, i.player, i.hole, i.ord FROM input i WHERE i.id IS NOT NULL ORDER BY i.id, i.ord
        ), judged AS (
            SELECT i.*, prior.round_seq AS prior_seq, t.id IS NOT NULL AS target_held, CASE
                WHEN i.id IS NULL THEN ARRAY['HZ001', format('event #%s of the upload has no id', i.ord)]
                WHEN prior.id IS NOT NULL THEN CASE
                    WHEN prior.round_id <> v_round THEN
                        ARRAY['HZ010', format('score %s is already in the cloud under another round (%s); an id names one score of one round', i.id, prior.round_id)]
                    WHEN (prior.player_id, prior.hole, prior.strokes, prior.supersedes, prior.reported_by, prior.device_id, prior.source)
                         IS DISTINCT FROM (i.player, i.hole, i.strokes, i.supersedes, i.reporter, i.device, i.source) THEN
                        ARRAY['HZ011', format('score %s is already in the cloud (number %s) and differs in %s; the same id with other content is refused',
                            i.id, prior.round_seq, array_to_string(ARRAY(SELECT d.name FROM (VALUES
                                ('player', prior.player_id IS DISTINCT FROM i.player), ('hole', prior.hole IS DISTINCT FROM i.hole),
                                ('strokes', prior.strokes IS DISTINCT FROM i.strokes), ('supersedes', prior.supersedes IS DISTINCT FROM i.supersedes),
                                ('reporter', prior.reported_by IS DISTINCT FROM i.reporter), ('device', prior.device_id IS DISTINCT FROM i.device),
                                ('source', prior.source IS DISTINCT FROM i.source)) AS d(name, differs) WHERE d.differs), ', '))]
                    END
                WHEN i.player IS NULL OR i.hole IS NULL OR i.strokes IS NULL OR i.reporter IS NULL OR i.device IS NULL
                     OR i.source IS NULL OR i.created IS NULL THEN
                    ARRAY['HZ001', format('score %s lacks a field (player, hole, strokes, reporter, device, source and created_at are required)', i.id)]
                WHEN i.strokes NOT BETWEEN 1 AND 10 THEN
                    ARRAY['HZ023', format('score %s: strokes must be between 1 and 10; got %s', i.id, i.strokes)]
                WHEN i.hole NOT BETWEEN 1 AND hole_count THEN
                    ARRAY['HZ022', format('score %s: hole %s is not on %s; holes are 1...%s', i.id, i.hole, r.course_name, hole_count)]
                WHEN i.source NOT IN ('tap', 'voice', 'crown', 'resolution') THEN
                    ARRAY['HZ026', format('score %s: source must be tap, voice, crown or resolution', i.id)]
                WHEN NOT d.clean THEN
                    ARRAY['HZ026', format('score %s: a device id is 1 to 64 bytes with no control or invisible characters and no @ (each phone writes another phone''s device as DEVICE@PHONE)', i.id)]
                WHEN octet_length(i.created) > 40 OR NOT hyzer.is_timestamp(i.created) THEN
                    ARRAY['HZ026', format('score %s: created_at must be a real date and time, YYYY-MM-DDTHH:MM:SS[.fraction]Z', i.id)]
                WHEN p.player_id IS NULL THEN
                    ARRAY['HZ020', format('score %s: the player is not in round %s', i.id, v_round)]
                WHEN rp.player_id IS NULL THEN
                    ARRAY['HZ021', format('score %s: the reporter is not a player of round %s', i.id, v_round)]
                -- A correction names a score of the same round, player and hole that the cloud
                -- holds, or (an id the cloud does not hold) one that comes earlier in this upload.
                WHEN i.supersedes IS NOT NULL
                     AND NOT (t.id IS NOT NULL AND t.round_id = v_round AND t.player_id = i.player AND t.hole = i.hole)
                     AND NOT (t.id IS NULL AND b.id IS NOT NULL AND b.player = i.player AND b.hole = i.hole) THEN
                    ARRAY['HZ024', format('score %s supersedes %s, which is not a score of the same round, player and hole in the cloud', i.id, i.supersedes)]
                WHEN i.source = 'resolution' AND NOT r.any_player_resolves AND uploader <> r.organizer THEN
                    ARRAY['HZ025', format('score %s: only the organizer''s phone (%s) resolves discrepancies in round %s; this upload is from %s',
                                          i.id, r.organizer, v_round, uploader)]
                END AS refused
            FROM input i
            LEFT JOIN LATERAL (SELECT x.* FROM hyzer.score_event x WHERE x.id = i.id LIMIT 1) prior ON true
            LEFT JOIN device d ON d.name = i.device
            LEFT JOIN player p ON p.player_id = i.player
            LEFT JOIN player rp ON rp.player_id = i.reporter
            LEFT JOIN LATERAL (SELECT x.id, x.round_id, x.player_id, x.hole FROM hyzer.score_event x WHERE x.id = i.supersedes LIMIT 1) t ON true
            LEFT JOIN first_of_id b ON b.id = i.supersedes AND b.ord < i.ord
            WHERE i.ord = i.first_ord
        ), chain AS (  -- the new events this upload does not store (an id the cloud holds is judged there)
            SELECT j.ord, j.id FROM judged j WHERE j.refused IS NOT NULL AND j.prior_seq IS NULL
            UNION
            SELECT j.ord, j.id FROM judged j JOIN chain c ON j.supersedes = c.id AND j.ord > c.ord
            WHERE j.prior_seq IS NULL
        ), numbered AS (
            SELECT j.*, row_number() OVER (ORDER BY j.ord) AS rank FROM judged j
            WHERE j.refused IS NULL AND j.prior_seq IS NULL AND j.ord NOT IN (SELECT c.ord FROM chain c)
        ), stored AS (  -- run to the end whether or not read: what it stores is numbered base + rank
            INSERT INTO hyzer.score_event AS e (id, round_id, round_seq, player_id, hole, strokes, supersedes, reported_by, device_id, source, created_at)
            SELECT n.id, v_round, base + n.rank, n.player, n.hole, n.strokes, n.supersedes, n.reporter, n.device, n.source, n.created
            FROM numbered n WHERE used + n.rank <= quota ORDER BY n.rank
        ), answer AS (
            SELECT j.ord,
                   CASE WHEN j.refused IS NULL AND c.ord IS NULL AND (n.ord IS NULL OR used + n.rank <= quota) THEN coalesce(base + n.rank, j.prior_seq) END AS seq,
                   CASE
                WHEN j.refused IS NOT NULL AND j.refused[1] <> 'HZ025' THEN j.refused
                -- A correction of a score neither the cloud nor this upload holds (before HZ025, as the rules order them).
                WHEN j.prior_seq IS NULL AND j.supersedes IS NOT NULL AND NOT j.target_held
                     AND NOT EXISTS (SELECT FROM numbered target WHERE target.id = j.supersedes AND used + target.rank <= quota) THEN
                    ARRAY['HZ024', format('score %s supersedes %s, which is not a score of the same round, player and hole in the cloud', j.id, j.supersedes)]
                WHEN j.refused IS NOT NULL THEN j.refused
                WHEN n.ord IS NOT NULL AND used + n.rank > quota THEN
                    ARRAY['HZ028', format('score %s: phone %s has uploaded %s scores to round %s, the most one phone may', j.id, uploader, quota, v_round)]
                END AS refused
            FROM judged j
            LEFT JOIN chain c ON c.ord = j.ord
            LEFT JOIN numbered n ON n.ord = j.ord
        )
        SELECT i.id, CASE WHEN i.ord = i.first_ord OR same THEN a.seq END,
               CASE WHEN i.ord = i.first_ord OR same THEN a.refused[1] ELSE 'HZ011' END,
               CASE WHEN i.ord = i.first_ord OR same THEN a.refused[2]
                    ELSE format('score %s is given twice in this upload, with other content the second time; the same id with other content is refused', i.id) END
        FROM input i
        JOIN input first ON first.ord = i.first_ord
        JOIN answer a ON a.ord = i.first_ord
        CROSS JOIN LATERAL (SELECT (first.player, first.hole, first.strokes, first.supersedes, first.reporter, first.device, first.source)
                                   IS NOT DISTINCT FROM (i.player, i.hole, i.strokes, i.supersedes, i.reporter, i.device, i.source) AS same) x
        ORDER BY i.ord;
    EXCEPTION WHEN unique_violation THEN
        -- Another round's upload stored one of these ids between our look and our insert: the
        -- whole call is undone; the next try finds the id and reports it (HZ010).
        RAISE EXCEPTION 'a concurrent upload stored one of these score ids first; send them again' USING ERRCODE = 'serialization_failure';
    END;
    last := coalesce((SELECT e.round_seq FROM hyzer.score_event e WHERE e.round_id = v_round ORDER BY e.round_seq DESC LIMIT 1), 0);
    IF last > base THEN
        PERFORM pg_notify('hyzer_events', v_round::text || ':' || last::text);
    END IF;
END $$;

-- Planned for its phone at every call: the plan PL/pgSQL keeps for any phone from the sixth call,
-- once the statistics say one phone holds every score of a round, counts through the (round,
-- number) index and reads all of the round's scores. Ending a round is rare; planning is cheap.
CREATE OR REPLACE FUNCTION hyzer.complete_round(round_id uuid) RETURNS boolean
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, hyzer, pg_temp SET lock_timeout = '5s'
    SET plan_cache_mode = force_custom_plan AS $$
DECLARE
    v_round uuid := complete_round.round_id;
    v_phone text := session_user;  -- as text, for the index (share_round says why)
    r hyzer.round;
BEGIN
    PERFORM hyzer.require_phone();
    SELECT * INTO r FROM hyzer.round AS x WHERE x.id = v_round FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'round % is not in the cloud yet: share it first', v_round USING ERRCODE = 'HZ100';
    END IF;
    IF r.status = 'completed' THEN RETURN false; END IF;
    -- Ending a round stops every phone's scoring: the organizer's decision, as resolving is (in a
    -- round where any player resolves, any phone that scored in it may end it too).
    -- Whether it scored: its scores in the round counted by the uploader index (at most its quota).
    -- EXISTS, planned for any round, became a scan of every score (round_player_before_insert).
    IF r.organizer <> v_phone AND NOT (r.any_player_resolves AND
        (SELECT count(*) FROM hyzer.score_event e WHERE e.round_id = v_round AND e.uploaded_by = v_phone) > 0) THEN
        IF r.any_player_resolves THEN
            RAISE EXCEPTION 'only the organizer''s phone (%) or a phone that scored in it completes round %; % has not scored in it',
                r.organizer, v_round, v_phone USING ERRCODE = 'HZ104';
        END IF;
        RAISE EXCEPTION 'only the organizer''s phone (%) completes round %', r.organizer, v_round USING ERRCODE = 'HZ104';
    END IF;
    UPDATE hyzer.round AS x SET status = 'completed', completed_by = v_phone, completed_at = now() WHERE x.id = v_round;
    -- Not a number: a phone that holds every score of the round still has the completion to take.
    PERFORM pg_notify('hyzer_events', v_round::text || ':completed');
    RETURN true;
END $$;

-- round_info and events_after are PL/pgSQL for their plans: kept for the connection, where a SQL
-- function with a SET clause is planned at every call (events_after is on every download's path).
CREATE OR REPLACE FUNCTION hyzer.round_info(round_id uuid)
    RETURNS TABLE (id uuid, course_name text, pars integer[], organizer text, organizer_name text, any_player_resolves boolean,
                   status text, created_at text, shared_at timestamptz, last_seq bigint, completed_by text,
                   player_ids text[], player_names text[])
    LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, hyzer, pg_temp AS $$
BEGIN
    RETURN QUERY
    SELECT r.id, r.course_name, r.pars, r.organizer, r.organizer_name, r.any_player_resolves, r.status, r.created_at, r.shared_at,
           coalesce((SELECT e.round_seq FROM hyzer.score_event e WHERE e.round_id = r.id ORDER BY e.round_seq DESC LIMIT 1), 0), r.completed_by,
           ARRAY(SELECT p.player_id FROM hyzer.round_player p WHERE p.round_id = r.id ORDER BY p.ordinal),
           ARRAY(SELECT p.name FROM hyzer.round_player p WHERE p.round_id = r.id ORDER BY p.ordinal)
    FROM hyzer.round r WHERE r.id = $1;
END $$;

-- No JIT: planned without its arguments, a cloud of 30,000 active rounds made its estimate large
-- enough to compile the query at every call (~24 ms), for a read of a few index entries.
CREATE OR REPLACE FUNCTION hyzer.active_rounds(player_name text DEFAULT NULL, player_id text DEFAULT NULL, shared_after timestamptz DEFAULT NULL)
    RETURNS TABLE (round_id uuid, organizer text, created_at text, shared_at timestamptz)
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, hyzer, pg_temp SET jit = off AS $$
    -- Each organizer's newest matching round only: one phone sharing many look-alike rounds
    -- takes one place in the list, not all twenty.
    SELECT x.id, x.organizer, x.created_at, x.shared_at FROM (
        SELECT DISTINCT ON (r.organizer) r.id, r.organizer, r.created_at, r.shared_at FROM hyzer.round r
        WHERE r.status = 'active' AND r.shared_at > coalesce($3, '-infinity')
          AND ($2 IS NULL OR EXISTS (SELECT FROM hyzer.round_player p WHERE p.round_id = r.id AND p.player_id = $2))
          AND ($2 IS NOT NULL OR $1 IS NULL OR EXISTS (SELECT FROM hyzer.round_player p WHERE p.round_id = r.id AND lower(p.name) = lower($1)))
        ORDER BY r.organizer, r.shared_at DESC
    ) x ORDER BY x.shared_at DESC LIMIT 20
$$;

CREATE OR REPLACE FUNCTION hyzer.events_after(round_id uuid, cursor bigint, lim integer DEFAULT 2000)
    RETURNS TABLE (round_seq bigint, id uuid, player_id text, hole integer, strokes integer, supersedes uuid, reported_by text,
                   device_id text, source text, created_at text, uploaded_by text)
    LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, hyzer, pg_temp AS $$
BEGIN
    RETURN QUERY
    SELECT e.round_seq, e.id, e.player_id, e.hole, e.strokes, e.supersedes, e.reported_by, e.device_id, e.source, e.created_at, e.uploaded_by
    FROM hyzer.score_event e WHERE e.round_id = $1 AND e.round_seq > greatest(coalesce($2, 0), 0)
    ORDER BY e.round_seq LIMIT least(greatest(coalesce($3, 2000), 1), 2000);
END $$;

RESET ROLE;

REVOKE ALL ON ALL TABLES IN SCHEMA hyzer FROM PUBLIC;
REVOKE ALL ON ALL FUNCTIONS IN SCHEMA hyzer FROM PUBLIC;
GRANT EXECUTE ON FUNCTION hyzer.api_version(), hyzer.share_round(uuid, text, integer[], text, boolean, text, text[], text[]),
    hyzer.upload_events(uuid, uuid[], text[], integer[], integer[], uuid[], text[], text[], text[], text[]),
    hyzer.complete_round(uuid), hyzer.round_info(uuid), hyzer.active_rounds(text, text, timestamptz),
    hyzer.events_after(uuid, bigint, integer) TO hyzer_phone;

-- ---------------------------------------------------------------------------------------------
-- The administrator's tools: ordinary (SECURITY INVOKER) functions, so only a role that may
-- create roles and signal backends can use them. Phones have no USAGE on this schema.

CREATE SCHEMA IF NOT EXISTS hyzer_admin;
REVOKE ALL ON SCHEMA hyzer_admin FROM PUBLIC;

-- Makes a phone's login role and returns its password (generated unless given). The role name is
-- the phone's identity in every round (organizer, uploaded_by): never reuse one; disable instead.
CREATE OR REPLACE FUNCTION hyzer_admin.add_phone(phone text, password text DEFAULT NULL) RETURNS text
    LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    secret text := coalesce(add_phone.password, replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''));
BEGIN
    IF phone IS NULL OR phone !~ '^[a-z][a-z0-9_]{0,39}$' OR phone IN ('hyzer_owner', 'hyzer_phone') OR phone LIKE 'pg\_%' THEN
        RAISE EXCEPTION 'a phone''s name is a lowercase letter then up to 39 lowercase letters, digits or _ (and not hyzer_owner, hyzer_phone, pg_*)'
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF EXISTS (SELECT FROM pg_roles WHERE rolname = phone) THEN
        RAISE EXCEPTION 'role % already exists; a phone''s role is its identity in the cloud, so choose another name', phone
            USING ERRCODE = 'duplicate_object';
    END IF;
    IF char_length(secret) < 16 THEN
        RAISE EXCEPTION 'a phone''s password has at least 16 characters' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    EXECUTE format('CREATE ROLE %I LOGIN PASSWORD %L NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS INHERIT CONNECTION LIMIT 4 IN ROLE hyzer_phone',
                   phone, secret);
    -- Defaults a phone could override (ALTER ROLE itself, SET): see hyzer_admin.reap_stuck_phones.
    EXECUTE format('ALTER ROLE %I SET statement_timeout = %L', phone, '30s');
    EXECUTE format('ALTER ROLE %I SET idle_in_transaction_session_timeout = %L', phone, '15s');
    EXECUTE format('ALTER ROLE %I SET lock_timeout = %L', phone, '10s');
    RETURN secret;
END $$;

-- A lost or hostile phone: it can no longer log in and its sessions end. Its rows stay (history).
CREATE OR REPLACE FUNCTION hyzer_admin.disable_phone(phone text) RETURNS integer
    LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    ended integer := 0;
    victim integer;
BEGIN
    IF NOT EXISTS (SELECT FROM pg_auth_members m JOIN pg_roles g ON g.oid = m.roleid JOIN pg_roles p ON p.oid = m.member
                   WHERE g.rolname = 'hyzer_phone' AND p.rolname = phone) THEN
        RAISE EXCEPTION '% is not a phone', phone USING ERRCODE = 'undefined_object';
    END IF;
    EXECUTE format('ALTER ROLE %I NOLOGIN', phone);
    FOR victim IN SELECT a.pid FROM pg_stat_activity a WHERE a.usename = phone AND a.pid <> pg_backend_pid() LOOP
        IF pg_terminate_backend(victim) THEN ended := ended + 1; END IF;
    END LOOP;
    RETURN ended;
END $$;

-- Ends phone sessions whose transaction is older than max_age. A phone can hold its transaction
-- open (and a round's row lock with it) and can override any timeout; run this every few seconds
-- (cron or pg_cron). Honest phones' transactions last milliseconds.
CREATE OR REPLACE FUNCTION hyzer_admin.reap_stuck_phones(max_age interval DEFAULT '30 seconds')
    RETURNS TABLE (pid integer, phone text, transaction_age interval)
    LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    s record;
BEGIN
    -- Chosen first, then signalled: in one WHERE clause the planner may call pg_terminate_backend
    -- before the other conditions, on any session (the administrator's own included).
    FOR s IN SELECT a.pid AS victim, a.usename::text AS role, now() - a.xact_start AS age FROM pg_stat_activity a
             WHERE a.xact_start < now() - max_age AND a.pid <> pg_backend_pid()
               AND EXISTS (SELECT FROM pg_auth_members m JOIN pg_roles g ON g.oid = m.roleid
                           WHERE g.rolname = 'hyzer_phone' AND m.member = a.usesysid) LOOP
        IF pg_terminate_backend(s.victim) THEN
            pid := s.victim; phone := s.role; transaction_age := s.age;
            RETURN NEXT;
        END IF;
    END LOOP;
END $$;

REVOKE ALL ON ALL FUNCTIONS IN SCHEMA hyzer_admin FROM PUBLIC;

INSERT INTO hyzer.migration (name) VALUES ('v2: phone roles, server-side functions, server-assigned order') ON CONFLICT (name) DO NOTHING;

COMMIT;
"""#

    /// The schema's statements one by one (the extended protocol takes one per query): a line
    /// ending in `;` ends a statement, except inside a `$$` function body.
    static func statements(_ sql: String) -> [String] {
        var statements: [String] = [], current: [Substring] = [], inBody = false
        for line in sql.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current.isEmpty && (trimmed.isEmpty || trimmed.hasPrefix("--")) { continue }
            current.append(line)
            if line.components(separatedBy: "$$").count % 2 == 0 { inBody.toggle() }
            if !inBody && trimmed.hasSuffix(";") {
                statements.append(current.joined(separator: "\n"))
                current = []
            }
        }
        let rest = current.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
        if !rest.isEmpty { statements.append(rest) }
        return statements
    }
}
