#!/usr/bin/env python3
"""The phone's face in a real browser (Debian's Chromium, headless, through chromedriver and
Selenium), against a real `hyzer-hub serve` and a real headless `hyzer-watch` on the same home.

    phone_face.py scenario URL HOME SHOTS    a watch scores, the page scores, a discrepancy from
                                             two devices resolved on the page, voice, finish,
                                             history; the accessibility tree; screenshots in SHOTS
    phone_face.py access URL HOME            off loopback: refused without the token, works with
                                             it over TLS with the hub's certificate
    phone_face.py api URL HOME               the API's refusals (no browser)
    phone_face.py hostile URL HOME           peers that stall, never read, send garbage or huge
                                             headers: a real page and a real watch are served on
    phone_face.py fuzz URL HOME [SEED]       mutated requests (methods, paths, headers, bodies):
                                             each answered or closed, serve still serving
    phone_face.py live URL PLAYER STROKES HOLE   follows /live until the page's state has that
                                             score (a change from anywhere: a watch, the cloud)

hyzer-hub and hyzer-watch are found on PATH. Exit 0 when every check holds; otherwise the first
failed check on stderr and exit 1.
"""
import hashlib, http.client, http.cookiejar, json, os, signal, socket, ssl, subprocess, sys, time, urllib.error, urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

TIMEOUT = 20


def fail(message):
    print(f"phone_face.py: {message}", file=sys.stderr)
    sys.exit(1)


def check(condition, message):
    if not condition:
        fail(message)


def run(*command):
    result = subprocess.run(command, capture_output=True, text=True, timeout=60)
    check(result.returncode == 0, f"{' '.join(command)} failed ({result.returncode}): {result.stderr.strip()}")
    return result.stdout


def ctl(home, *command):
    return run("hyzer-watch", "ctl", "--home", home, "--timeout", "20", *command)


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("HYZER_CHROMIUM", "/usr/bin/chromium")
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=390,844",
                     "--force-device-scale-factor=2", "--lang=en-US"]:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(os.environ.get("HYZER_CHROMEDRIVER", "/usr/bin/chromedriver")), options=options)
    # An iPhone's screen (390 × 844 points, 2 pixels a point), whatever size the headless window got.
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True})
    return driver


def wait(driver, what, predicate):
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        try:
            value = predicate()
            if value:
                return value
        except Exception:  # the page re-renders under us: try again
            pass
        time.sleep(0.05)
    fail(f"timed out waiting for {what}; the page shows: {driver.find_element(By.TAG_NAME, 'body').text[:600]!r}")


def tap(driver, what, by, selector):
    """Clicks what `selector` finds, again if the page re-rendered it under us (a state arrived)."""
    def attempt():
        driver.find_element(by, selector).click()
        return True
    wait(driver, what, attempt)


def type_into(driver, element_id, text, enter=True):
    """Types into a field, again if the page re-rendered it under us, then presses Enter."""
    def attempt():
        field = driver.find_element(By.ID, element_id)
        field.clear()
        field.send_keys(text)
        return driver.find_element(By.ID, element_id).get_attribute("value") == text
    wait(driver, f"typing {text!r}", attempt)
    if enter:
        wait(driver, "Enter", lambda: driver.find_element(By.ID, element_id).send_keys(Keys.ENTER) or True)


def row_text(driver, name):
    """The hole card's row of a player, as its accessible name says it (read in one step: the page
    re-renders whenever a state arrives)."""
    return driver.execute_script(
        "return [...document.querySelectorAll('.row-button')].map(b => b.getAttribute('aria-label'))"
        ".find(l => l.includes('. ' + arguments[0] + ', score:')) || null", name)


