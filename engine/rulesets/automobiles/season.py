"""Seasons: a championship of 3-5 races with drivers, sponsors and points (RULES §5.2, §5.3, §7.2).

A `Season` is a state machine over one pending decision at a time, like a race (`Game`):

    season = Season(rules, [track_a, track_b, track_c], seats, seed=7)
    while season.pending is not None:
        d = season.pending
        season.apply(d.options[0].key)

Stages: the driver deal (players + 1 drivers, chosen in race-1 turn order; only with the
`drivers` option), then each race, and between two races the sponsor draft (`draft.Draft`)
followed by every holder's sponsor effect, in finishing order, for the bracket of their
place in the race just finished. Race decisions are the race's own (`Game`); sponsor
effects run through the same effect interpreter with all of the holder's cubes in the bag.

What carries over: each player's cube collection (all back into the bag before a race,
then the usual draw of 7), the stock (never refilled), the driver and the sponsor. Race 1
has a random grid and the grid purchase; later races start in the previous finishing order
(winner on pole, or reversed with `season_grid: reverse`) without a purchase. Points per
place come from the pack's `season_points` option; the season tie-break is the better place
in the last race.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from slipstream.engine.play.decisions import Decision, Rejection, opt
from slipstream.engine.rulesets.automobiles.draft import (
    Draft,
    bracket_for,
    draw_pool,
    driver_score,
    effect_score,
)
from slipstream.engine.rulesets.automobiles.game import UNLIMITED_WEAR, Game, Seat
from slipstream.engine.rulesets.automobiles.phases import RaceFrame
from slipstream.engine.rulesets.automobiles.rules import Ruleset
from slipstream.engine.rulesets.automobiles.state import BAG, Car
from slipstream.engine.tracks.track import Track

SEASON_OPTIONS = ("season_grid", "season_grid_purchase", "season_points", "drivers",
                  "sponsor_level_by_draft", "sponsor_pool_extra")


@dataclass(frozen=True, slots=True)
class SeasonConfig:
    """The season rules of a pack (rules.yaml options and constants), possibly overridden."""

    grid: str = "winner_pole"  # winner_pole | reverse
    grid_purchase: bool = False
    points: tuple[int, ...] | str = "players_minus_place"
    drivers: bool = False
    pool_extra: int = 1
    level_by_draft: bool = False

    def points_for(self, place: int, players: int) -> int:
        """Season points for a finishing place (1 = winner)."""
        if isinstance(self.points, str):
            return players - place + 1
        return self.points[place - 1] if place <= len(self.points) else 0

    def as_dict(self) -> dict[str, Any]:
        return {"season_grid": self.grid, "season_grid_purchase": self.grid_purchase,
                "season_points": list(self.points) if not isinstance(self.points, str) else self.points,
                "drivers": self.drivers, "sponsor_pool_extra": self.pool_extra,
                "sponsor_level_by_draft": self.level_by_draft}


def season_config(pack: Any, overrides: Mapping[str, Any] | None = None) -> SeasonConfig:
    """The season rules of a loaded pack, with `overrides` by option name (SEASON_OPTIONS)."""
    vals: dict[str, Any] = {}
    rules = getattr(pack, "rules", None)
    if rules is not None:
        vals.update({k: v for k, v in rules.options.items() if k in SEASON_OPTIONS})
        vals["sponsor_pool_extra"] = rules.sponsor_pool_extra
    vals.update({k: v for k, v in (overrides or {}).items() if k in SEASON_OPTIONS})
    pts = vals.get("season_points", "players_minus_place")
    if isinstance(pts, list | tuple):
        pts = tuple(int(x) for x in pts)
    elif pts != "players_minus_place":
        raise ValueError(f"season_points must be players_minus_place or a list, not {pts!r}")
    grid = vals.get("season_grid", "winner_pole")
    if grid not in ("winner_pole", "reverse"):
        raise ValueError(f"season_grid must be winner_pole or reverse, not {grid!r}")
    return SeasonConfig(grid=grid, grid_purchase=bool(vals.get("season_grid_purchase", False)),
                        points=pts, drivers=bool(vals.get("drivers", False)),
                        pool_extra=int(vals.get("sponsor_pool_extra", 1)),
                        level_by_draft=bool(vals.get("sponsor_level_by_draft", False)))


def next_grid(finish: Sequence[int], mode: str) -> list[int]:
    """Grid of the next race from the finishing order (winner first)."""
    return list(finish) if mode == "winner_pole" else list(reversed(finish))


def season_standings(points: Sequence[int], last_finish: Sequence[int]) -> list[int]:
    """Players by season points, ties broken by the better place in the last race."""
    place = {p: i for i, p in enumerate(last_finish)}
    return sorted(range(len(points)), key=lambda p: (-points[p], place.get(p, len(points))))


@dataclass(slots=True)
class RaceRecord:
    """One finished race of a season."""

    track: str
    seed: int
    grid: list[int]
    finish: list[int]
    points: list[int]  # points scored in this race, by player
    sponsors: list[str | None]  # sponsor held by each player during the race
    rounds: int
    capped: bool
    supply: list[int]  # cubes per kind (stock + every collection) at the start of the race
    stock_left: dict[str, int]  # the stock at the end of the race (unlimited wear left out)
    # the race's counts (wear, pits, cubes bought and played...) and the race order after every
    # round, the final standings last: what the batch measures read (engine/play/measures.py)
    stats: dict[str, Any] = field(default_factory=dict)
    orders: list[list[int]] = field(default_factory=list)


@dataclass(slots=True)
class DraftRecord:
    after_race: int
    pool: list[str]
    order: list[int]
    events: list[dict[str, Any]]
    applied: list[tuple[int, str, str]]  # (player, sponsor, bracket) in application order


class Season:
    """A whole season as one decision stream (drivers, races, drafts, sponsor effects)."""

    def __init__(self, rules: Ruleset, tracks: Sequence[Track], seats: Sequence[Seat], seed: int = 0,
                 config: SeasonConfig | None = None, laps: int | None = None, record: bool = True) -> None:
        if not tracks:
            raise ValueError("a season needs at least one track")
        self.rules = rules
        self.tracks = list(tracks)
        self.seats = list(seats)
        self.seed = seed
        self.config = config or SeasonConfig()
        self.laps = laps
        self.record = record
        self.log: list[dict[str, Any]] = []
        self.decision_count = 0
        n = len(seats)
        self.rng = random.Random(f"season/{seed}")
        self.race_seeds = [self.rng.randrange(2**31) for _ in self.tracks]
        grid = list(range(n))
        self.rng.shuffle(grid)
        self.grid = grid
        self.first_grid = list(grid)
        # the stock and the collections (everything a player owns is in `owned` between races)
        stock = [k.supply for k in rules.kinds]
        if rules.wear >= 0 and rules.options.unlimited_wear:
            stock[rules.wear] = UNLIMITED_WEAR
        self.stock = stock
        self.owned: list[list[int]] = [[0] * len(rules.kinds) for _ in range(n)]
        for p in range(n):
            for kid, cnt in rules.starting_bag.items():
                try:
                    k = rules.kind(kid)
                except KeyError:
                    continue
                take = min(cnt, stock[k])
                stock[k] -= take
                self.owned[p][k] += take
        self.deck = [s.id for s in rules.sponsors]
        self.rng.shuffle(self.deck)
        self.sponsors: list[str | None] = [None] * n
        self.drivers: list[str | None] = [s.driver for s in seats]
        self.points = [0] * n
        self.races: list[RaceRecord] = []
        self.drafts: list[DraftRecord] = []
        self.race_no = 0
        self.game: Game | None = None
        self.draft: Draft | None = None
        self.pending: Decision | None = None
        self.stage = "drivers"
        self._mark = 0
        self._sponsor_queue: list[tuple[int, str, str]] = []
        self._applying: tuple[int, str, list[int]] | None = None
        # (after race, player, sponsor, removed, gained) for every sponsor applied
        self.sponsor_changes: list[tuple[int, int, str, dict[str, int], dict[str, int]]] = []
        self._deal: list[str] = []
        self._pick_i = 0
        self._draft_finish: list[int] = []
        self.races_supply: list[int] = []
        self._orders: list[list[int]] = []  # the current race's order after every round
        self._round = 0
        if self.config.drivers and rules.drivers and not any(self.drivers):
            ids = [d.id for d in rules.drivers]
            self.rng.shuffle(ids)
            self._deal = ids[:n + 1]
            self.emit("driver_deal", drivers=list(self._deal))
        self.emit("grid", race=0, order=[self.seats[p].name for p in self.grid])
        self.advance()

    # ----------------------------------------------------------------------------- API
    @property
    def over(self) -> bool:
        return self.stage == "done"

    @property
    def standings(self) -> list[int]:
        last = self.races[-1].finish if self.races else list(range(len(self.seats)))
        return season_standings(self.points, last)

    def emit(self, ev: str, **data: Any) -> None:
        if self.record:
            self.log.append({"t": "event", "ev": ev, **data})

    def supply_totals(self) -> list[int]:
        """Cubes per kind over the stock and every collection (constant over a season)."""
        tot = self.stock[:]
        for row in self.owned:
            for k, c in enumerate(row):
                tot[k] += c
        return tot

    def apply(self, key: str) -> Rejection | None:
        d = self.pending
        if d is None:
            return Rejection("race-over", "the season is over; no decision is pending")
        if self.stage in ("race", "sponsors"):
            assert self.game is not None
            g = self.game
            r = g.apply(key)
            if r is None:
                if self.stage == "race" and g.pending is not None and g.rounds != self._round:
                    self._round = g.rounds
                    self._orders.append(list(g.standings()))
                self.decision_count += 1
                self.advance()
            return r
        if d.option(key) is None:
            return Rejection("not-an-option", f"{key!r} is not a legal option of this {d.kind} decision",
                             tuple(d.keys()))
        if self.record:
            self.log.append({"t": "decision", "n": self.decision_count, "p": d.player,
                             "kind": d.kind, "choice": key, "stage": self.stage})
        self.decision_count += 1
        if self.stage == "drivers":
            did = key[len("driver "):]
            self.drivers[d.player] = did
            self._deal.remove(did)
            self.emit("driver", p=d.player, driver=did)
            self._pick_i += 1
        elif self.stage == "draft":
            assert self.draft is not None
            self.draft.apply(key)
        self.advance()
        return None

    # ----------------------------------------------------------------------------- flow
    def advance(self) -> None:
        while True:
            if self.stage == "drivers":
                if self._deal and self._pick_i < len(self.seats):
                    p = self.grid[self._pick_i]
                    names = {d.id: d.name for d in self.rules.drivers}
                    self.pending = Decision(p, "driver", tuple(opt(f"driver {i}", names.get(i, i))
                                                               for i in self._deal),
                                            "choose your driver for the season")
                    return
                self.start_race()
                continue
            if self.stage == "race":
                assert self.game is not None
                if self.game.pending is not None:
                    self.pending = self.game.pending
                    return
                self.end_race()
                continue
            if self.stage == "draft":
                assert self.draft is not None
                if self.draft.pending is not None:
                    self.pending = self.draft.pending
                    return
                self.end_draft()
                continue
            if self.stage == "sponsors":
                assert self.game is not None
                if self.game.pending is not None:
                    self.pending = self.game.pending
                    return
                self._flush()
                self._sponsor_done()
                if self._sponsor_queue:
                    p, sid, br = self._sponsor_queue.pop(0)
                    self.emit("sponsor", p=p, sponsor=sid, bracket=br)
                    self._applying = (p, sid, self._owned_now(p))
                    # the finished race's state is reopened for the between-race effects
                    self.game.race.over = False
                    self.game.run_effects(p, self.rules.sponsor(sid).effects[br], sid)
                    continue
                self.collect(self.game)
                self.start_race()
                continue
            self.pending = None
            return

    def _owned_now(self, p: int) -> list[int]:
        assert self.game is not None
        zones = self.game.race.players[p].zones
        return [sum(z[k] for z in zones) for k in range(len(self.rules.kinds))]

    def _sponsor_done(self) -> None:
        """Log what the sponsor just applied changed in its holder's collection."""
        if self._applying is None:
            return
        p, sid, before = self._applying
        self._applying = None
        after = self._owned_now(p)
        ids = [k.id for k in self.rules.kinds]
        removed = {ids[k]: b - a for k, (b, a) in enumerate(zip(before, after, strict=True)) if b > a}
        gained = {ids[k]: a - b for k, (b, a) in enumerate(zip(before, after, strict=True)) if a > b}
        self.sponsor_changes.append((self.race_no, p, sid, removed, gained))
        self.emit("sponsor_done", p=p, sponsor=sid, removed=removed, gained=gained)

    def start_race(self) -> None:
        r = self.race_no
        track = self.tracks[r]
        seats = [Seat(s.name, s.bot, self.drivers[i]) for i, s in enumerate(self.seats)]
        g = Game(self.rules, track, seats, seed=self.race_seeds[r], laps=self.laps, record=self.record,
                 drivers=False, setup=False)
        race = g.race
        race.order = list(self.grid)
        g.starting_order = tuple(self.grid)
        for slot, p in enumerate(self.grid):
            gs = track.grid[slot] if slot < len(track.grid) else track.grid[-1]
            race.players[p].car = Car(gs.lane, gs.segment, 0 if gs.segment == 0 else -1)
        race.stock = self.stock[:]
        for p, row in enumerate(self.owned):
            race.players[p].zones[BAG] = row[:]
            race.players[p].sponsor = self.sponsors[p]
        self.races_supply = self.supply_totals()
        if self.record:
            self.log.append({"t": "race", "race": r + 1, "track": track.id, "seed": self.race_seeds[r],
                             "laps": race.laps, "grid": [self.seats[p].name for p in self.grid],
                             "drivers": list(self.drivers), "sponsors": list(self.sponsors),
                             "bags": [self._zone(row) for row in self.owned]})
        self.game = g
        self._mark = 0
        self.stage = "race"
        purchase = r == 0 or self.config.grid_purchase
        g.stack.append(RaceFrame("purchase" if purchase else "draw"))
        g.advance()
        self._orders, self._round = [], g.rounds

    def _zone(self, row: Sequence[int]) -> dict[str, int]:
        return {self.rules.kinds[k].id: c for k, c in enumerate(row) if c}

    def _flush(self) -> None:
        g = self.game
        if g is None or not self.record:
            return
        # race entries carry their race number, sponsor effects the race they follow
        tag = {"after_race": self.race_no} if self.stage == "sponsors" else {"race": self.race_no + 1}
        for e in g.log[self._mark:]:
            self.log.append({**e, **tag})
        self._mark = len(g.log)

    def collect(self, g: Game) -> None:
        """Every cube a player owns goes back to their bag; the stock carries over."""
        nk = len(self.rules.kinds)
        for p, pl in enumerate(g.race.players):
            row = [sum(z[k] for z in pl.zones) for k in range(nk)]
            self.owned[p] = row
            for z in pl.zones:
                for k in range(nk):
                    z[k] = 0
            pl.zones[BAG][:] = row
        self.stock = g.race.stock[:]

    def end_race(self) -> None:
        g = self.game
        assert g is not None
        self._flush()
        finish = g.standings()
        n = len(self.seats)
        pts = [0] * n
        for place, p in enumerate(finish, start=1):
            pts[p] = self.config.points_for(place, n)
            self.points[p] += pts[p]
        self.races.append(RaceRecord(g.track.id, self.race_seeds[self.race_no], list(self.grid), finish, pts,
                                     list(self.sponsors), g.race.round, g.race.capped, self.races_supply,
                                     {k.id: g.race.stock[k.index] for k in self.rules.kinds
                                      if not (k.index == self.rules.wear and self.rules.options.unlimited_wear)},
                                     copy.deepcopy(g.race.stats), [*self._orders, list(finish)]))
        self.collect(g)
        if self.record:
            self.log.append({"t": "result", "race": self.race_no + 1,
                             "finish": [self.seats[p].name for p in finish], "points": pts,
                             "totals": list(self.points), "rounds": g.race.round, "capped": g.race.capped,
                             "owned": [self._zone(row) for row in self.owned], "stock": self._zone(self.stock)})
        self.race_no += 1
        if self.race_no >= len(self.tracks):
            self.stage = "done"
            self.game = None
            if self.record:
                self.log.append({"t": "season_result",
                                 "standings": [self.seats[p].name for p in self.standings],
                                 "points": list(self.points),
                                 "drivers": list(self.drivers), "sponsors": list(self.sponsors)})
            return
        self.grid = next_grid(finish, self.config.grid)
        self.emit("grid", race=self.race_no, order=[self.seats[p].name for p in self.grid])
        # the draft
        draft_no = self.race_no
        level = min(draft_no, 3) if self.config.level_by_draft else None
        pool = draw_pool(self.deck, n + self.config.pool_extra, {s.id: s.level for s in self.rules.sponsors},
                         level)
        self.emit("draft_pool", race=self.race_no, pool=list(pool), order=[self.seats[p].name for p in finish])
        self.draft = Draft(pool, finish, self.sponsors)
        self._draft_finish = finish
        self.stage = "draft"

    def end_draft(self) -> None:
        d = self.draft
        assert d is not None
        for e in d.events:
            self.emit(e["ev"], **{k: v for k, v in e.items() if k != "ev"})
        self.sponsors = list(d.held)
        n = len(self.seats)
        queue = []
        for place, p in enumerate(self._draft_finish, start=1):
            sid = self.sponsors[p]
            if sid is not None:
                queue.append((p, sid, bracket_for(place, n)))
        self.drafts.append(DraftRecord(self.race_no, list(d.offered), list(self._draft_finish),
                                       list(d.events), list(queue)))
        self._sponsor_queue = queue
        self.draft = None
        self.stage = "sponsors"
        g = self.game
        assert g is not None
        self._mark = len(g.log)
        for pl in g.race.players:
            pl.sponsor = self.sponsors[pl.seat]


