# tools/demo --phones N: N phones (hyzer-hub serve, one home each), one cloud (a throwaway
# PostgreSQL cluster), a watch per phone. Sourced by tools/demo, which provides $bin, $started,
# cleanup and the PostgreSQL helpers.

demo_phones() {
    local count="$1" names=(Jake Sarah Mike Holyn Ava Ben) base i
    base="${HYZER_HOME:-$(mktemp -d /tmp/hyzer-phones.XXXXXX)}"
    mkdir -p "$base"
    say "== $count phones under $base, one cloud"
    start_throwaway_postgres
    # The cloud's administrator makes a database of its own and a login (a role) for each phone.
    local admin="${HYZER_POSTGRES_URL/\/postgres\?//hyzer?}" logins roles=()
    "$(hyzer_postgres_bin)/psql" "$HYZER_POSTGRES_URL" -qc "CREATE DATABASE hyzer" >&2
    for ((i = 0; i < count; i++)); do roles+=("$(tr '[:upper:]' '[:lower:]' <<<"${names[$i]}")_phone"); done
    logins="$("$bin/hyzer-hub" cloud init "$admin" --phone "${roles[@]}")" || die "hyzer-hub cloud init failed"
    phone() { local n="$1"; shift; "$bin/hyzer-hub" --home "$base/${names[$n]}" "$@"; }

    # Each phone logs in as its own role. The first organizes; the others are offered the round
    # (it names their owner) and join it, as a player would after checking who organised it.
    for ((i = 0; i < count; i++)); do
        phone "$i" cloud set "$(sed -n "s/^${roles[$i]}: //p" <<<"$logins")" --player "${names[$i]}" >&2
    done
    phone 0 round start --course "Willow Creek" --player "${names[@]:0:$count}" >&2
    for ((i = 0; i < count; i++)); do
        "$bin/hyzer-hub" --home "$base/${names[$i]}" serve --log-level info > "$base/${names[$i]}.serve.log" 2>&1 &
        started+=($!)
    done
    for ((i = 1; i < count; i++)); do
        for _ in $(seq 200); do phone "$i" cloud status | grep -q "^Offered:" && break; sleep 0.05; done
        say "   ${names[$i]}'s phone: $(phone "$i" cloud status | grep "^Offered:" || echo "no offer yet")"
        phone "$i" round join >&2 || die "${names[$i]}'s phone could not join; see $base/${names[$i]}.serve.log"
    done

    # Everyone scores on their own phone; two phones disagree about Jake's first hole.
    say "== scoring on every phone; ${names[1]}'s phone says Jake had 4, Jake's phone says 3"
    for ((i = 0; i < count; i++)); do phone "$i" score "${names[$i]}" $((3 + i % 2)) --hole 1 >&2; done
    phone 1 score Jake 4 --hole 1 >&2
    for ((i = 0; i < count; i++)); do
        for _ in $(seq 200); do phone "$i" discrepancies | grep -q "Jake, hole 1" && break; sleep 0.05; done
        say "   ${names[$i]}'s phone: $(phone "$i" discrepancies | head -1)"
    done

    if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
        say "== a watch per phone (each wears its owner's name); Jake's phone resolves in 8 s"
        for ((i = 0; i < count; i++)); do
            "$bin/hyzer-watch" --home "$base/${names[$i]}" --wearer "${names[$i]}" --screenshot-dir "$base/${names[$i]}/screenshots" &
            started+=($!)
        done
        sleep 8
        phone 0 resolve Jake 3 --hole 1 >&2
        say "== resolved on Jake's phone; every watch settles. Close the windows (or Ctrl-C) to stop."
        wait "${started[-1]}" || true
        return
    fi

    say "== no display: each phone's watch, headless, before and after the organizer resolves"
    local shots="$base/screenshots"
    mkdir -p "$shots"
    watch_shot() {
        local n="$1" file="$2" script="$base/${names[$1]}/shot.txt"
        printf 'wait-snapshot\nwait 300ms\nscreenshot %s\nquit\n' "$file" > "$script"
        "$bin/hyzer-watch" --home "$base/${names[$n]}" --wearer "${names[$n]}" --headless --script "$script" --screenshot-dir "$shots" >&2
    }
    for ((i = 0; i < count; i++)); do watch_shot "$i" "${names[$i]}-1-discrepancy.png"; done
    phone 0 resolve Jake 3 --hole 1 >&2
    local want
    want="$(phone 0 round show --json)"
    for ((i = 1; i < count; i++)); do
        for _ in $(seq 200); do [ "$(phone "$i" round show --json)" = "$want" ] && break; sleep 0.05; done
    done
    for ((i = 0; i < count; i++)); do watch_shot "$i" "${names[$i]}-2-resolved.png"; done
    for ((i = 0; i < count; i++)); do
        say "== ${names[$i]}'s phone"
        phone "$i" standings >&2
        phone "$i" cloud status >&2
    done
    say "== screenshots of every watch face:"
    ls -1 "$shots"/*.png >&2
}