def errors_in_console(driver):
    return [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def shot(driver, shots, name):
    time.sleep(0.4)  # animations end (0.3 s reshuffle, 0.2 s sheet)
    driver.save_screenshot(os.path.join(shots, f"phone-{name}.png"))
    fits(driver, name)


def fits(driver, where):
    """Nothing on the screen is wider than the phone: no sideways scrolling, no button whose label
    runs out of it (a long name must wrap or be shortened, not spill into the next control)."""
    # Against the screen's width: a mobile browser widens its viewport to fit what overflows.
    wide = driver.execute_script("return document.documentElement.scrollWidth - screen.width")
    check(wide <= 0, f"{where}: the page is {wide} px wider than the phone")
    spilling = driver.execute_script(
        "return [...document.querySelectorAll('button')].filter(b => b.offsetParent && b.scrollWidth > b.clientWidth + 1)"
        ".map(b => b.textContent.trim().slice(0, 40))")
    check(not spilling, f"{where}: labels run out of their buttons: {spilling}")


def accessibility(driver):
    """Every button and link has a name and a 44 px target; the live region is there."""
    problems = driver.execute_script("""
        const problems = [];
        for (const el of document.querySelectorAll('button, a, input, [role=button]')) {
            if (el.closest('[hidden]') || el.offsetParent === null) continue;
            const r = el.getBoundingClientRect();
            const name = el.getAttribute('aria-label') || el.textContent.trim() || (el.labels && el.labels[0] && el.labels[0].textContent);
            if (!name) problems.push('no name: ' + el.outerHTML.slice(0, 80));
            if (r.height < 44 || (el.tagName !== 'INPUT' && r.width < 44)) problems.push('under 44 px: ' + (name || el.outerHTML.slice(0, 60)) + ' ' + r.width + 'x' + r.height);
        }
        if (!document.querySelector('[role=status][aria-live=polite]')) problems.push('no live region');
        return problems;
    """)
    return problems


def ax_names(driver):
    tree = driver.execute_cdp_cmd("Accessibility.getFullAXTree", {})
    names = []
    for node in tree["nodes"]:
        role = node.get("role", {}).get("value")
        name = node.get("name", {}).get("value")
        if name and role in ("button", "dialog", "heading", "status", "group", "listitem", "article"):
            names.append((role, name))
    return names


def scenario(url, home, shots):
    driver = browser()
    try:
        driver.get(url)
        wait(driver, "the hole card", lambda: driver.find_elements(By.CSS_SELECTOR, ".row-button"))
        driver.execute_script("window.__sameLoad = true")

        # 1. The watch scores Ben (a birdie on hole 1, par 3): the page shows it without a reload.
        ctl(home, "tap", "Ben")
        ctl(home, "crown", "-1")
        ctl(home, "save")
        ctl(home, "wait-for", "delivered", "1")
        wait(driver, "Ben's 2 from the watch", lambda: "Ben, score: 2, one under par" in (row_text(driver, "Ben") or ""))
        check(driver.execute_script("return window.__sameLoad === true"), "the page reloaded to show the watch's score")
        wait(driver, "the pill to lead with Ben", lambda: "Ben leads at minus one" in driver.find_element(By.CSS_SELECTOR, ".pill").get_attribute("aria-label"))
        shot(driver, shots, "scoring")

        # 2. The page scores Ann: a tap on her row opens the picker anchored at par; 4 is a bogey.
        tap(driver, "Ann's row", By.XPATH, "//button[contains(@aria-label, '. Ann, score:')]")
        wait(driver, "the picker", lambda: driver.find_element(By.CSS_SELECTOR, ".picker"))
        wait(driver, "the picker's focus on par (3)", lambda: driver.switch_to.active_element.get_attribute("data-strokes") == "3")
        shot(driver, shots, "picker")
        tap(driver, "4 on the picker", By.CSS_SELECTOR, ".picker [data-strokes='4']")
        wait(driver, "Ann's 4 on the page", lambda: "Ann, score: 4, one over par" in (row_text(driver, "Ann") or ""))
        # Said in the watch's own words (its VoiceOver log says the same for its own Save).
        wait(driver, "the page to say the score as the watch does", lambda: driver.execute_script(
            "return document.getElementById('announcer').textContent").find("Score recorded, Ann, four, one over par. Hole 1.") >= 0)
        ctl(home, "expect-text", "2 Ann +1")

        # 3. A discrepancy from two devices: the watch says Cal 3, the page says Cal 5. Cal's 3
        # completes hole 1: the card moves on to hole 2 by itself, and back is one tap.
        ctl(home, "tap", "Cal")
        ctl(home, "save")
        ctl(home, "wait-for", "delivered", "2")
        wait(driver, "the card to move on to hole 2", lambda: driver.find_element(By.CSS_SELECTOR, ".card h2").text == "Hole 2")
        tap(driver, "Previous hole", By.CSS_SELECTOR, "[aria-label='Previous hole']")
        wait(driver, "Cal's 3 from the watch on hole 1", lambda: "Hole 1, par 3. Cal, score: 3" in (row_text(driver, "Cal") or ""))
        tap(driver, "Cal's row", By.XPATH, "//button[contains(@aria-label, '. Cal, score:')]")
        tap(driver, "5 on the picker", By.CSS_SELECTOR, ".picker [data-strokes='5']")
        wait(driver, "the badge", lambda: driver.find_element(By.CSS_SELECTOR, ".pill .badge"))
        check("Disputed" in row_text(driver, "Cal"), "Cal's row does not say disputed")
        tap(driver, "Resolve the discrepancy", By.CSS_SELECTOR, ".rows .text-button")
        claims = wait(driver, "the resolution view", lambda: driver.execute_script(
            "return [...document.querySelectorAll('[role=dialog] .claim')].map(c => [c.dataset.strokes, c.getAttribute('aria-label')])"))
        check(sorted(strokes for strokes, _ in claims) == ["3", "5"], f"the resolution view does not show both claims: {claims}")
        check(any("recorded by Cal" in label for _, label in claims), f"a claim does not say who recorded it: {claims}")
        shot(driver, shots, "discrepancy")
        tap(driver, "the claim 3", By.CSS_SELECTOR, ".claim[data-strokes='3']")
        wait(driver, "the discrepancy to clear", lambda: not driver.find_elements(By.CSS_SELECTOR, ".pill .badge"))
        check("Disputed" not in row_text(driver, "Cal"), "Cal's row still says disputed")
        run("hyzer-hub", "--home", home, "discrepancies")  # exits 0
        ctl(home, "expect-text", "Cal")

        # 4. The expanded leaderboard: standings as the watch shows them.
        tap(driver, "the pill", By.CSS_SELECTOR, ".pill")
        labels = wait(driver, "the leaderboard", lambda: driver.execute_script(
            "return [...document.querySelectorAll('.board-list .board-row')].map(r => r.getAttribute('aria-label'))"))
        check(labels and labels[0].startswith("First. Ben. minus one."), f"the leaderboard's first row: {labels[:1]}")
        shot(driver, shots, "leaderboard")
        driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)

        # 5. Voice on hole 2: typed (no microphone here), read by the hub's parser, 1.5 s to correct.
        tap(driver, "Next hole", By.CSS_SELECTOR, "[aria-label='Next hole']")
        wait(driver, "hole 2", lambda: driver.find_element(By.CSS_SELECTOR, ".card h2").text == "Hole 2")
        tap(driver, "the microphone", By.CSS_SELECTOR, ".mic")
        wait(driver, "the transcript field", lambda: driver.find_element(By.ID, "transcript"))
        type_into(driver, "transcript", "Ann 3, Bean four, Cal par")
        wait(driver, "the heard scores", lambda: len(driver.find_elements(By.CSS_SELECTOR, ".voice-row")) == 3)
        # "Bean" is unsure: shown as the watch shows it, the one player it could be with "?".
        unsure = driver.find_element(By.ID, "voice-row-1").text + " | " + driver.find_element(By.CSS_SELECTOR, ".voice-rows li:nth-child(2) .caption").text
        check(unsure.startswith("Ben?") and "Heard “Bean”" in unsure, f"the unsure row reads {unsure!r}")
        tap(driver, "Ben's heard score", By.ID, "voice-row-1")  # a correction pauses the timer
        shot(driver, shots, "voice")
        tap(driver, "5 for the unsure row", By.XPATH, "//ul[@class='voice-rows']//div[@class='picker']/button[text()='5']")
        tap(driver, "Ben for the unsure row", By.XPATH, "//ul[@class='voice-rows']//div[@class='picker names']/button[text()='Ben']")
        wait(driver, "the voice scores to land", lambda: "Ben, score: 5" in (row_text(driver, "Ben") or "") or None)
        check("Ann, score: 3" in row_text(driver, "Ann"), "Ann's voice score did not land")

        # 6. Accessibility: names, targets, the live region, the tree Chromium builds.
        problems = accessibility(driver)
        check(not problems, f"accessibility: {problems[:5]}")
        names = ax_names(driver)
        check(any(role == "button" and name.startswith("Leaderboard: ") for role, name in names), "the pill has no accessible name")
        check(any(role == "button" and name.startswith("Hole 2, par 3. Ann, score: 3, par.") for role, name in names), f"hole card rows: {names[:12]}")
        check(any(role == "button" and name == "Record scores by voice." for role, name in names), "the microphone has no name")

        # 7. Finish: the summary card, then history.
        tap(driver, "Finish Round", By.XPATH, "//button[text()='Finish Round']")
        tap(driver, "the finish prompt's Finish Round", By.CSS_SELECTOR, "[role=dialog] .primary")
        label = wait(driver, "the summary card", lambda: driver.execute_script("return document.querySelector('.summary')?.getAttribute('aria-label')"))
        check(label.startswith("Round complete at Willow Creek."), label)
        shot(driver, shots, "summary")
        ctl(home, "wait-for", "screen", "final")  # the watch shows the round finished too
        tap(driver, "History", By.XPATH, "//button[text()='History']")
        wait(driver, "a history card", lambda: driver.find_element(By.CSS_SELECTOR, ".history-card"))
        shot(driver, shots, "history")
        tap(driver, "Scoring", By.XPATH, "//button[text()='Scoring']")
        tap(driver, "Done", By.XPATH, "//button[text()='Done']")
        tap(driver, "Start Round (no round in play)", By.XPATH, "//button[text()='Start Round']")
        # The browser's text size at 200 % (the page sizes in rem, as Dynamic Type scales the
        # phone): "Same players as last time (…)" and the fields beside their buttons still fit.
        wait(driver, "Same players as last time", lambda: driver.find_element(By.XPATH, "//button[starts-with(text(), 'Same players as last time')]"))
        driver.execute_script("document.documentElement.style.fontSize = '200%'")
        fits(driver, "the setup at 200 % text")
        driver.execute_script("document.documentElement.style.fontSize = ''")
        tap(driver, "Maple Hill", By.XPATH, "//input[@value='Maple Hill']")
        for name in ["Jake Thompson", "Mike Rivera"]:
            type_into(driver, "add-player", name)
            wait(driver, f"{name} added", lambda: name in driver.find_element(By.CSS_SELECTOR, ".chips").text)
        type_into(driver, "add-guest", "Sarah Handley-Montgomery")
        wait(driver, "Sarah added", lambda: "Sarah Handley-Montgomery (guest)" in driver.find_element(By.CSS_SELECTOR, ".chips").text)
        shot(driver, shots, "setup")
        tap(driver, "Start Round", By.XPATH, "//button[text()='Start Round']")
        wait(driver, "the new round", lambda: "Maple Hill" in driver.find_element(By.ID, "title").text)
        # The pill names players by first name, as the spec writes it ("1.Jake -2  2.Mike -1"):
        # three long names all show at once on a phone (full names showed one and a half).
        def whole_entries():
            return driver.execute_script("""
                const box = document.querySelector('.pill-entries').getBoundingClientRect();
                return [...document.querySelectorAll('.pill-entry')].filter(e => {
                    const r = e.getBoundingClientRect();
                    return r.left >= box.left - 1 && r.right <= box.right + 1;
                }).map(e => e.querySelector('.score').previousSibling.textContent.trim());""")
        # Each entry's text before its score ("Jake", "T2 Mike"), once the page has settled.
        shown = wait(driver, "three whole entries in the pill", lambda: (entries := whole_entries()) and len(entries) == 3 and entries)
        check(all(entry.split()[-1] in ("Jake", "Mike", "Sarah") for entry in shown), f"the pill shows {shown}")
        # At 200 % text a name's lines break between its words, never inside one ("Handley-Montgom/ery"):
        # on the hole card and in the leaderboard.
        driver.execute_script("document.documentElement.style.fontSize = '200%'")
        tap(driver, "the pill", By.CSS_SELECTOR, ".pill")
        wait(driver, "the leaderboard", lambda: driver.find_elements(By.CSS_SELECTOR, ".board-row"))
        broken = driver.execute_script("""
            const broken = [];
            for (const el of document.querySelectorAll('.name')) {
                const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
                for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                    for (const word of node.data.matchAll(/\\S+/g)) {
                        const range = document.createRange();
                        range.setStart(node, word.index);
                        range.setEnd(node, word.index + word[0].length);
                        if (new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1) broken.push(word[0]);
                    }
                }
            }
            return broken;""")
        check(not broken, f"words broken across lines at 200 % text: {broken}")
        driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)
        # At 310 % (the largest accessibility size) the scoring screen and the leaderboard still
        # fit the phone: titles and totals stop at the width, labels wrap (a designer found the
        # page scrolling sideways, "Finish Round" and "Done" cut at its edge).
        driver.execute_script("document.documentElement.style.fontSize = '310%'")
        fits(driver, "the scoring screen at 310 % text")
        tap(driver, "the pill at 310 % text", By.CSS_SELECTOR, ".pill")
        wait(driver, "the leaderboard at 310 % text", lambda: driver.find_elements(By.CSS_SELECTOR, ".board-row"))
        fits(driver, "the leaderboard at 310 % text")
        driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)
        driver.execute_script("document.documentElement.style.fontSize = ''")
        # The pill floats over every tab while a round is in play: the standings a tap away from History.
        tap(driver, "History", By.XPATH, "//button[text()='History']")
        tap(driver, "the pill over History", By.CSS_SELECTOR, ".pill")
        wait(driver, "the leaderboard from History", lambda: driver.find_elements(By.CSS_SELECTOR, ".board-row"))
        driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)
        tap(driver, "Scoring", By.XPATH, "//button[text()='Scoring']")
        check("guest:" in run("hyzer-hub", "--home", home, "round", "show", "--json"), "the guest was not added as a guest")
        errors = errors_in_console(driver)
        check(not errors, f"the browser's console: {errors[:3]}")
    finally:
        driver.quit()
    print("ok")


