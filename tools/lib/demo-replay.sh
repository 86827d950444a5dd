# tools/demo --replay FILE: a recorded round played through the phone at speed, on a fresh home,
# with the watch of the round's first player in the background so its face (the complications,
# refreshed only by the phone's complication transfers) shows the round go by.
# Sourced by tools/demo (bin, home, hub, started, say and die come from there).

demo_replay() {
    local file="$1" wearer
    wearer="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["players"][0]["name"])' "$file")" \
        || die "--replay: $file is not a recorded round (see Assets/README.md)"
    "$bin/hyzer-hub" --home "$home" replay "$file" --plan >&2 || die "--replay: $file cannot be replayed (above)"
    "$bin/hyzer-hub" --home "$home" serve --log-level warning > "$home/serve.log" 2>&1 &
    started+=($!)
    for _ in $(seq 100); do [ -S "$home/hub/link.sock" ] && break; sleep 0.05; done
    [ -S "$home/hub/link.sock" ] || die "hyzer-hub serve did not start; see $home/serve.log"
    local w=("$bin/hyzer-watch" ctl --home "$home" --timeout 60)
    if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
        "$bin/hyzer-watch" --home "$home" --wearer "$wearer" --screenshot-dir "$home/screenshots" &
        started+=($!)
        "${w[@]}" wait-for reachable >/dev/null
        "${w[@]}" app background >/dev/null
        say "== $wearer's watch shows the watch face: its complications follow the round; B opens the app, B again goes back"
        "$bin/hyzer-hub" --home "$home" replay "$file" --speed 60 >&2
        say "== the round is over; close the watch window (or Q) to end"
        wait "${started[-1]}" || true
        return 0
    fi
    local shots="$home/screenshots"
    mkdir -p "$shots"
    # Its log (a warning for each live message dropped while the app is in the background) goes to a file.
    "$bin/hyzer-watch" --home "$home" --headless --wearer "$wearer" --screenshot-dir "$shots" 2> "$home/watch.log" &
    started+=($!)
    "${w[@]}" wait-for reachable >/dev/null
    "${w[@]}" app background >/dev/null
    "${w[@]}" screenshot 1-face-before.png >/dev/null
    say "== no display: replaying at --speed 200 with $wearer's watch headless, face screenshots in $shots"
    "$bin/hyzer-hub" --home "$home" replay "$file" --speed 200 > "$home/replay.log" &
    local replaying=$!
    started+=($replaying)
    "${w[@]}" wait-for complications 12 >/dev/null
    "${w[@]}" screenshot 2-face-mid-round.png >/dev/null
    wait "$replaying" || die "the replay failed; see $home/replay.log"
    "${w[@]}" expect-text "Final" >/dev/null
    "${w[@]}" screenshot 3-face-final.png >/dev/null
    "${w[@]}" app foreground >/dev/null
    "${w[@]}" screenshot 4-app-final.png >/dev/null
    "${w[@]}" quit >/dev/null
    tail -n 12 "$home/replay.log" >&2
    say "== complication transfers: $(wc -l < "$home/watch/complications.jsonl") (watch/complications.jsonl); screenshots:"
    ls -1 "$shots"/*.png >&2
}
