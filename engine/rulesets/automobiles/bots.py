"""Bots behind one small strategy interface: `choose(game, decision) -> option key`.

`random` picks uniformly among the legal options. `greedy` plans the turn's gear play over
the move graph directly (a memoised search over cells and the gear cubes in hand, no state
copies), pits when wear clogs its hand, and buys toward fast gears and wear removal. Bots
classify cube kinds by their effect data (moves, removals), never by a card's name.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from slipstream.engine.play.decisions import Decision
from slipstream.engine.play.races import play_out
from slipstream.engine.rulesets.automobiles.effects import Ctx, count_spec
from slipstream.engine.rulesets.automobiles.game import Game
from slipstream.engine.rulesets.automobiles.movement import drafts, step_targets
from slipstream.engine.rulesets.automobiles.state import ACTIVE, BAG, DISCARD, USED, Car


class Bot:
    """The strategy interface: a new bot is one subclass with `choose`."""

    name = "bot"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game, decision: Decision) -> str:
        raise NotImplementedError

    def choose_between_races(self, game: Game, decision: Decision) -> str:
        """Decisions of sponsor effects between two races of a season (default: `choose`)."""
        return self.choose(game, decision)


class RandomBot(Bot):
    name = "random"

    def choose(self, game: Game, decision: Decision) -> str:
        return self.rng.choice(decision.options).key


def _walk(x: Any) -> Any:
    if isinstance(x, dict):
        for k, v in x.items():
            yield k, v
            yield from _walk(v)
    elif isinstance(x, list | tuple):
        for v in x:
            yield from _walk(v)


def _only_role(rules: Any, spec: Any, role: str) -> bool:
    """The kind filter of `spec` (kind / kinds / not_kinds) selects only cubes of `role` (the
    roles of the pack's cubes.yaml); an unfiltered step selects any cube, so not only one role."""
    if not isinstance(spec, dict) or not any(k in spec for k in ("kind", "kinds", "not_kinds")):
        return False
    from slipstream.engine.rulesets.automobiles.effects import _kind_filter

    allowed = _kind_filter(rules, spec)
    return bool(allowed) and all(rules.kinds[k].role == role for k in allowed)


def _traits(effect: Any, rules: Any) -> set[str]:
    """What an effect list does, read from its data wherever a step stands (inside `if`,
    `choose_one`, `schedule`, `others`, ...): `mover` (moves a cube or the car), `cleaner`
    (removes cubes), `wear_cleaner` (removes only wear-role cubes), `wearing` (gains wear),
    `payer` (pays money), `discount` (lowers a Buy price)."""
    out = set()
    for k, v in _walk(effect):
        if k in ("move", "drive"):
            out.add("mover")
        elif k == "remove":
            out.add("cleaner")
            if _only_role(rules, v, "wear"):
                out.add("wear_cleaner")
        elif k == "gain_wear":
            out.add("wearing")
        elif k == "pay":
            out.add("payer")
        elif k == "prices" and isinstance(v, list | tuple):
            if any(isinstance(c, dict) and isinstance(c.get("change"), int) and c["change"] < 0 for c in v):
                out.add("discount")
    return out


# Traits of an effect that only cost its holder something.
COSTS_ONLY = frozenset({"wearing", "payer"})


class GreedyBot(Bot):
    """Maximise progress net of wear this turn; keep the bag clean; buy fast gears."""

    name = "greedy"
    WEAR_WEIGHT = 0.3
    PIT_WEAR = 5
    CLEANER_VALUE = 5.0
    MAX_REACH = 4  # steps per gear cube the plan searches at most

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self._traits: dict[int, set[str]] = {}
        self._list_traits: dict[int, tuple[Any, set[str]]] = {}  # id of an effect list -> (it, traits)
        self._target: str | None = None
        self._plan: list[tuple[int, str]] = []
        self._dispatch: dict[str, Callable[[Game, Decision], str]] = {}
        self._ranks: dict[str, float] = {}
        self._plan_key: tuple[Any, ...] = ()

    def reset(self, seed: int) -> None:
        """Start afresh with a new generator (a playout bot of the look-ahead reuses one)."""
        self.rng.seed(seed)
        self._target = None
        self._plan = []
        self._plan_key = ()

    def traits(self, g: Game, k: int) -> set[str]:
        got = self._traits.get(k)
        if got is None:
            got = self._traits[k] = _traits(g.rules.kinds[k].effect, g.rules)
        return got

    def list_traits(self, g: Game, effect: Any) -> set[str]:
        """`_traits` of a driver hook's or an offer's effect list, worked out once per list."""
        got = self._list_traits.get(id(effect))
        if got is None or got[0] is not effect:
            got = self._list_traits[id(effect)] = (effect, _traits(effect, g.rules))
        return got[1]

    def gear_reach(self, g: Game, me: int, t: Any) -> int:
        """Steps of a gear cube this turn: 1, or the number of `modify_turn.gear_spaces` read
        from its data (`all` or a large number capped at MAX_REACH, to bound the search)."""
        if t.gear_spaces is None:
            return 1
        lim, _optional = count_spec(g, t.gear_spaces, Ctx(me))
        return self.MAX_REACH if lim is None else max(0, min(lim, self.MAX_REACH))

    # ------------------------------------------------------------------ dispatch
    def choose(self, game: Game, decision: Decision) -> str:
        fn = self._dispatch.get(decision.kind)
        if fn is None:
            fn = self._dispatch[decision.kind] = getattr(self, "c_" + decision.kind, self._first)
        key = fn(game, decision)
        if decision.option(key) is None:
            return decision.options[0].key
        return key

    def _first(self, game: Game, decision: Decision) -> str:
        return decision.options[0].key

    # ------------------------------------------------------------------ turn shape
    def c_turn(self, g: Game, d: Decision) -> str:
        z = g.race.players[d.player].zones[ACTIVE]
        w = z[g.rules.wear] if g.rules.wear >= 0 else 0
        gears = sum(z[k] for k in g.rules.gear_index.values())
        return "pit" if w >= self.PIT_WEAR or (w >= 2 and gears <= 1) else "standard"

    def c_action(self, g: Game, d: Decision) -> str:
        keys = set(d.keys())
        rs = g.rules
        z = g.race.players[d.player].zones[ACTIVE]
        # 1. wear to the discard pile, then cleaners (they can remove it), non-moving actions
        if rs.wear >= 0 and f"play {rs.kinds[rs.wear].id}" in keys:
            return f"play {rs.kinds[rs.wear].id}"
        p = g.race.players[d.player]
        wear_near = rs.wear >= 0 and (p.zones[ACTIVE][rs.wear] + p.zones[DISCARD][rs.wear]) > 0
        for k, n in enumerate(z):
            if n and rs.kinds[k].role == "action" and "mover" not in self.traits(g, k):
                if "cleaner" in self.traits(g, k) and not wear_near:
                    continue  # keep it for its money
                key = f"play {rs.kinds[k].id}"
                if key in keys:
                    return key
        # 2. gear cubes along the best plan (kept while the turn goes as planned)
        t = g.race.turn
        key_now = (g.race.turns_taken, len(t.placements) if t else 0, tuple(z))
        if self._plan and self._plan_key == key_now:
            plan = self._plan
        else:
            plan = self.plan(g, d.player)
        if plan:
            kind, target = plan[0]
            self._target = target
            after = list(z)
            after[kind] -= 1
            self._plan = plan[1:]
            self._plan_key = (g.race.turns_taken, key_now[1] + 1, tuple(after))
            return f"play {rs.kinds[kind].id}"
        # 3. moving action cards extend the route
        for k, n in enumerate(z):
            if n and rs.kinds[k].role == "action" and "mover" in self.traits(g, k):
                key = f"play {rs.kinds[k].id}"
                if key in keys:
                    return key
        if "ability" in keys:
            return "ability"
        return "end"

    def plan(self, g: Game, me: int) -> list[tuple[int, str]]:
        """Best sequence of (gear kind, target cell key) from the route head."""
        rs = g.rules
        t = g.race.turn
        z = g.race.players[me].zones[ACTIVE]
        gears = [(k, rs.kinds[k].gear or 0) for k in rs.gear_index.values() if z[k]]
        if not gears or t is None:
            return []
        car = g.race.players[me].car
        head = (t.placements[-1].lane, t.placements[-1].segment) if t.placements else (
            car.lane, car.segment)
        darkest0 = max((g.track.spaces[s].colour for pl in t.placements for s in pl.spaces),
                       default=0)
        occ = g.occupancy(me)
        opts = rs.options
        ix = g.ix
        n = ix.n
        counts = tuple(z[k] for k, _ in gears)
        reach = self.gear_reach(g, me, t)
        memo: dict[tuple[Any, ...], tuple[float, list[tuple[int, str]]]] = {}
        wear_by = rs.wear_by_gear
        draft_cache: dict[tuple[int, int], bool] = {}
        tcache: dict[tuple[tuple[int, int], int], list[tuple[tuple[int, int], int]]] = {}

        def leaf(cell: tuple[int, int], darkest: int, adv: int) -> float:
            if darkest == 0:
                return 0.0
            wear = wear_by.get(darkest, 0)
            if wear:
                dr = draft_cache.get(cell)
                if dr is None:
                    dr = draft_cache[cell] = drafts(ix, opts, occ, Car(cell[0], cell[1], 0))
                if dr:
                    wear = 0
            return adv - self.WEAR_WEIGHT * wear

        def best(cell: tuple[int, int], cnt: tuple[int, ...], darkest: int,
                 adv: int) -> tuple[float, list[tuple[int, str]]]:
            key = (cell, cnt, darkest)
            got = memo.get(key)
            if got is not None:
                return got[0] + adv, got[1]
            top: tuple[float, list[tuple[int, str]]] = (leaf(cell, darkest, 0), [])
            for i, (k, shade) in enumerate(gears):
                if not cnt[i]:
                    continue
                rest = cnt[:i] + (cnt[i] - 1,) + cnt[i + 1:]
                frontier = [(cell, 0)]
                for _step in range(reach):
                    nxt = []
                    for c, a in frontier:
                        tkey = (c, shade)
                        tg = tcache.get(tkey)
                        if tg is None:
                            tg = tcache[tkey] = [((ln, s), (s - c[1]) % n) for _sp, ln, s in
                                                 step_targets(ix, opts, occ, c[0], c[1], (shade,))]
                        for c2, da in tg:
                            nxt.append((c2, a + da))
                    frontier = nxt
                    for c2, a2 in frontier:
                        sc, path = best(c2, rest, max(darkest, shade), 0)
                        sc += a2
                        if sc > top[0]:
                            top = (sc, [(k, f"to {c2[0]}:{c2[1]}")] + path)
            memo[key] = (top[0], top[1])
            return top[0] + adv, top[1]

        score, path = best(head, counts, darkest0, 0)
        base = leaf(head, darkest0, 0)
        return path if score > base else []

    def c_move(self, g: Game, d: Decision) -> str:
        keys = d.keys()
        if self._target and self._target in keys:
            t, self._target = self._target, None
            return t
        return self._furthest(g, d)

    def c_drive(self, g: Game, d: Decision) -> str:
        return self._furthest(g, d)

    def _furthest(self, g: Game, d: Decision) -> str:
        car = g.race.players[d.player].car
        t = g.race.turn
        head = car.segment
        if t is not None and t.placements and d.kind == "move":
            head = t.placements[-1].segment
        n = g.ix.n
        best, best_adv = "stop", 0
        for o in d.options:
            if o.key.startswith("to "):
                ln, s = map(int, o.key[3:].split(":"))
                adv = (s - head) % n * 2 + (1 if ln == 0 else 0)
                if adv > best_adv:
                    best, best_adv = o.key, adv
        if best == "stop" and "stop" not in d.keys():
            return d.options[0].key
        return best

    def c_shade(self, g: Game, d: Decision) -> str:
        return d.options[-1].key

    # ------------------------------------------------------------------ cube choices
    def _rank(self, g: Game, key: str) -> float:
        """Lower is a better cube to get rid of."""
        got = self._ranks.get(key)
        if got is None:
            got = self._ranks[key] = self._rank_of(g, key)
        return got

    def _rank_of(self, g: Game, key: str) -> float:
        kid = key.partition(":")[2] or key
        try:
            k = g.rules.kind(kid)
        except KeyError:
            return 99.0
        kind = g.rules.kinds[k]
        if kind.role == "wear":
            return 0.0
        if kind.role == "gear":
            return 1.0 + (kind.gear or 0)
        return 3.0 + kind.cost

    def c_remove(self, g: Game, d: Decision) -> str:
        opts = [o.key for o in d.options if o.key != "stop"]
        wear = [k for k in opts if self._rank(g, k) == 0.0]
        if wear:
            return wear[0]
        if "stop" in d.keys():
            p = g.race.players[d.player]
            gi = g.rules.gear_index
            white = gi[min(gi)] if gi else None  # the slowest gear
            if white is not None and sum(p.zones[z][white] for z in (BAG, ACTIVE, USED, DISCARD)) > 5:
                for k in opts:
                    if k.endswith(":" + g.rules.kinds[white].id):
                        return k
            return "stop"
        return min(opts, key=lambda k: self._rank(g, k))

    # ------------------------------------------------------------------ between races
    def choose_between_races(self, game: Game, decision: Decision) -> str:
        """A decision of a sponsor effect applied between two races of a season.

        Removals thin the collection for the next race (`thin_order`) up to the allowed
        count; everything else is decided as in a race.
        """
        if decision.kind == "remove":
            junk = self.thin_order(game, decision.player)
            ranked = [o.key for o in decision.options if o.key.partition(":")[2] in junk]
            if ranked:
                return min(ranked, key=lambda k: junk.index(k.partition(":")[2]))
        return self.choose(game, decision)

    def thin_order(self, g: Game, me: int) -> list[str]:
        """Kind ids the bot would rather not draw next race, the most useless first.

        Wear, then the cubes it keeps in a race only for their money: actions that neither
        move the car nor remove wear. Gears are never thinned (measured: a greedy bot that
        also returns its slowest gears wins less; docs/seasons.md, "Measuring sponsors").
        """
        rs = g.rules
        p = g.race.players[me]
        owned = [sum(z[k] for z in p.zones) for k in range(len(rs.kinds))]
        out = [rs.kinds[rs.wear].id] if rs.wear >= 0 and owned[rs.wear] else []
        out += [kd.id for kd in rs.kinds if kd.role == "action" and owned[kd.index]
                and not self.traits(g, kd.index) & {"mover", "wear_cleaner"}]
        return out

    def c_move_cubes(self, g: Game, d: Decision) -> str:
        opts = [o.key for o in d.options if o.key != "stop"]
        back = [k for k in opts if k.startswith("discard:") and self._rank(g, k) >= 5.0]
        if back:  # a fast gear or an action cube back into play (or into the bag)
            return max(back, key=lambda k: self._rank(g, k))
        opts = [k for k in opts if not k.startswith("discard:")] or opts
        wear = [k for k in opts if self._rank(g, k) == 0.0]
        if wear:
            return wear[0]
        if "stop" in d.keys():
            return "stop"
        return min(opts, key=lambda k: self._rank(g, k))

    def c_select(self, g: Game, d: Decision) -> str:
        opts = [o.key for o in d.options if o.key != "stop"]
        return max(opts, key=lambda k: self._rank(g, k)) if opts else "stop"

    def c_gain(self, g: Game, d: Decision) -> str:
        opts = [o.key for o in d.options if o.key != "stop"]
        return max(opts, key=lambda k: g.rules.kinds[g.rules.kind(k)].cost) if opts else "stop"

    def c_draw(self, g: Game, d: Decision) -> str:
        return "draw" if self.rng.random() < 0.6 else "stop"

    def c_draw_count(self, g: Game, d: Decision) -> str:
        return d.options[-1].key

    def c_distribute(self, g: Game, d: Decision) -> str:
        keys = d.keys()
        kid = keys[0].partition(":")[0]
        k = g.rules.kind(kid)
        if g.rules.kinds[k].role == "wear" and f"{kid}:stock" in keys:
            return f"{kid}:stock"
        return f"{kid}:active" if f"{kid}:active" in keys else keys[0]

    def c_offer(self, g: Game, d: Decision) -> str:
        """Accept an offer unless its effect list only costs (wear, money)."""
        from slipstream.engine.rulesets.automobiles.effects import Others

        top = g.stack[-1] if g.stack else None
        if isinstance(top, Others):
            tr = self.list_traits(g, top.effect)
            if tr and tr <= COSTS_ONLY:
                return "no"
        return "yes"

    def c_ability(self, g: Game, d: Decision) -> str:
        """Use a driver ability unless its hook only costs (wear, money)."""
        from slipstream.engine.rulesets.automobiles.phases import HookAsk

        top = g.stack[-1] if g.stack else None
        p = g.race.players[d.player]
        if isinstance(top, HookAsk) and p.driver is not None:
            tr = self.list_traits(g, g.rules.drivers[p.driver].hooks.get(top.hook, ()))
            if tr and tr <= COSTS_ONLY:
                return "no"
        return "yes"

    # ------------------------------------------------------------------ buying
    BUY_MIN = 4.0  # what a cube must be worth (`_buy_value`) for the bot to buy it

    def _buy_value(self, g: Game, k: int, owned_wear: int) -> float:
        kind = g.rules.kinds[k]
        if kind.role == "gear":
            return (kind.gear or 0) * 1.0
        tr = self.traits(g, k)
        if "wear_cleaner" in tr and "mover" not in tr:
            return 6.5 if owned_wear >= 4 else 3.0
        if "cleaner" in tr and "mover" not in tr:
            return self.CLEANER_VALUE if owned_wear >= 6 else 2.0
        if "mover" in tr:
            return 4.5
        if "discount" in tr:
            return 4.0  # cheaper cubes this turn: about what a mover is worth
        return 2.5

    def _shopping(self, g: Game, d: Decision, me: int) -> str:
        keys = [o.key for o in d.options if o.key.startswith("buy ")]
        if not keys:
            return "end" if "end" in d.keys() else "done"
        rs = g.rules
        p = g.race.players[me]
        owned_wear = sum(p.zones[z][rs.wear] for z in range(4)) if rs.wear >= 0 else 0

        def value(key: str) -> float:
            return self._buy_value(g, rs.kind(key[4:]), owned_wear)

        best = max(keys, key=value)
        if value(best) < self.BUY_MIN:
            return "end" if "end" in d.keys() else "done"
        return best

    def c_buy(self, g: Game, d: Decision) -> str:
        return self._shopping(g, d, d.player)

    def c_purchase(self, g: Game, d: Decision) -> str:
        return self._shopping(g, d, d.player)

    def c_shop(self, g: Game, d: Decision) -> str:
        return self._shopping(g, d, d.player)


BOTS: dict[str, type[Bot]] = {"random": RandomBot, "greedy": GreedyBot}


def make_bot(name: str, seed: int) -> Bot:
    try:
        return BOTS[name](seed)
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; known: {', '.join(sorted(BOTS))}") from None


__all__ = ["BOTS", "Bot", "GreedyBot", "RandomBot", "make_bot", "play_out"]
