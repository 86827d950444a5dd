import Foundation

/// The cloud's schema, in named migrations applied once each (never edited once shipped; a change
/// is a new migration). Every table is prefixed `hyzer_`, so the cloud can share a database.
///
/// What the schema enforces, so that whatever a phone downloads every other phone can apply:
/// score events are append-only (UPDATE, DELETE and TRUNCATE raise), unique by id, ordered per round
/// by `round_seq`; a score names a player of its round and a hole of its course; a correction
/// supersedes a score of the same round, player and hole that the cloud already holds; a
/// resolution comes from the organizer's phone unless the round lets any player resolve; a round's
/// course, players, organizer and options never change, and a completed round stays completed.
enum CloudSchema {
    static let migrations: [(name: String, sql: String)] = [
        ("v1: rounds, players, append-only score events, notifications", """
        CREATE TABLE hyzer_round (
            id uuid PRIMARY KEY,
            course_name text NOT NULL,
            pars integer[] NOT NULL CHECK (cardinality(pars) >= 1 AND 2 <= ALL(pars) AND 6 >= ALL(pars)),
            organizer_hub text NOT NULL,
            organizer_name text,
            any_player_resolves boolean NOT NULL,
            status text NOT NULL CHECK (status IN ('active', 'completed')),
            created_at text NOT NULL,
            last_seq bigint NOT NULL DEFAULT 0
        );
        CREATE TABLE hyzer_round_player (
            round_id uuid NOT NULL REFERENCES hyzer_round(id),
            player_id text NOT NULL CHECK (octet_length(player_id) BETWEEN 1 AND 128 AND player_id !~ '[[:cntrl:]]'),
            name text NOT NULL,
            ordinal integer NOT NULL,
            PRIMARY KEY (round_id, player_id)
        );
        CREATE INDEX hyzer_round_player_name ON hyzer_round_player (lower(name));
        CREATE TABLE hyzer_score_event (
            id uuid PRIMARY KEY,
            round_id uuid NOT NULL REFERENCES hyzer_round(id),
            round_seq bigint NOT NULL,
            player_id text NOT NULL,
            hole integer NOT NULL CHECK (hole >= 1),
            strokes integer NOT NULL CHECK (strokes BETWEEN 1 AND 10),
            supersedes uuid REFERENCES hyzer_score_event(id),
            reported_by text NOT NULL,
            device_id text NOT NULL CHECK (octet_length(device_id) BETWEEN 1 AND 64 AND device_id !~ '[[:cntrl:]]'),
            source text NOT NULL CHECK (source IN ('tap', 'voice', 'crown', 'resolution')),
            created_at text NOT NULL,
            uploaded_by text NOT NULL,
            uploaded_at timestamptz NOT NULL DEFAULT now(),
            UNIQUE (round_id, round_seq),
            FOREIGN KEY (round_id, player_id) REFERENCES hyzer_round_player(round_id, player_id),
            FOREIGN KEY (round_id, reported_by) REFERENCES hyzer_round_player(round_id, player_id)
        );

        CREATE FUNCTION hyzer_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            RAISE EXCEPTION '% is append-only: % is not allowed', TG_TABLE_NAME, TG_OP USING ERRCODE = 'restrict_violation';
        END $$;
        CREATE TRIGGER hyzer_score_event_append_only BEFORE UPDATE OR DELETE ON hyzer_score_event
            FOR EACH ROW EXECUTE FUNCTION hyzer_refuse_change();
        CREATE TRIGGER hyzer_score_event_no_truncate BEFORE TRUNCATE ON hyzer_score_event
            FOR EACH STATEMENT EXECUTE FUNCTION hyzer_refuse_change();
        CREATE TRIGGER hyzer_round_player_fixed BEFORE UPDATE OR DELETE ON hyzer_round_player
            FOR EACH ROW EXECUTE FUNCTION hyzer_refuse_change();
        CREATE TRIGGER hyzer_round_no_delete BEFORE DELETE ON hyzer_round
            FOR EACH ROW EXECUTE FUNCTION hyzer_refuse_change();

        CREATE FUNCTION hyzer_check_round_update() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF NEW.id <> OLD.id OR NEW.course_name <> OLD.course_name OR NEW.pars <> OLD.pars
               OR NEW.organizer_hub <> OLD.organizer_hub OR NEW.any_player_resolves <> OLD.any_player_resolves
               OR NEW.created_at <> OLD.created_at THEN
                RAISE EXCEPTION 'a round''s course, organizer and options never change' USING ERRCODE = 'restrict_violation';
            END IF;
            IF OLD.status = 'completed' AND NEW.status <> 'completed' THEN
                RAISE EXCEPTION 'a completed round stays completed' USING ERRCODE = 'restrict_violation';
            END IF;
            IF NEW.last_seq < OLD.last_seq THEN
                RAISE EXCEPTION 'a round''s event order only grows' USING ERRCODE = 'restrict_violation';
            END IF;
            RETURN NEW;
        END $$;
        CREATE TRIGGER hyzer_round_update BEFORE UPDATE ON hyzer_round
            FOR EACH ROW EXECUTE FUNCTION hyzer_check_round_update();

        CREATE FUNCTION hyzer_check_event() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE
            r hyzer_round;
            target hyzer_score_event;
        BEGIN
            SELECT * INTO r FROM hyzer_round WHERE id = NEW.round_id;
            IF NOT FOUND THEN
                RAISE EXCEPTION 'round % is not in the cloud', NEW.round_id USING ERRCODE = 'foreign_key_violation';
            END IF;
            IF NEW.hole > cardinality(r.pars) THEN
                RAISE EXCEPTION 'hole % is not on %: holes are 1...%', NEW.hole, r.course_name, cardinality(r.pars)
                    USING ERRCODE = 'check_violation';
            END IF;
            IF NEW.supersedes IS NOT NULL THEN
                SELECT * INTO target FROM hyzer_score_event WHERE id = NEW.supersedes;
                IF NOT FOUND OR target.round_id <> NEW.round_id OR target.player_id <> NEW.player_id OR target.hole <> NEW.hole THEN
                    RAISE EXCEPTION 'score % supersedes %, which is not a score of the same round, player and hole in the cloud',
                        NEW.id, NEW.supersedes USING ERRCODE = 'foreign_key_violation';
                END IF;
            END IF;
            IF NEW.source = 'resolution' AND NOT r.any_player_resolves AND NEW.uploaded_by <> r.organizer_hub THEN
                RAISE EXCEPTION 'only the organizer''s phone resolves discrepancies in this round' USING ERRCODE = 'insufficient_privilege';
            END IF;
            RETURN NEW;
        END $$;
        CREATE TRIGGER hyzer_score_event_check BEFORE INSERT ON hyzer_score_event
            FOR EACH ROW EXECUTE FUNCTION hyzer_check_event();

        -- One notification per round per transaction (PostgreSQL folds identical payloads): the
        -- payload is the round's id; listeners then read past their cursor.
        CREATE FUNCTION hyzer_notify_event() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM pg_notify('hyzer_events', NEW.round_id::text);
            RETURN NULL;
        END $$;
        CREATE FUNCTION hyzer_notify_round() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM pg_notify('hyzer_events', NEW.id::text);
            RETURN NULL;
        END $$;
        CREATE TRIGGER hyzer_score_event_notify AFTER INSERT ON hyzer_score_event
            FOR EACH ROW EXECUTE FUNCTION hyzer_notify_event();
        CREATE TRIGGER hyzer_round_notify AFTER INSERT OR UPDATE OF status ON hyzer_round
            FOR EACH ROW EXECUTE FUNCTION hyzer_notify_round();
        """),
    ]

    static let channel = "hyzer_events"

    /// A migration's statements one by one (the extended protocol takes one per query): a line
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
