"""External bots over line-based JSON (engine/play/extbots.py, docs/bots.md): the example
bots race every bundled ruleset, every misbehaviour gets the stated rule, logs replay with no
bot, and no bot process outlives its race."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import run

from slipstream.engine.play.extbots import ExternalBot, RaceContext, parse_external
from slipstream.engine.play.racelog import log_lines, replay_lines
from slipstream.engine.play.races import RaceSpec, run_race, seats_of
from slipstream.engine.play.registry import for_pack

ROOT = Path(__file__).resolve().parent.parent.parent
EXAMPLES = ROOT / "examples" / "bots"
BAD = Path(__file__).resolve().parent / "bots" / "bad_bot.py"
PACKS = {"automobiles": "", "formula-de": str(ROOT / "content" / "formula-de"),
         "speed-hazard": str(ROOT / "content" / "speed-hazard")}
GREEDY = {"automobiles": "automobiles_bot", "formula-de": "fd_bot", "speed-hazard": "sh_bot"}
FD = PACKS["formula-de"]


def race(pack: str, bots: tuple[str, ...], seed: int = 4, track: str = "") -> object:
    _, pk = for_pack(pack)
    return run_race(RaceSpec(pack, track or sorted(pk.tracks)[0], seed, bots))


def lines_of(result: object) -> list[str]:
    return log_lines(result.header, result.log, result.result)  # type: ignore[attr-defined]


def notes(result: object) -> list[dict]:
    return [e for e in result.log if e.get("t") == "bot"]  # type: ignore[attr-defined]


@pytest.mark.parametrize("ruleset", sorted(PACKS))
@pytest.mark.parametrize("lang", ["python", "js"])
def test_the_example_bots_race_every_ruleset_and_replay_without_them(ruleset: str, lang: str) -> None:
    ext = "py" if lang == "python" else "js"
    bots = ("greedy", f"cmd:{EXAMPLES / lang / f'random_bot.{ext}'}", f"cmd:{EXAMPLES / lang / f'{GREEDY[ruleset]}.{ext}'}")
    r = race(PACKS[ruleset], bots)
    assert sorted(r.standings) == [0, 1, 2]
    assert notes(r) == []  # no fault: every choice was the bot's own
    assert sum(1 for e in r.log if e.get("t") == "decision" and e.get("p") in (1, 2)) > 10
    lines = lines_of(r)
    assert replay_lines(lines).message == "identical"
    # the same seed plays the same race (the bots' randomness comes from the hello's seed)
    assert lines_of(race(PACKS[ruleset], bots)) == lines


def test_python_and_js_greedy_bots_play_the_same_race() -> None:
    py = race(FD, ("random", f"cmd:{EXAMPLES / 'python' / 'fd_bot.py'}"))
    js = race(FD, ("random", f"cmd:{EXAMPLES / 'js' / 'fd_bot.js'}"))
    assert py.log == js.log


def bad(mode: str, after: int = 2, settings: str = ";limit=0.5") -> str:
    return f"cmd:{BAD} {mode} {after}{settings}"


@pytest.mark.parametrize(("mode", "fault", "dropped_after"), [
    ("garbage", "garbage", 3),  # three strikes
    ("range", "range", 3),
    ("sleep", "late", 1),
    ("die", "dead", 1),
    ("flood", "flood", 1),
])
def test_a_misbehaving_bot_gets_the_stated_rule_and_the_race_finishes(mode: str, fault: str, dropped_after: int) -> None:
    t0 = time.monotonic()
    r = race(FD, ("greedy", bad(mode)))
    assert time.monotonic() - t0 < 30
    assert sorted(r.standings) == [0, 1]
    got = notes(r)
    assert [n["fault"] for n in got] == [fault] * dropped_after
    assert all(n["p"] == 1 and n["fallback"] == "random" for n in got)
    assert got[-1].get("dropped") is True and not any(n.get("dropped") for n in got[:-1])
    assert got[0]["decision"] == 2  # the bot's own first decision went through
    # the note stands just before the decision the fallback made
    i = r.log.index(got[0])
    assert r.log[i + 1]["t"] == "decision" and r.log[i + 1]["p"] == 1
    assert replay_lines(lines_of(r)).message == "identical"


def test_a_bot_that_answers_late_within_the_limit_and_in_pieces_plays_its_own_choices() -> None:
    slow = race(FD, ("greedy", bad("slow", 3, ";limit=1")))
    quick = race(FD, ("greedy", bad("slow", 10**6, ";limit=1")))  # option 0 at once, every time
    assert notes(slow) == [] and slow.log == quick.log


def test_lines_to_a_bot_are_the_compact_json_text_and_replies_read_as_json_reads_them() -> None:
    from slipstream.engine.play.extbots import _encode

    msg = {"t": "act", "seat": 1, "text": "P2: choisissez — 5½", "options": [{"key": "to 0:3", "value": {
        "cell": [0, 3], "squares": 11, "swerve": False, "x": 0.25, "none": None, 3: "int key"}}], "events": [], "big": 10**30}
    assert _encode(msg) == json.dumps(msg, separators=(",", ":"), ensure_ascii=False)
    with pytest.raises(TypeError):
        _encode({"t": object()})
    for raw in (b'{"choose":3}', b'{"choose": 12}', b'{ "choose" : 0 }', b'{"choose":03}', b'{"choose":-1}',
                b'{"choose":1.0}', b'{"choose":true}', b'{"choose":\t2}', b'{"choose":2,"x":1}', b'not json'):
        try:
            want = json.loads(raw)
        except ValueError:
            want = "garbage"
        try:
            got = ExternalBot._read(raw)
        except Exception as e:  # noqa: BLE001 - the fault a reply that is not JSON gets
            got = "garbage" if getattr(e, "code", "") == "garbage" else e
        assert got == want and type(got) is type(want), raw


def test_a_bot_that_never_says_ready_is_dropped_and_forfeit_plays_the_first_option() -> None:
    r = race(FD, ("greedy", bad("mute", 1, ";limit=0.2;start=0.5;fallback=forfeit")))
    (note,) = notes(r)
    assert note["fault"] == "late" and note["dropped"] and note["fallback"] == "forfeit" and note["decision"] == 1
    assert replay_lines(lines_of(r)).message == "identical"


def test_a_program_that_cannot_start_falls_back_to_a_named_bot() -> None:
    r = race(FD, ("greedy", "cmd:/nonexistent/bot;fallback=greedy"))
    (note,) = notes(r)
    assert note["fault"] == "start" and note["fallback"] == "greedy"
    # the fallback is the built-in greedy bot seeded as that seat: the same race as greedy
    plain = race(FD, ("greedy", "greedy"))
    assert [e for e in r.log if e.get("t") != "bot"] == plain.log


def test_a_log_note_for_a_seat_of_a_built_in_bot_does_not_replay() -> None:
    r = race(FD, ("greedy", bad("die", 1)))
    lines = lines_of(r)
    k = next(i for i, s in enumerate(lines) if '"t":"bot"' in s)
    lines[k] = lines[k].replace('"p":1', '"p":0')
    rep = replay_lines(lines)
    assert not rep.identical and rep.line == k + 1 and "external bot" in rep.message


def test_settings_of_a_cmd_bot_are_checked() -> None:
    assert parse_external("cmd:a.py x 'y z';limit=0.25;fallback=greedy").argv == ("a.py", "x", "y z")
    for name in ("cmd:", "cmd:a.py;limit=0", "cmd:a.py;speed=3", "cmd:a.py;lines=5", "cmd:a.py;start=-1"):
        with pytest.raises(ValueError):
            parse_external(name)
    code, out = run("race", FD, "--bots", "greedy,cmd:a.py;fallback=nobody")
    assert code == 2 and "fallback" in out
    code, out = run("race", FD, "--bots", "greedy,cmd:no/such/bot.py")
    assert code == 2 and "no bot program" in out


def test_the_act_message_hides_other_seats_secret_choices() -> None:
    rs, pk = for_pack(PACKS["speed-hazard"])
    track = pk.tracks[sorted(pk.tracks)[0]]
    game = rs.new_game(pk, track, seats_of(["random", "random"]), 2, {}, None, {}, True)
    secret = set(rs.race_view.secret_kinds)
    assert secret
    bot = ExternalBot("cmd:x.py", rs, 1, 0, RaceContext(rs, track, 2, ["P1", "P2"]))
    hello = bot.hello(game)
    assert hello["protocol"] == 1 and hello["ruleset"] == rs.id and hello["track"]["spaces"]
    json.dumps(hello)
    first = rs.make_bot("random", 1)
    while game.pending.player == 0:  # seat 0 chooses its card in secret first
        game.apply(first.choose(game, game.pending))
    msg = bot.act(game, game.pending)
    json.dumps(msg)
    assert any(e.get("t") == "decision" and e.get("p") == 0 for e in game.log)
    assert not any(e.get("t") == "decision" and e.get("p") == 0 and e.get("kind") in secret for e in msg["events"])
    assert [o["key"] for o in msg["options"]] == game.pending.keys()
    assert msg["view"] == dict(rs.view(game, 1))


def test_no_bot_outlives_a_killed_race(tmp_path: Path) -> None:
    pidfile = tmp_path / "pid"
    script = ("from slipstream.engine.play.races import RaceSpec, run_race\n"
              f"run_race(RaceSpec({FD!r}, 'tilleuls', 1, ('greedy', {f'cmd:{BAD} hang 1 {pidfile};limit=600'!r})))\n")
    parent = subprocess.Popen([sys.executable, "-c", script], env={**os.environ, "SLIPSTREAM_PURE": "1"})
    try:
        deadline = time.monotonic() + 60
        while not (pidfile.exists() and pidfile.read_text()) and time.monotonic() < deadline:
            time.sleep(0.05)
        pid = int(pidfile.read_text())
        os.kill(pid, 0)  # the bot runs
    finally:
        parent.kill()
        parent.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    else:
        os.kill(pid, 9)
        pytest.fail("the bot outlived the race that started it")


def test_race_ladder_and_replay_take_external_bots(tmp_path: Path) -> None:
    bot = f"cmd:{EXAMPLES / 'python' / 'fd_bot.py'}"
    code, out = run("race", FD, "--bots", f"greedy,{bot}", "--log", str(tmp_path))
    assert code == 0, out
    (log,) = tmp_path.glob("*.jsonl")
    code, out = run("replay", str(log))
    assert code == 0 and "identical" in out
    code, out = run("ladder", FD, "--bots", f"greedy,{bot}", "--races", "2", "--field", "0", "--format", "json")
    assert code == 0, out
    assert bot in json.dumps(json.loads(out))


def test_every_message_of_a_race_fits_its_schema(tmp_path: Path) -> None:
    from slipstream.engine.core.schema import validator

    # a bot that copies every line it reads, then answers with each option in turn
    spy = tmp_path / "spy.py"
    spy.write_text(
        "import json, sys\n"
        f"out = open({str(tmp_path / 'seen.jsonl')!r}, 'w')\n"
        "for n, line in enumerate(sys.stdin):\n"
        "    out.write(line); out.flush()\n"
        "    m = json.loads(line)\n"
        "    r = {'t': 'ready', 'name': 'spy'} if m['t'] == 'hello' else {'choose': n % len(m['options'])} if m['t'] == 'act' else None\n"
        "    if r is None: break\n"
        "    print(json.dumps(r), flush=True)\n")
    for ruleset, pack in PACKS.items():
        r = race(pack, ("greedy", f"cmd:{spy}"))
        assert notes(r) == [], ruleset
        seen = [json.loads(s) for s in (tmp_path / "seen.jsonl").read_text().splitlines()]
        assert [m["t"] for m in seen[:2]] == ["hello", "act"] and seen[-1]["t"] == "end"
        for m in seen:
            errors = list(validator(f"bot-{m['t']}").iter_errors(m))
            assert errors == [], (ruleset, m["t"], errors[:1])
        # every ruleset gives every option as structured values, costs where it has them
        acts = [m for m in seen if m["t"] == "act"]
        assert all(o.get("value") for m in acts for o in m["options"]), ruleset
        values = [o["value"] for m in acts for o in m["options"]]
        assert any("cell" in v for v in values), ruleset
        expect = {"formula-de": "costs", "automobiles": "cost", "speed-hazard": "card"}[ruleset]
        assert any(expect in v for v in values), ruleset  # a downshift's wear, a cube's price, a card
        assert seen[0]["ruleset"] == ruleset and seen[0]["seat"] == 1
        rs, _ = for_pack(pack)
        assert set(seen[0]["options"]) == {o.name for o in rs.options if o.scope == "race"}
    for reply, kind in (({"t": "ready", "name": "x"}, "ready"), ({"choose": 0}, "choose")):
        assert list(validator(f"bot-{kind}").iter_errors(reply)) == []
    assert list(validator("bot-choose").iter_errors({"choose": -1}))


def test_a_championship_with_an_external_bot_replays_identical(tmp_path: Path) -> None:
    bots = f"greedy,cmd:{EXAMPLES / 'js' / 'fd_bot.js'},cmd:{BAD} die 3"
    code, out = run("season", FD, "--bots", bots, "--log", str(tmp_path))
    assert code == 0, out
    (log,) = tmp_path.glob("*.jsonl")
    text = log.read_text()
    assert '"fault":"dead"' in text  # one note per race of the season
    code, out = run("replay", str(log))
    assert code == 0 and "identical" in out, out


def test_an_automobiles_season_with_an_external_bot_replays_identical_without_it(tmp_path: Path) -> None:
    greedy = f"cmd:{EXAMPLES / 'python' / 'automobiles_bot.py'}"
    bots = f"greedy,{greedy},cmd:{BAD} die 5"
    code, out = run("season", "--bots", bots, "--log", str(tmp_path), "--seed", "3")
    assert code == 0, out
    (log,) = tmp_path.glob("*.jsonl")
    rows = [json.loads(s) for s in log.read_text().splitlines()]
    assert [s["bot"] for s in rows[0]["seats"]] == bots.split(",")
    # the dying bot dies in every race: one fault line per race, naming it
    dead = [e for e in rows if e.get("t") == "bot"]
    assert [(e["p"], e["fault"], e["race"]) for e in dead] == [(2, "dead", k) for k in (1, 2, 3)]
    # a seat is a seat: sponsors are dealt and drafted by every seat, the external ones too
    picks = [e for e in rows if e.get("t") == "decision" and e.get("stage") == "draft"]
    assert {e["p"] for e in picks} == {0, 1, 2}
    assert any(e.get("t") == "decision" and e.get("p") == 1 and "race" in e for e in rows)
    code, out = run("replay", str(log))
    assert code == 0 and "identical" in out, out
    # the same season with the same seed comes out the same
    again = tmp_path / "again"
    code, out = run("season", "--bots", bots, "--log", str(again), "--seed", "3")
    assert code == 0, out
    def same(text: str) -> list[dict]:  # a fault's detail is the bot's own doing, not the race's
        return [{k: v for k, v in json.loads(s).items() if k != "detail"} for s in text.splitlines()]

    assert same(next(again.glob("*.jsonl")).read_text()) == same(log.read_text())


@pytest.fixture(scope="module", params=["python", "js"])
def http_bot(request: pytest.FixtureRequest):
    """The example HTTP bot server of a language on a free port: (its address, the language)."""
    lang = request.param
    cmd = [sys.executable, str(EXAMPLES / "python" / "http_bot.py")] if lang == "python" \
        else ["node", str(EXAMPLES / "js" / "http_bot.js")]
    proc = subprocess.Popen([*cmd, "--port", "0"], stdout=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()  # type: ignore[union-attr]
        assert line.startswith("listening on "), line
        yield line.split()[-1], lang
    finally:
        proc.kill()
        proc.wait()


@pytest.mark.parametrize("ruleset", sorted(PACKS))
def test_the_example_http_bot_races_every_ruleset(http_bot: tuple[str, str], ruleset: str) -> None:
    url, lang = http_bot
    r = race(PACKS[ruleset], ("greedy", url, f"{url};limit=2"))
    assert notes(r) == [] and sorted(r.standings) == [0, 1, 2]
    assert replay_lines(lines_of(r)).message == "identical"
    # the same logic over stdin/stdout plays the same race
    bot = EXAMPLES / lang / (GREEDY[ruleset] + (".py" if lang == "python" else ".js"))
    same = race(PACKS[ruleset], ("greedy", f"cmd:{bot}", f"cmd:{bot};limit=2"))
    assert [e for e in same.log] == r.log


def test_the_example_http_bot_answers_without_a_delayed_ack_wait(http_bot: tuple[str, str]) -> None:
    """A reply's head and body leave at once: with Nagle's algorithm on, Python's http.server
    held the body until the client acknowledged the head, 40 ms or more every move."""
    import http.client
    import statistics
    from urllib.parse import urlsplit

    parts = urlsplit(http_bot[0])
    conn = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=10)
    waits = []
    try:
        for _ in range(15):
            t0 = time.perf_counter()
            conn.request("POST", "/end", body=b'{"t": "end", "game": "none"}',
                         headers={"Content-Type": "application/json"})
            resp = conn.getresponse()
            assert resp.status == 200 and json.loads(resp.read()) == {}
            waits.append(time.perf_counter() - t0)
    finally:
        conn.close()
    assert statistics.median(waits) < 0.02, waits


class Misbehaving:
    """An HTTP bot server in this process that answers /move as `mode` says."""

    def __init__(self, mode: str) -> None:
        import threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        class H(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *a: object) -> None:
                pass

            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                status, body = 200, b'{"t": "ready"}'
                if self.path == "/move":
                    body = {"garbage": b"<html>", "range": b'{"choose": 99}', "status": b'{"choose": 0}',
                            "flood": b"1" * (3 << 20)}.get(mode, b'{"choose": 0}')
                    status = 500 if mode == "status" else 200
                    if mode == "sleep":
                        time.sleep(2)
                self.send_response(status)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                try:
                    self.wfile.write(body)
                except OSError:
                    pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), H)
        self.server.daemon_threads = True
        # a short poll: `shutdown` waits for the loop's next look (half a second by default)
        threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.mark.parametrize(("mode", "fault", "count"), [
    ("garbage", "garbage", 3), ("range", "range", 3), ("status", "garbage", 3), ("sleep", "late", 1),
    ("flood", "flood", 1), ("closed", "start", 1),
])
def test_a_misbehaving_http_bot_gets_the_stated_rule(mode: str, fault: str, count: int) -> None:
    srv = Misbehaving(mode)
    url = srv.url
    if mode == "closed":
        srv.close()  # nobody listens there any more
    try:
        r = race(FD, ("greedy", f"{url};limit=0.5"))
    finally:
        if mode != "closed":
            srv.close()
    got = notes(r)
    assert [n["fault"] for n in got] == [fault] * count
    assert got[-1]["dropped"] is True
    assert replay_lines(lines_of(r)).message == "identical"


def test_http_bot_names_are_checked() -> None:
    assert parse_external("http://127.0.0.1:8765/bots;limit=0.1").url == "http://127.0.0.1:8765/bots"
    for name in ("http://host", "http://:80", "http://h:80/?x=1", "http://h:99999"):
        with pytest.raises(ValueError):
            parse_external(name)


def test_formula_de_options_come_with_structured_values() -> None:
    rs, pk = for_pack(FD)
    track = pk.tracks["tilleuls"]
    game = rs.new_game(pk, track, seats_of(["greedy", "greedy"]), 3, {}, None, {}, True)
    bot = ExternalBot("cmd:x.py", rs, 0, 0, RaceContext(rs, track, 3, ["P1", "P2"]))
    greedy = rs.make_bot("greedy", 1)
    kinds = set()
    while game.pending is not None and len(kinds) < 2:
        d = game.pending
        if d.player == 0:
            msg = bot.act(game, d)
            values = [o["value"] for o in msg["options"]]
            if d.kind == "gear":
                assert [v["gear"] for v in values] == [int(k.split()[1]) for k in d.keys()]
                assert all(isinstance(v["costs"], dict) for v in values)
            elif d.kind == "move":
                for o, v in zip(msg["options"], values, strict=True):
                    assert f"({v['squares']} squares)" in o["label"] and o["key"] == f"to {v['cell'][0]}:{v['cell'][1]}"
                    assert (v["brake"] > 0) == ("brake" in o["label"])
            kinds.add(d.kind)
        game.apply(greedy.choose(game, d))
    assert kinds == {"gear", "move"}


def values_of_a_race(pack: str, seed: int = 3) -> list[tuple[str, list[tuple[str, str, dict]]]]:
    """(decision kind, [(key, label, value)]) of every decision of a race of greedy bots."""
    rs, pk = for_pack(pack)
    game = rs.new_game(pk, pk.tracks[sorted(pk.tracks)[0]], seats_of(["greedy", "greedy", "random"]), seed,
                       {}, None, {}, True)
    bots = [rs.make_bot(b, i) for i, b in enumerate(["greedy", "greedy", "random"])]
    out = []
    while game.pending is not None:
        d = game.pending
        values = rs.bot_data.option_values(game, d)
        assert len(values) == len(d.options)
        out.append((d.kind, [(o.key, o.text, v) for o, v in zip(d.options, values, strict=True)]))
        game.apply(bots[d.player].choose(game, d))
    return out


def test_speed_hazard_options_come_with_structured_values() -> None:
    seen = set()
    for kind, opts in values_of_a_race(PACKS["speed-hazard"]):
        for key, label, v in opts:
            assert v, (kind, key)
            seen.add(kind)
            if kind == "card":
                assert key.endswith(" " + v["card"]) and label == f"{v['name']} ({v['number']})"
            elif kind in ("accelerate", "brake") and key != "nitrous":
                assert v == {kind: int(key.split()[1])}
            elif kind == "luck":
                assert v["keep"] == (key == "keep") and ("cost" in v) == (key == "redraw")
            elif kind == "step" and key.startswith("to "):
                assert key == f"to {v['square']}" and len(v["cell"]) == 2
            elif kind == "sabotage" and key != "done":
                assert key == f"{v['drop']} {v['square']}"
    assert {"card", "accelerate", "brake", "step", "sabotage"} <= seen


def test_automobiles_options_come_with_structured_values() -> None:
    seen = set()
    for kind, opts in values_of_a_race(""):
        for key, label, v in opts:
            assert v, (kind, key)
            seen.add(kind)
            if key.startswith("buy "):
                assert v["buy"] == key[4:] and label.endswith(f" for ${v['cost']}")
            elif key.startswith("play "):
                assert v["play"] == key[5:] and label == f"play {v['name']}"
            elif key.startswith("to "):
                assert key == f"to {v['cell'][0]}:{v['cell'][1]}" and label.endswith(f"({v['colour']})")
            elif key in ("end", "done", "stop"):
                assert v == {"end": True}
    assert {"purchase", "buy", "action", "turn", "move"} <= seen


@pytest.mark.parametrize("ruleset", sorted(PACKS))
def test_a_bot_that_declares_many_seats_plays_them_all_in_one_process(tmp_path: Path, ruleset: str) -> None:
    multi = Path(__file__).resolve().parent / "bots" / "multi_bot.py"
    seen = tmp_path / "hellos"
    one = f"cmd:{multi} {seen}"
    r = race(PACKS[ruleset], (one, "greedy", one))
    assert notes(r) == [] and sorted(r.standings) == [0, 1, 2]
    hellos = [line.split() for line in seen.read_text().splitlines()]
    assert sorted(seat for _, seat in hellos) == ["0", "2"]
    assert len({pid for pid, _ in hellos}) == 1  # one process served both seats
    assert {e["p"] for e in r.log if e.get("t") == "decision"} >= {0, 2}
    assert replay_lines(lines_of(r)).message == "identical"
    # a bot that does not declare it gets a process per seat, and plays the same race
    seen.unlink()
    each = f"cmd:{multi} {seen} one"
    r2 = race(PACKS[ruleset], (each, "greedy", each))
    hellos = [line.split() for line in seen.read_text().splitlines()]
    assert len({pid for pid, _ in hellos}) == 2
    assert [e for e in r2.log] == r.log


def test_a_broken_conversation_of_a_many_seat_bot_drops_all_its_seats(tmp_path: Path) -> None:
    multi = Path(__file__).resolve().parent / "bots" / "multi_bot.py"
    bot = f"cmd:{multi} {tmp_path / 'hellos'} sleep;limit=0.5"
    t0 = time.monotonic()
    r = race(FD, (bot, "greedy", bot))
    assert time.monotonic() - t0 < 30  # the sleeping process was ended, not waited for
    got = [(n["fault"], n.get("dropped")) for n in notes(r)]
    assert sorted(got) == [("dead", True), ("late", True)]  # one seat timed out, the other found it gone
    assert sorted(r.standings) == [0, 1, 2]
    assert replay_lines(lines_of(r)).message == "identical"


@pytest.mark.skipif(not hasattr(os, "sched_getaffinity"), reason="CPU affinity is Linux's")
def test_a_bot_runs_on_the_engines_cpu_unless_it_asks_for_every_core(tmp_path: Path) -> None:
    bot = Path(__file__).resolve().parent / "bots" / "cores_bot.py"
    allowed = sorted(os.sched_getaffinity(0))
    seen: dict[str, list[list[int]]] = {}
    logs = []
    for mode in ("one", "any"):
        out = tmp_path / mode
        r = race(FD, (f"cmd:{bot} {out} {mode}", "greedy"))
        assert notes(r) == []
        logs.append(r.log)
        seen[mode] = [[int(c) for c in line.split()] for line in out.read_text().splitlines()]
        assert len(seen[mode]) > 10
    # kept near: one CPU at each decision (the engine's then: followed when the engine moves)
    assert all(len(cpus) == 1 and cpus[0] in allowed for cpus in seen["one"])
    # `"cores": "any"`: the engine's own set, untouched
    assert all(cpus == allowed for cpus in seen["any"])
    assert logs[0] == logs[1]  # where a bot runs changes nothing of the race