# ---------------------------------------------------------------------------------------------
# Bots in a season: race decisions go to the race bots; drivers and the draft are chosen here
# ---------------------------------------------------------------------------------------------


def choose_season(season: Season, bot: Any, d: Decision, policy: str = "value") -> str:
    """A bot's choice for a season-level decision (driver, draft, discard).

    Random bots choose at random; the others value drivers and sponsors by their effect data
    (`draft.driver_score`, `draft.effect_score`). `policy="random"` makes every bot draft
    sponsors at random (to measure sponsors without the pick order's bias).
    """
    if getattr(bot, "name", "") == "random" or (policy == "random" and d.kind != "driver"):
        return str(bot.rng.choice(d.options).key)
    rs = season.rules
    if d.kind == "driver":
        hooks = {dd.id: dd.hooks for dd in rs.drivers}
        return max(d.options, key=lambda o: driver_score(hooks.get(o.key[len("driver "):], {}))).key
    p = d.player
    finish = season.races[-1].finish if season.races else list(range(len(season.seats)))
    br = bracket_for(finish.index(p) + 1, len(season.seats))
    wear_owned = season.owned[p][rs.wear] if rs.wear >= 0 else 0

    def value(sid: str) -> float:
        return effect_score(rs.sponsor(sid).effects.get(br, ()), wear_owned=wear_owned, rules=rs)

    if d.kind == "draft":
        best = max(d.options, key=lambda o: value(season.sponsors[p] or "") if o.key == "keep"
                   else value(o.key[len("take "):]))
        return best.key
    if d.kind == "draft_discard":  # deny the strongest remaining sponsor
        return max(d.options, key=lambda o: value(o.key[len("discard "):])).key
    return d.options[0].key


SEASON_KINDS = ("driver", "draft", "draft_discard")


def play_season(season: Season, bots: Sequence[Any], max_decisions: int = 2_000_000,
                policy: str = "value") -> int:
    """Let bots play the season out; returns the number of decisions made."""
    n = 0
    while season.pending is not None:
        d = season.pending
        if season.stage in ("drivers", "draft"):
            key = choose_season(season, bots[d.player], d, policy)
        else:
            assert season.game is not None
            bot = bots[d.player]
            between = season.stage == "sponsors" and hasattr(bot, "choose_between_races")
            key = (bot.choose_between_races if between else bot.choose)(season.game, d)
        r = season.apply(key)
        if r is not None:
            raise AssertionError(f"bot {bots[d.player].name} chose an illegal option: {r}")
        n += 1
        if n > max_decisions:
            raise AssertionError("season did not end")
    return n