def access(url, home):
    """Off loopback: https only, nothing without the token, everything with it."""
    check(url.startswith("https://"), f"the page off loopback is not served over TLS: {url}")
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    fingerprint = run("hyzer-hub", "--home", home, "token", "--fingerprint").strip()
    host, port = url.split("//")[1].rstrip("/").rsplit(":", 1)
    with socket.create_connection((host.strip("[]"), int(port))) as raw:
        with context.wrap_socket(raw) as tls:
            der = tls.getpeercert(binary_form=True)
    check(f"sha256:{hashlib.sha256(der).hexdigest()}" == fingerprint, "the page's certificate is not the hub's (hyzer-hub token --fingerprint)")
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPSHandler(context=context), urllib.request.HTTPCookieProcessor(jar))

    def call(path, body=None):
        request = urllib.request.Request(url.rstrip("/") + path, data=None if body is None else json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json"}, method="GET" if body is None else "POST")
        try:
            with opener.open(request, timeout=10) as response:
                return response.status, json.loads(response.read() or b"{}")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"{}")

    status, body = call("/api/state")
    check(status == 401 and "pairing token" in body.get("error", ""), f"without the token: {status} {body}")
    status, body = call("/api/score", {"player": "Ann", "strokes": 3})
    check(status == 401, f"a score without the token: {status} {body}")
    status, body = call("/api/pair", {"token": "not-the-token"})
    check(status == 401, f"a wrong token: {status} {body}")
    token = run("hyzer-hub", "--home", home, "token").strip()
    status, body = call("/api/pair", {"token": token})
    check(status == 200 and any(c.name == "hyzer-token" for c in jar), f"the right token: {status} {body}")
    status, body = call("/api/state")
    check(status == 200 and body["type"] == "state", f"with the token: {status}")
    status, body = call("/api/score", {"player": "Ann", "strokes": 3})
    check(status == 200 and body["recorded"]["outcome"] == "newScore", f"a score with the token: {status} {body}")
    try:
        urllib.request.urlopen(url.replace("https://", "http://") + "api/state", timeout=5)
        fail("the page off loopback answered plain HTTP")
    except (urllib.error.URLError, ConnectionError, http.client.RemoteDisconnected):
        pass
    # The browser pairs through the page's own form.
    driver = browser()
    try:
        driver.execute_cdp_cmd("Security.setIgnoreCertificateErrors", {"ignore": True})
        driver.get(url)
        wait(driver, "the pairing form", lambda: driver.find_element(By.ID, "token"))
        type_into(driver, "token", token)
        wait(driver, "the hole card after pairing", lambda: driver.find_elements(By.CSS_SELECTOR, ".row-button"))
    finally:
        driver.quit()
    print("ok")


