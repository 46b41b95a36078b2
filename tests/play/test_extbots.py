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

    # a bot that copies every line it reads, then answers like the random bot
    spy = tmp_path / "spy.py"
    spy.write_text(
        "import json, sys\n"
        f"out = open({str(tmp_path / 'seen.jsonl')!r}, 'w')\n"
        "for line in sys.stdin:\n"
        "    out.write(line); out.flush()\n"
        "    m = json.loads(line)\n"
        "    r = {'t': 'ready', 'name': 'spy'} if m['t'] == 'hello' else {'choose': len(m['options']) - 1} if m['t'] == 'act' else None\n"
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


def test_automobiles_seasons_refuse_external_bots() -> None:
    code, out = run("season", "--bots", f"greedy,cmd:{EXAMPLES / 'python' / 'random_bot.py'}")
    assert code == 2 and "cmd:" in out


@pytest.fixture(scope="module")
def http_bot():
    """The example HTTP bot server on a free port (its address)."""
    proc = subprocess.Popen([sys.executable, str(EXAMPLES / "python" / "http_bot.py"), "--port", "0"],
                            stdout=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()  # type: ignore[union-attr]
        assert line.startswith("listening on "), line
        yield line.split()[-1]
    finally:
        proc.kill()
        proc.wait()


@pytest.mark.parametrize("ruleset", sorted(PACKS))
def test_the_example_http_bot_races_every_ruleset(http_bot: str, ruleset: str) -> None:
    r = race(PACKS[ruleset], ("greedy", http_bot, f"{http_bot};limit=2"))
    assert notes(r) == [] and sorted(r.standings) == [0, 1, 2]
    assert replay_lines(lines_of(r)).message == "identical"
    # the same logic over stdin/stdout plays the same race
    same = race(PACKS[ruleset], ("greedy", f"cmd:{EXAMPLES / 'python' / (GREEDY[ruleset] + '.py')}",
                                 f"cmd:{EXAMPLES / 'python' / (GREEDY[ruleset] + '.py')};limit=2"))
    assert [e for e in same.log] == r.log


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
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
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
    rs2, _ = for_pack(PACKS["speed-hazard"])
    assert rs2.bot_data is None  # options of the others come with keys and labels only
