"""The compiled accelerator (engine/core/accel.py) for the Formula Dé-style and speed-and-hazard
rulesets: their compiled modules play the same races as their .py files, byte for byte."""

from __future__ import annotations

from slipstream.engine.core import accel

from .test_accel import play

# Seeded races of both rulesets through the registry, as the CLI plays them: every track of
# their bundled packs, greedy, random and look-ahead seats (the look-ahead bots play on copies
# of the game), several cars a player, rule options; then a Formula Dé championship. Prints the
# accelerator's state and which of the rulesets' modules are compiled, then one sha256 a log.
_PLAY = r"""
import hashlib
from slipstream.engine.core.accel import status
from slipstream.engine.packs.loader import bundled_packs
from slipstream.engine.play import registry
from slipstream.engine.play.racelog import dumps
from slipstream.engine.play.protocol import SeasonPlan
from slipstream.engine.play.races import RaceSpec
st = status()
print(st.state, sum(".formula_de." in m or ".speed_hazard." in m for m in st.modules))
packs = bundled_packs()

def digest(r):
    text = "\n".join([dumps(r.header), *(dumps(x) for x in r.log), dumps(r.result)])
    return hashlib.sha256(text.encode()).hexdigest()

fd_opts = ((), (("wear_model", "basic"),), (("downshift_needs_points", False), ("collision_diagonal", False)),
           (("cars_per_player", 2),), (("pit_entry_max_gear", 4), ("tyre_limit_counts", "all"),
                                       ("stall_first_gear", False), ("flying_start_swerve", "each-step")))
fd_seats = (("greedy",) * 4, ("greedy", "random", "greedy"), ("random",) * 5, ("greedy", "greedy"),
            ("greedy",) * 6)
sh_opts = ((), (("u_turn", True), ("u_turn_lanes", "skid-any-lane"), ("reverse_laps", "unchanged")),
           (("nitrous_until", "curve"), ("ram_beside", True)),
           (("all_pit_entries", True), ("check_leaving_curve", True), ("sabotage_start_square", False)),
           (("curve_accel_hazards", "over"), ("pit_wall_slide", False)))
sh_seats = (("greedy",) * 4, ("greedy", "random", "greedy"), ("random",) * 4, ("greedy",) * 6, ("greedy", "greedy"))
for rid, opts, seats, look in (("formula-de", fd_opts, fd_seats, ("lookahead:1", "greedy")),
                               ("speed-hazard", sh_opts, sh_seats, ("lookahead:1", "greedy", "random"))):
    rs = registry.get(rid)
    pack = str(packs[rid])
    tracks = sorted(registry.load_pack(pack).tracks)
    for tid in tracks:
        for seed in range(8):
            laps = 1 if seed % 2 else None
            race = RaceSpec(pack, tid, seed, seats[seed % 5], laps=laps, options=opts[seed % 5])
            print(digest(rs.run_race(race)))
        print(digest(rs.run_race(RaceSpec(pack, tid, 7, look, laps=1))))
fd = registry.get("formula-de")
season = fd.seasons.run(SeasonPlan(str(packs["formula-de"]), ("tilleuls", "tilleuls"), 3, ("greedy", "greedy", "random"),
                                   laps=1, record=True))
print(hashlib.sha256("\n".join(season.lines).encode()).hexdigest())
"""


def test_compiled_and_pure_python_formula_de_and_speed_hazard_give_the_same_bytes() -> None:
    """With a build in place (`python3 dev.py test` makes one), the rulesets' compiled modules
    play the same races and championship as their .py files, byte for byte."""
    pure, fast = play(_PLAY, pure=True), play(_PLAY, pure=False)
    assert pure[:2] == ["off", "0"]
    if (accel.BUILD / "manifest.json").is_file():
        assert fast[0] == "on", "a build is there but was not used: python3 dev.py build"
        assert int(fast[1]) >= 2, "no module of either ruleset is compiled"
    assert len(pure) == 2 + 2 * 9 + 1
    assert len(set(pure[2:])) == len(pure) - 2  # every race is a race of its own
    assert fast[2:] == pure[2:]