def api(url, home):
    def call(path, data=None, raw=None):
        body = raw if raw is not None else (None if data is None else json.dumps(data).encode())
        request = urllib.request.Request(url.rstrip("/") + path, data=body, headers={"Content-Type": "application/json"},
                                         method="GET" if body is None else "POST")
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, json.loads(response.read() or b"{}")
        except urllib.error.HTTPError as error:
            text = error.read()
            try:
                return error.code, json.loads(text or b"{}")
            except ValueError:
                return error.code, {"raw": text[:200]}

    status, _ = call("/no/such/page")
    check(status == 404, f"an unknown route: {status}")
    status, body = call("/api/score", raw=b"x" * (70 * 1024))
    check(status == 413 and "KiB" in body.get("error", ""), f"an oversized body: {status} {body}")
    status, body = call("/api/score", raw=b"not json")
    check(status == 400 and "/api/score" in body.get("error", ""), f"a body that is not JSON: {status} {body}")
    status, body = call("/api/score", {"player": "Ann"})
    check(status == 400 and "strokes" in body.get("error", ""), f"a score without strokes: {status} {body}")
    status, body = call("/api/score", {"player": "Ann", "strokes": 3.5})
    check(status == 400 and body.get("error", "").startswith("strokes must be a whole number"), f"strokes 3.5: {status} {body}")
    # Said in JSON's words, never the server's language's type names.
    for raw, said in [(b"[1, 2]", "The request must be an object"), (b'{"course": "Cedar Ridge", "players": "Ann"}', "players must be a list"),
                      (b'{"player": "Ann", "strokes": "3"}', "strokes must be a whole number")]:
        path = "/api/round/start" if b"course" in raw else "/api/score"
        status, body = call(path, raw=raw)
        check(status == 400 and body.get("error", "").startswith(said), f"{raw!r} to {path}: {status} {body}")
    status, body = call("/api/score", {"player": "Ann", "strokes": 3})
    check(status == 200 and body["recorded"]["outcome"] == "newScore", f"a good score: {status} {body}")
    # The page's voice over the phone's own score corrects it, as the voice overlays do (the
    # command refuses and points to `hyzer-hub correct`, which the page cannot show a person).
    status, body = call("/api/voice", {"transcript": "Ann 4"})
    check(status == 200 and "hyzer-hub correct" not in body.get("message", ""), f"voice over the phone's own score: {status} {body}")
    status, state = call("/api/state")
    round_ = state["body"]["round"]
    ann = next(p["id"] for p in round_["players"] if p["name"] == "Ann")
    check([s["strokes"] for s in round_["scores"] if s["playerID"] == ann] == [4], f"Ann's 4 by voice: {round_['scores']}")
    for request, cli in [({"player": "Ann", "strokes": 11, "hole": 2}, ["score", "Ann", "11", "--hole", "2"]),
                         ({"player": "Zed", "strokes": 3}, ["score", "Zed", "3"]),
                         ({"player": "Ben", "strokes": 3, "hole": 40}, ["score", "Ben", "3", "--hole", "40"])]:
        status, body = call("/api/score", request)
        said = subprocess.run(["hyzer-hub", "--home", home, *cli], capture_output=True, text=True)
        check(status == 422 and said.returncode != 0 and body.get("error", "") in said.stderr,
              f"{request}: the page said {status} {body}, the command line {said.returncode} {said.stderr.strip()}")
    status, body = call("/api/resolve", {"player": "Ann", "strokes": 3, "hole": 1})
    check(status == 422 and "discrepancy" in body.get("error", "").lower(), f"resolving nothing: {status} {body}")
    status, body = call("/api/round/start", {"course": "Nowhere", "players": ["Ann"]})
    check(status == 422, f"a second round: {status} {body}")
    # Another site's page in this machine's browser: a "simple" cross-site POST (text/plain, no
    # preflight), a foreign Origin, a host name rebound to 127.0.0.1: none may write or read.
    def raw(method, path, headers, body=b""):
        host, port = url.split("//")[1].rstrip("/").rsplit(":", 1)
        sock = socket.create_connection((host, int(port)), timeout=10)
        head = f"{method} {path} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers.items()) + f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
        sock.sendall(head.encode() + body)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
        sock.close()
        return int(answer.split(b" ", 2)[1]), answer
    authority = url.split("//")[1].rstrip("/")
    start = json.dumps({"course": "Cedar Ridge", "players": ["Mallory"]}).encode()
    status, answer = raw("POST", "/api/round/start", {"Host": authority, "Content-Type": "text/plain", "Origin": "http://127.0.0.5:9011"}, start)
    check(status in (403, 415), f"a cross-site form post: {status} {answer[:200]!r}")
    for media in ["text/plain", "application/jsonx", "application/json-patch+json"]:
        status, answer = raw("POST", "/api/score", {"Host": authority, "Content-Type": media}, json.dumps({"player": "Ann", "strokes": 5, "hole": 3}).encode())
        check(status == 415, f"a {media} post: {status} {answer[:200]!r}")
    status, answer = raw("POST", "/api/score", {"Host": authority, "Content-Type": "application/json", "Origin": "http://evil.example"}, json.dumps({"player": "Ann", "strokes": 5, "hole": 3}).encode())
    check(status == 403, f"a foreign Origin: {status} {answer[:200]!r}")
    port = authority.rsplit(":", 1)[1]
    # The page may not be framed by another site's page (its buttons clicked through), nor load
    # or run anything but its own files; refusals say so too.
    for path in ["/", "/app.js", "/api/state", "/nowhere"]:
        status, answer = raw("GET", path, {"Host": authority})
        head = answer.split(b"\r\n\r\n", 1)[0].decode().lower()
        for header in ["content-security-policy: default-src 'self'", "frame-ancestors 'none'", "x-frame-options: deny",
                       "x-content-type-options: nosniff", "referrer-policy: no-referrer"]:
            check(header in head, f"GET {path} ({status}) has no {header}: {head}")
    # Names that only begin like a loopback address resolve wherever their owner says (DNS rebinding).
    for rebound in ["attacker.example", "127.attacker.example", "127.0.0.1.rebind.example", "127-evil.com", "localhost.evil.com"]:
        status, answer = raw("GET", "/api/state", {"Host": f"{rebound}:{port}"})
        check(status == 421, f"a rebound host name {rebound}: {status} {answer[:200]!r}")
        status, answer = raw("POST", "/api/score", {"Host": f"{rebound}:{port}", "Origin": f"http://{rebound}:{port}", "Content-Type": "application/json"},
                             json.dumps({"player": "Ann", "strokes": 7, "hole": 3}).encode())
        check(status == 421, f"a score from a rebound page {rebound}: {status} {answer[:200]!r}")
    # Only the page's own origin, exactly: not a sandboxed frame of any site (null), not another
    # port's server on this machine, not another scheme.
    for origin in ["null", f"http://127.0.0.1:{int(port) + 1}", f"https://{authority}", "http://127.0.0.1", "ws://evil.example",
                   f"ws://{authority}evil", "wss://127.0.0.1", f"ws://127.0.0.1:{int(port) + 1}"]:
        status, answer = raw("GET", "/api/state", {"Host": authority, "Origin": origin})
        check(status == 403, f"a read from Origin {origin}: {status} {answer[:200]!r}")
        status, answer = raw("GET", "/live", {"Host": authority, "Origin": origin, "Upgrade": "websocket", "Connection": "Upgrade",
                                              "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version": "13"})
        check(status != 101, f"a WebSocket from Origin {origin} was upgraded: {answer[:200]!r}")
    status, answer = raw("GET", "/live", {"Host": authority, "Origin": "http://evil.example", "Upgrade": "websocket", "Connection": "Upgrade",
                                          "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version": "13"})
    check(status != 101, f"a foreign page's WebSocket was upgraded: {answer[:200]!r}")
    status, body = call("/api/state")
    scores = body["body"]["round"]["scores"]
    check(len(scores) == 1 and scores[0]["strokes"] == 4, f"what was accepted is still there (Ann 3, corrected to 4 by voice): {scores}")
    print("ok")


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))


