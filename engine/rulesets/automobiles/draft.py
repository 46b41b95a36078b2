"""The sponsor draft between season races (RULES §5.3, §7.2, §8.19) and the season's driver deal.

`Draft` is a small state machine over one pending decision at a time, like a race:

    d = Draft(pool=["b1", "c2", "f3"], order=[2, 0, 1], held=["a1", None, None])
    while d.pending:
        d.apply(d.pending.options[0].key)

Pick order is the finishing order of the race just finished (the winner first). Each player
in turn either takes a sponsor from the pool (`take ID`; a sponsor they held before leaves
the season) or, holding one, keeps it (`keep`) and must then discard one sponsor of the
pool (`discard ID`). With an empty pool a holder keeps their sponsor without discarding and
a player without one gets none. What is left of the pool afterwards leaves the season.

Sponsors and drivers are only ever named by the pack's ids; the scores the bots use read the
effect data (numbers of removals, budgets, gains), never a particular sponsor or driver.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from slipstream.engine.play.decisions import Decision, Option, Rejection, opt

BRACKETS = ("first", "middle", "last")


def bracket_for(place: int, players: int) -> str:
    """Sponsor bracket of a finishing place (1 = winner): first, middle or last."""
    if place == 1:
        return "first"
    if place == players:
        return "last"
    return "middle"


def draw_pool(deck: list[str], size: int, level_of: Mapping[str, int] | None = None,
              level: int | None = None) -> list[str]:
    """Take the pool off the top of the deck (in place): up to `size` sponsors, only of `level`
    when given. A short deck gives a short pool (pool exhaustion)."""
    pool: list[str] = []
    for sid in list(deck):
        if len(pool) >= size:
            break
        if level is not None and level_of is not None and level_of.get(sid) != level:
            continue
        deck.remove(sid)
        pool.append(sid)
    return pool


class Draft:
    """One sponsor draft: pick order, pool, held sponsors, and the decisions still to make."""

    def __init__(self, pool: Sequence[str], order: Sequence[int], held: Sequence[str | None]) -> None:
        self.pool: list[str] = list(pool)
        self.offered: tuple[str, ...] = tuple(pool)
        self.order: list[int] = list(order)
        self.held: list[str | None] = list(held)
        self.events: list[dict[str, Any]] = []
        self.left_out: list[str] = []  # sponsors that leave the season (replaced, discarded, unpicked)
        self.i = 0
        self.discarding = False
        self.pending: Decision | None = None
        self.advance()

    @property
    def over(self) -> bool:
        return self.pending is None

    def advance(self) -> None:
        while self.i < len(self.order):
            p = self.order[self.i]
            if self.discarding:
                if self.pool:
                    self.pending = Decision(p, "draft_discard", tuple(
                        opt(f"discard {s}", f"discard {s} from the pool") for s in self.pool),
                        "you kept your sponsor: discard one sponsor from the pool")
                    return
                self.discarding = False
                self.i += 1
                continue
            opts: list[Option] = [opt(f"take {s}", f"take sponsor {s}") for s in self.pool]
            if self.held[p] is not None:
                opts.append(opt("keep", f"keep {self.held[p]}"
                                + (" and discard one from the pool" if self.pool else "")))
            if not opts:
                self.events.append({"ev": "draft_none", "p": p})
                self.i += 1
                continue
            if len(opts) == 1 and opts[0].key == "keep":
                # nothing to choose: an empty pool leaves the holder with their sponsor
                self.events.append({"ev": "draft_keep", "p": p, "sponsor": self.held[p],
                                    "discard": None})
                self.i += 1
                continue
            self.pending = Decision(p, "draft", tuple(opts),
                                    "take a sponsor from the pool" + (" or keep yours" if self.held[p] else ""))
            return
        self.left_out += self.pool
        if self.pool:
            self.events.append({"ev": "draft_unpicked", "sponsors": list(self.pool)})
        self.pool = []
        self.pending = None

    def apply(self, key: str) -> Rejection | None:
        d = self.pending
        if d is None:
            return Rejection("race-over", "the draft is over; no decision is pending")
        if d.option(key) is None:
            return Rejection("not-an-option", f"{key!r} is not a legal option of this {d.kind} decision",
                             tuple(d.keys()))
        p = d.player
        if d.kind == "draft_discard":
            s = key[len("discard "):]
            self.pool.remove(s)
            self.left_out.append(s)
            self.events.append({"ev": "draft_keep", "p": p, "sponsor": self.held[p], "discard": s})
            self.discarding = False
            self.i += 1
        elif key == "keep":
            self.discarding = True
        else:
            s = key[len("take "):]
            self.pool.remove(s)
            old = self.held[p]
            if old is not None:
                self.left_out.append(old)
            self.held[p] = s
            self.events.append({"ev": "draft_take", "p": p, "sponsor": s, "replaced": old})
            self.i += 1
        self.advance()
        return None


# ---------------------------------------------------------------------------------------------
# Simple evaluations for bots (data-driven: they read numbers out of effect lists)
# ---------------------------------------------------------------------------------------------


def _estimate(x: Any, standard: float = 1.0) -> float:
    """A rough value of a count expression (how many cubes it will usually mean)."""
    if isinstance(x, bool):
        return 0.0
    if isinstance(x, int | float):
        return float(x)
    if x == "all":
        return 4.0
    if isinstance(x, Mapping):
        if "up_to" in x:
            return _estimate(x["up_to"], standard)
        if "product" in x:
            out = 1.0
            for v in x["product"]:
                out *= _estimate(v, standard)
            return out
        if "sum" in x:
            return sum(_estimate(v, standard) for v in x["sum"])
        if "min" in x:
            return min((_estimate(v, standard) for v in x["min"]), default=0.0)
        if "max" in x:
            return max((_estimate(v, standard) for v in x["max"]), default=0.0)
        if "count" in x or "selected" in x:
            return standard
    return 1.0


def kind_roles(rules: Any) -> tuple[dict[str, float], frozenset[str]]:
    """(value of a free cube by kind id, ids of the wear-role kinds) from the pack's cubes:
    a gear is worth its shade - 2.5 (white 0.5 ... black 3.5), as the bots have always rated
    them."""
    gears = {k.id: k.gear - 2.5 for k in rules.kinds if k.role == "gear" and k.gear is not None}
    return gears, frozenset(k.id for k in rules.kinds if k.role == "wear")


def effect_score(effects: Sequence[Any], *, wear_owned: int = 4, gear_value: Mapping[str, float] | None = None,
                 cost_of: Mapping[str, int] | None = None, rules: Any = None) -> float:
    """How much an effect list between races helps its holder (higher is better).

    Removals are worth a little (a leaner bag), wear removals more while there is wear to
    remove, budgets by their size, free cubes by their gear. Deliberately simple. With `rules`,
    gear values and the wear kind come from the pack's cube kinds (their shades and roles).
    """
    wear_ids: frozenset[str] = frozenset({"wear"})
    if rules is not None:
        derived, wear_ids = kind_roles(rules)
        gear_value = gear_value or derived
    gear_value = gear_value or {"gear-3": 0.5, "gear-4": 1.5, "gear-5": 2.5, "gear-6": 3.5}
    score = 0.0
    wear_left = float(wear_owned)
    standard = 1.0
    for eff in effects:
        if not isinstance(eff, Mapping) or len(eff) != 1:
            continue
        (name, arg), = eff.items()
        if name == "remove" and isinstance(arg, Mapping):
            n = _estimate(arg.get("count", 1), standard)
            if arg.get("as") == "standard":
                standard = n
            if arg.get("kind") in wear_ids:
                got = min(n, wear_left)
                wear_left -= got
                score += 1.2 * got
            else:
                got_w = min(n, wear_left)
                wear_left -= got_w
                score += 1.2 * got_w + 0.3 * (n - got_w)
        elif name == "shop" and isinstance(arg, Mapping):
            score += 0.6 * _estimate(arg.get("budget", 0), standard)
        elif name == "gain" and isinstance(arg, Mapping):
            n = _estimate(arg.get("count", 1), standard)
            kinds = [arg["kind"]] if "kind" in arg else list(arg.get("kinds", []))
            best = max((gear_value.get(k, 1.0) for k in kinds), default=1.0)
            score += n * best
        elif name == "gain_wear":
            score -= 1.2 * _estimate(arg, standard)
        elif name == "draw":
            score += 0.5
    return score


def driver_score(hooks: Mapping[str, Sequence[Any]]) -> float:
    """A driver's value: what its abilities do (moves and draws count most), summed over hooks."""
    weights = {"drive": 3.0, "draw": 2.0, "remove": 1.5, "move_cubes": 1.0, "distribute": 1.0,
               "gain": 1.0, "shop": 1.0}
    total = 0.0

    def walk(x: Any) -> None:
        nonlocal total
        if isinstance(x, Mapping):
            for k, v in x.items():
                if k in weights:
                    total += weights[k]
                walk(v)
        elif isinstance(x, list | tuple):
            for v in x:
                walk(v)

    for eff in hooks.values():
        walk(eff)
    return total