def serve_pid(home):
    with open(os.path.join(home, "hub", "serve.lock")) as lock:
        return int(lock.read().strip() or 0)


def websocket_handshake(host, port, after=-1):
    import base64
    sock = socket.create_connection((host, port), timeout=10)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET /live?after={after} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    answer = b""
    while b"\r\n\r\n" not in answer:
        chunk = sock.recv(4096)
        if not chunk:
            break
        answer += chunk
    check(answer.startswith(b"HTTP/1.1 101"), f"the WebSocket upgrade was refused: {answer[:80]!r}")
    # The first frame may come in the same read as the headers: what follows them is kept.
    return sock, answer.split(b"\r\n\r\n", 1)[1]


def messages(sock, buffer):
    """Whole text messages: continuation frames joined, control frames (ping, pong) skipped."""
    message = b""
    while True:
        while len(buffer) < 2:
            buffer += sock.recv(65536)
        fin, opcode, length, offset = buffer[0] & 0x80, buffer[0] & 0x0F, buffer[1] & 0x7F, 2
        if length == 126:
            while len(buffer) < 4: buffer += sock.recv(65536)
            length, offset = int.from_bytes(buffer[2:4], "big"), 4
        elif length == 127:
            while len(buffer) < 10: buffer += sock.recv(65536)
            length, offset = int.from_bytes(buffer[2:10], "big"), 10
        while len(buffer) < offset + length:
            buffer += sock.recv(65536)
        payload, buffer = buffer[offset:offset + length], buffer[offset + length:]
        if opcode >= 0x8:
            continue
        message += payload
        if fin:
            yield message
            message = b""


def hostile(url, home):
    """Peers that stall, never read, send garbage or oversized headers, while a watch scores and
    a page follows: the page and the watch are still served, and the hub's memory stays bounded."""
    host, port = url.split("//")[1].rstrip("/").rsplit(":", 1)
    port = int(port)
    pid = serve_pid(home)
    before = rss_kb(pid)
    peers = []
    # 100 that open a request and never finish it.
    stalled_at = time.monotonic()
    for _ in range(100):
        sock = socket.create_connection((host, port), timeout=10)
        sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        peers.append(sock)
    stalled = list(peers)
    # 50 live pages that never read what they are sent.
    for _ in range(50):
        peers.append(websocket_handshake(host, port)[0])
    # Garbage, a header over the limit, a request line of 100 KiB.
    for junk in [os.urandom(4096), b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * (64 * 1024) + b"\r\n\r\n",
                 b"GET /" + b"a" * (100 * 1024) + b" HTTP/1.1\r\n\r\n"]:
        sock = socket.create_connection((host, port), timeout=10)
        try:
            sock.sendall(junk)
            sock.shutdown(socket.SHUT_WR)  # and nothing more: the hub answers or closes now
            answer = sock.recv(200)
            check(not answer or answer.startswith(b"HTTP/1.1 4"), f"junk was answered: {answer[:80]!r}")
        except OSError:
            pass
        sock.close()
    # A page that does read, and the phone scoring 24 times meanwhile: each change goes to every
    # page, a state of a round of 150 players (about 100 KB), more than a socket's buffers hold.
    reader, received = websocket_handshake(host, port)
    reader.settimeout(20)
    for hole in range(1, 4):
        for player in range(1, 9):
            run("hyzer-hub", "--home", home, "score", f"Player {player:03}", "3", "--hole", str(hole))
    latest = int(json.loads(urllib.request.urlopen(url + "api/state", timeout=10).read())["body"]["sequence"])
    # The reading page gets the newest state (frames: 2-byte header, then 126 → 16-bit, 127 → 64-bit length).
    seen = -1
    for payload in messages(reader, received):
        seen = json.loads(payload)["body"]["sequence"]
        if seen >= latest:
            break
    check(seen >= latest, f"the reading page stopped at {seen}, the phone is at {latest}")
    status = urllib.request.urlopen(url + "api/state", timeout=10).status
    check(status == 200, f"the API under load: {status}")
    after = rss_kb(pid)
    check(after - before < 64 * 1024, f"serve grew from {before} to {after} KB with {len(peers)} hostile peers")
    # A connection that has had no answer 10 s after it opened is closed by the hub (a request
    # never finished would hold it, and serve's stop, for as long as the peer liked).
    for sock in stalled:
        sock.settimeout(max(0.5, stalled_at + 20 - time.monotonic()))
        try:
            closed = sock.recv(100) == b""
        except OSError:
            closed = False
        check(closed, f"a request never finished was still open {time.monotonic() - stalled_at:.0f} s after it began")
    for sock in peers:
        sock.close()
    reader.close()
    # And serve stops promptly on SIGTERM with one such request open, and a live page whose
    # peer never reads or closes its end.
    sock = socket.create_connection((host, port), timeout=10)
    sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ")
    silent_page = websocket_handshake(host, port)[0]
    os.kill(pid, signal.SIGTERM)
    asked = time.monotonic()
    while os.path.exists(f"/proc/{pid}") and time.monotonic() - asked < 15:
        time.sleep(0.05)
    check(not os.path.exists(f"/proc/{pid}"), f"serve still ran {time.monotonic() - asked:.0f} s after SIGTERM, a request left half sent and a page never closing")
    sock.close()
    silent_page.close()
    print(f"ok ({len(peers)} hostile peers; serve {before} → {after} KB; stopped {time.monotonic() - asked:.1f} s after SIGTERM)")


def fuzz(url, home, seed=None):
    """Black-box fuzzing of the HTTP surface: requests mutated from good ones, seeded (the seed is
    printed): every one is answered with a status below 500 or closed, nothing accepted is lost."""
    import random
    seed = int(seed) if seed else random.randrange(1 << 32)
    print(f"fuzz seed {seed}", file=sys.stderr)
    rng = random.Random(seed)
    host, port = url.split("//")[1].rstrip("/").rsplit(":", 1)
    port = int(port)
    good = [
        ("POST", "/api/score", {"player": "Ann", "strokes": 3, "hole": 2}),
        ("POST", "/api/voice", {"transcript": "Ann 3, Ben 4", "hole": 3, "dryRun": True}),
        ("POST", "/api/resolve", {"player": "Ann", "strokes": 3, "hole": 1}),
        ("POST", "/api/hole", {"hole": 2}),
        ("POST", "/api/round/start", {"course": "Maple Hill", "players": ["Ann"]}),
        ("GET", "/api/state", None),
        ("GET", "/live?after=3", None),
    ]
    values = [None, True, 0, -1, 11, 2 ** 63, 1e308, "", "Ann", "\u0000", "\u202e", "a" * 5000, [], {}, [1, 2], {"a": {"b": []}}]

    def mutate(body):
        if body is None or rng.random() < 0.1:
            return rng.choice([b"", b"{", b"null", b"[]", os.urandom(rng.randrange(1, 300)), b'{"player":' * 50])
        body = dict(body)
        for _ in range(rng.randrange(1, 4)):
            key = rng.choice(list(body) + ["extra", ""])
            if rng.random() < 0.2:
                body.pop(key, None)
            else:
                body[key] = rng.choice(values)
        return json.dumps(body).encode()

    def request(method, path, body):
        if rng.random() < 0.2:
            method = rng.choice(["PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "GET", "POST", "BREW"])
        if rng.random() < 0.2:
            path = rng.choice([path + "/..", "/api/" + "x" * rng.randrange(1, 300), "//api//score", "/api/score?x=%ff", "/%00", path.upper()])
        headers = [f"Host: {host}:{port}", "Content-Type: application/json"]
        if rng.random() < 0.2:
            headers.append(rng.choice(["Transfer-Encoding: chunked", "Content-Length: -1", "Content-Length: 99999999",
                                       "Cookie: hyzer-token=" + "x" * 300, "Upgrade: websocket", "Expect: 100-continue"]))
        payload = b"" if body is None else body
        head = f"{method} {path} HTTP/1.1\r\n" + "\r\n".join(headers) + f"\r\nContent-Length: {len(payload)}\r\nConnection: close\r\n\r\n"
        return head.encode() + payload

    for case in range(400):
        method, path, body = rng.choice(good)
        raw = request(method, path, mutate(body) if method == "POST" else None)
        sock = socket.create_connection((host, port), timeout=10)
        try:
            sock.sendall(raw)
            sock.shutdown(socket.SHUT_WR)
            answer = sock.recv(64)
        except OSError:
            answer = b""
        finally:
            sock.close()
        if answer.startswith(b"HTTP/1.1 5"):
            fail(f"case {case} (seed {seed}) was answered {answer[:20]!r}: {raw[:300]!r}")
    state = json.loads(urllib.request.urlopen(url + "api/state", timeout=10).read())
    scores = [s for s in state["body"]["round"]["scores"] if s["hole"] == 1]
    check(len(scores) == 2, f"the scores accepted before the fuzzing (seed {seed}): {scores}")
    print(f"ok (400 cases, seed {seed})")


def live(url, player, strokes, hole):
    """A page following /live: prints "following" once connected, exits 0 when a state shows
    PLAYER with STROKES on HOLE (within 60 s)."""
    host, port = url.split("//")[1].rstrip("/").rsplit(":", 1)
    sock, received = websocket_handshake(host, int(port))
    sock.settimeout(60)
    print("following", flush=True)
    for message in messages(sock, received):
        state = json.loads(message)["body"]
        round_ = state.get("round") or {}
        ids = {p["name"]: p["id"] for p in round_.get("players", [])}
        if any(s["playerID"] == ids.get(player) and s["hole"] == int(hole) and s["strokes"] == int(strokes) for s in round_.get("scores", [])):
            print("ok")
            return


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "scenario":
        scenario(*sys.argv[2:])
    elif len(sys.argv) == 4 and sys.argv[1] == "access":
        access(*sys.argv[2:])
    elif len(sys.argv) == 4 and sys.argv[1] == "api":
        api(*sys.argv[2:])
    elif len(sys.argv) == 4 and sys.argv[1] == "hostile":
        hostile(*sys.argv[2:])
    elif len(sys.argv) == 6 and sys.argv[1] == "live":
        live(*sys.argv[2:])
    elif len(sys.argv) in (4, 5) and sys.argv[1] == "fuzz":
        fuzz(*sys.argv[2:])
    else:
        fail(__doc__)
