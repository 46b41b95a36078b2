"""Bots behind one small strategy interface: `choose(game, decision) -> option key`.

`random` picks uniformly among the legal options. `greedy` plans the turn's gear play over
the move graph directly (a memoised search over cells and the gear cubes in hand, no state
copies), pits when wear clogs its hand, and buys toward fast gears and wear removal. Bots
classify cube kinds by their effect data (moves, removals), never by a card's name.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, ClassVar, Final

from mypy_extensions import mypyc_attr

from slipstream.engine.core.byidentity import ByIdentity

# play_out: the one loop of every ruleset's races (compiled there), kept importable from here
from slipstream.engine.play.decisions import Decision, play_out
from slipstream.engine.rulesets.automobiles.effects import Ctx, count_spec, reactive_forms
from slipstream.engine.rulesets.automobiles.game import Game
from slipstream.engine.rulesets.automobiles.gearplan import GearPlanner
from slipstream.engine.rulesets.automobiles.movement import to_cell
from slipstream.engine.rulesets.automobiles.state import ACTIVE, BAG, DISCARD, USED


# Bots are subclassed outside this module (look-ahead, tests): a compiled build of it
# (engine/core/accel.py) must allow interpreted subclasses.
@mypyc_attr(allow_interpreted_subclasses=True)
class Bot:
    """The strategy interface: a new bot is one subclass with `choose`."""

    name: ClassVar[str] = "bot"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game, decision: Decision) -> str:
        raise NotImplementedError

    def choose_between_races(self, game: Game, decision: Decision) -> str:
        """Decisions of sponsor effects between two races of a season (default: `choose`)."""
        return self.choose(game, decision)


class RandomBot(Bot):
    name: ClassVar[str] = "random"

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
    return allowed is not None and bool(allowed) and all(rules.kinds[k].role == role for k in allowed)


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
COSTS_ONLY: Final = frozenset({"wearing", "payer"})


class _Shared:
    """What the greedy bot's choices read from a ruleset alone, worked out once per ruleset and
    shared by every greedy bot playing it (a race's bots are made afresh for every race): the
    traits of each kind and effect list, the rank of each cube option key, the kind table of
    the Action and Buy choices, the Buy values by key, and the cube choices already made from
    the same options (by the options tuple, or `_memo_key`)."""

    __slots__ = ("rules", "traits", "list_traits", "ranks", "cube_keys", "acts", "values", "picks",
                 "removals")

    def __init__(self, rules: Any) -> None:
        self.rules = rules
        self.traits: dict[int, set[str]] = {}
        self.list_traits: dict[int, tuple[Any, set[str]]] = {}  # id of an effect list -> (it, traits)
        self.ranks: dict[str, float] = {}
        self.cube_keys: dict[str, tuple[float, int]] = {}  # key -> (rank, class) (`_move_cubes`)
        self.acts: KindTable | None = None
        # by the bot's Buy settings: the Buy values by key, and the Buy choices by options
        self.values: dict[Any, tuple[dict[str, tuple[float, ...]], dict[Any, Any]]] = {}
        self.picks: dict[int, tuple[Any, str]] = {}  # move-cubes choices by options tuple id
        self.removals: dict[Any, tuple[Any, Removal]] = {}  # what the remove choice reads by options


# `GreedyBot._removal`: (first wear key, "stop" offered, (slowest gear, its first key), lowest key)
Removal = tuple[str | None, bool, tuple[int, str] | None, str | None]


class KindTable:
    """The kinds of a ruleset by how the Action and Buy choices treat them (`_kinds_of`): the
    wear kind, the play key of each kind, the non-moving actions (kind, key, cleaner) and the
    moving ones (kind, key), the kind of each buy key, whether the Action options follow the
    active pile (no `strict_play`), whether "play K" is then offered for a kind in it, the
    non-moving and moving actions so offered. Typed fields, not a tuple: the compiled choices
    read them natively."""

    __slots__ = ("rules", "wear", "play", "still", "movers", "buy", "follow", "offer", "still_open",
                 "movers_open", "gears")

    def __init__(self, rules: Any, wear: int, play: list[str], still: tuple[tuple[int, str, bool], ...],
                 movers: tuple[tuple[int, str], ...], buy: dict[str, int], follow: bool,
                 offer: list[bool], still_open: tuple[tuple[int, str, bool], ...],
                 movers_open: tuple[tuple[int, str], ...]) -> None:
        self.rules = rules
        self.wear = wear
        self.play = play
        self.still = still
        self.movers = movers
        self.buy = buy
        self.follow = follow
        self.offer = offer
        self.still_open = still_open
        self.movers_open = movers_open
        self.gears: tuple[int, ...] = tuple(rules.gear_index.values())  # the gear kinds (`c_turn`)


def _memo_key(d: Decision) -> tuple[int, ...]:
    """A decision's options by identity (the engine makes an option once per key and text), as
    the key of a choice that depends only on them. The memo keeps the options themselves next
    to what it stores (so their ids stay theirs) and starts over past `_MEMO_MAX` entries.
    Where the engine reuses an options tuple, the memo also keeps the choice under the id of
    the tuple (an int key, so never equal to a key of this kind), looked up first."""
    return tuple(map(id, d.options))


_MEMO_MAX: Final = 4096


_SHARED: ByIdentity[Any, _Shared] = ByIdentity(_Shared)  # by ruleset


def _shared(rules: Any) -> _Shared:
    return _SHARED.get(rules)


# The choosers whose key is always one of the decision's options (from its options, or a key
# the decision always offers): `choose` returns their key as it is, and checks the others'.
_OFFERED: Final = frozenset({"c_turn", "c_action", "c_move", "c_drive", "c_shade", "c_remove",
                      "c_move_cubes", "c_select", "c_draw_count", "c_distribute", "c_buy",
                      "c_purchase", "c_shop", "_first"})


_NO_RULES: Final = _Shared(None)


# `GreedyBot.plan_state`: the target cell, the plan, and the turn, placements and hand it is for
PlanState = tuple[str | None, list[tuple[int, str]], int, int, list[int]]


@mypyc_attr(allow_interpreted_subclasses=True)
class GreedyBot(Bot):
    """Maximise progress net of wear this turn; keep the bag clean; buy fast gears."""

    name: ClassVar[str] = "greedy"
    WEAR_WEIGHT: ClassVar[float] = 0.3
    PIT_WEAR: ClassVar[int] = 5
    CLEANER_VALUE: ClassVar[float] = 5.0
    MAX_REACH: ClassVar[int] = 4  # steps per gear cube the plan searches at most

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self._sh = _NO_RULES  # the tables of the ruleset played (`_bind`)
        self._traits: dict[int, set[str]] = {}
        self._list_traits: dict[int, tuple[Any, set[str]]] = {}  # id of an effect list -> (it, traits)
        self._target: str | None = None
        self._plan: list[tuple[int, str]] = []
        # the chooser of each decision kind, called with this bot (`_chooser`): functions of the
        # class, not bound methods, which would make every bot a cycle that only the cyclic
        # collector frees (with its caches) when a race is over
        self._dispatch: dict[str, Callable[[GreedyBot, Game, Decision], str]] = {}
        self._ranks: dict[str, float] = {}
        # the turn, placement count and hand at which `_plan` goes on (`_next_gear`)
        self._plan_turn = -1
        self._plan_placed = -1
        self._plan_hand: list[int] = []
        self._planner: GearPlanner | None = None
        self._acts: KindTable | None = None
        self._cube_keys: dict[str, tuple[float, int]] = {}  # key -> (rank, class) (`_move_cubes`)
        self._values: dict[str, tuple[float, ...]] = {}  # Buy values by key (`_values_of`)
        self._buys: dict[Any, Any] = {}  # Buy choices by options (`_memo_key`)
        # (typed values: compiled, what they keep is read natively, not by generic indexing)
        self._picks: dict[int, tuple[Any, str]] = {}
        self._removals: dict[Any, tuple[Any, Removal]] = {}

    def reset(self, seed: int) -> None:
        """Start afresh with a new generator (a playout bot of the look-ahead reuses one)."""
        self.rng.seed(seed)
        self.reset_plan()

    def reset_plan(self) -> None:
        """Forget the plan kept from one decision to the next (`_next_gear`, `c_move`)."""
        self._target = None
        self._plan = []
        self._plan_turn = -1

    def plan_state(self) -> PlanState:
        """What this bot carries from one decision to the next besides its generator: the plan
        of the turn and the cell it aims at (the look-ahead's rollouts pick it up midway). Its
        lists are never changed in place, so they are shared, not copied."""
        return (self._target, self._plan, self._plan_turn, self._plan_placed, self._plan_hand)

    def set_plan_state(self, st: PlanState) -> None:
        self._target, self._plan, self._plan_turn, self._plan_placed, self._plan_hand = st

    def _bind(self, rules: Any) -> _Shared:
        """Read the tables of `rules` from now on (shared by the greedy bots of that ruleset,
        unless a subclass ranks or values cubes its own way)."""
        sh = self._sh = _shared(rules)
        self._acts = None  # read again from `sh` (`_kind_table`)
        self._traits, self._list_traits = sh.traits, sh.list_traits
        cls = type(self)
        if cls._rank_of is GreedyBot._rank_of:
            self._ranks, self._cube_keys = sh.ranks, sh.cube_keys
            self._picks, self._removals = sh.picks, sh.removals
        else:
            self._ranks, self._cube_keys, self._picks, self._removals = {}, {}, {}, {}
        if cls._buy_value is GreedyBot._buy_value and cls._values_of is GreedyBot._values_of:
            self._values, self._buys = sh.values.setdefault((self.CLEANER_VALUE, self.BUY_MIN), ({}, {}))
        else:
            self._values, self._buys = {}, {}
        return sh

    def traits(self, g: Game, k: int) -> set[str]:
        if self._sh.rules is not g.rules:
            self._bind(g.rules)
        got = self._traits.get(k)
        if got is None:
            got = self._traits[k] = _traits(g.rules.kinds[k].effect, g.rules)
        return got

    def list_traits(self, g: Game, effect: Any) -> set[str]:
        """`_traits` of a driver hook's or an offer's effect list, worked out once per list."""
        if self._sh.rules is not g.rules:
            self._bind(g.rules)
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
        if self._sh.rules is not game.rules:
            self._bind(game.rules)
        fn = self._dispatch.get(decision.kind)
        if fn is None:
            fn = self._dispatch[decision.kind] = self._chooser(decision.kind)
        return fn(self, game, decision)

    def choose_greedy(self, game: Game, decision: Decision) -> str:
        """`choose` of a GreedyBot itself (not a subclass: the look-ahead's playout bots), the
        commonest kinds called directly rather than through `_dispatch` (the same choosers)."""
        if type(self) is not GreedyBot:  # a subclass's choosers may be its own, or checked
            return self.choose(game, decision)
        if self._sh.rules is not game.rules:
            self._bind(game.rules)
        kind = decision.kind
        if kind == "action":
            return self.c_action(game, decision)
        if kind == "buy":
            return self.c_buy(game, decision)
        if kind == "remove":
            return self.c_remove(game, decision)
        if kind == "move_cubes":
            return self.c_move_cubes(game, decision)
        if kind == "move":
            return self.c_move(game, decision)
        if kind == "turn":
            return self.c_turn(game, decision)
        return self.choose(game, decision)

    def _chooser(self, kind: str) -> Callable[[GreedyBot, Game, Decision], str]:
        """The chooser of a decision kind, called with the bot: `c_KIND` (or the first option),
        checked to give one of the decision's options (else the first) unless it is one of
        `_OFFERED` as written here."""
        name = "c_" + kind
        cls = type(self)
        if not hasattr(cls, name):
            name = "_first"
        fn: Callable[[GreedyBot, Game, Decision], str] = getattr(cls, name)
        if name in _OFFERED and fn is getattr(GreedyBot, name):
            return fn

        def checked(bot: GreedyBot, g: Game, d: Decision) -> str:
            key = fn(bot, g, d)
            return key if d.option(key) is not None else d.options[0].key
        return checked

    def _first(self, game: Game, decision: Decision) -> str:
        return decision.options[0].key

    # ------------------------------------------------------------------ turn shape
    def c_turn(self, g: Game, d: Decision) -> str:
        z = g.race.players[d.player].zones[ACTIVE]
        wear = g.rules.wear
        w = z[wear] if wear >= 0 else 0
        if w >= self.PIT_WEAR:
            return "pit"
        if w >= 2:
            gears = 0
            acts = self._acts  # None after `choose` bound another ruleset
            if acts is None:
                acts = self._kind_table(g)
            for k in acts.gears:  # (a typed tuple: where a dict's values were a generic loop)
                gears += z[k]
            if gears <= 1:
                return "pit"
        return "standard"

    def c_action(self, g: Game, d: Decision) -> str:
        # An Action decision offers "play K" for the kinds K in the active pile whose cube has
        # an effect (and wear only with `wear_card_playable`), without `strict_play`
        # (phases.ActionPhase): then what is played is read from the hand and the table's
        # kinds so offered, else from the keys.
        acts = self._acts  # None after `choose` bound another ruleset
        if acts is None:
            acts = self._kind_table(g)
        p = g.race.players[d.player]
        z = p.zones[ACTIVE]
        if acts.follow:
            # (worked out each time, the loops stopping at the cube played: compiled, a few
            # native reads of the hand cost less than the memo of these choices by options
            # tuple this had: the id boxed, a dict look-up, the kept tuple checked; measured)
            wear = acts.wear
            play = acts.play
            # 1. wear to the discard pile, then cleaners (they can remove it), non-moving actions
            if wear >= 0 and z[wear] and acts.offer[wear]:
                return play[wear]
            near: str | None = None  # the first cleaner, played with wear in hand or discarded
            for k, key, cleaner in acts.still_open:
                if z[k]:
                    if not cleaner:
                        if near is not None and wear >= 0 and (z[wear] + p.zones[DISCARD][wear]) > 0:
                            return near
                        return key
                    if near is None:
                        near = key
            if near is not None and wear >= 0 and (z[wear] + p.zones[DISCARD][wear]) > 0:
                return near
            # 2. gear cubes along the best plan (kept while the turn goes as planned)
            kind = self._next_gear(g, d, z)
            if kind >= 0:
                return play[kind] if acts.offer[kind] else d.options[0].key
            # 3. moving action cards extend the route
            for k, key in acts.movers_open:
                if z[k]:
                    return key
            return self._ability_or_end(d)
        wear, play, still, movers = acts.wear, acts.play, acts.still, acts.movers
        keys: set[str] | None = None  # the option keys, collected when first needed
        if wear >= 0 and z[wear]:
            keys = {o.key for o in d.options}
            if play[wear] in keys:
                return play[wear]
        wear_near: bool | None = None
        for k, key, cleaner in still:
            if z[k]:
                if cleaner:
                    if wear_near is None:
                        wear_near = wear >= 0 and (z[wear] + p.zones[DISCARD][wear]) > 0
                    if not wear_near:
                        continue
                if keys is None:
                    keys = {o.key for o in d.options}
                if key in keys:
                    return key
        kind = self._next_gear(g, d, z)
        if kind >= 0:
            if keys is None:
                keys = {o.key for o in d.options}
            return play[kind] if play[kind] in keys else d.options[0].key
        for k, key in movers:
            if z[k]:
                if keys is None:
                    keys = {o.key for o in d.options}
                if key in keys:
                    return key
        return self._ability_or_end(d)

    def _next_gear(self, g: Game, d: Decision, z: list[int]) -> int:
        """2. The gear kind to play next along the best plan (kept while the turn goes as
        planned: the same turn, one placement more and the hand `z` less that cube), or -1;
        its target cell is kept for the move decision."""
        race = g.race
        t = race.turn
        placed = len(t.placements) if t else 0
        if self._plan and self._plan_placed == placed and self._plan_turn == race.turns_taken \
                and self._plan_hand == z:
            plan = self._plan
        else:
            plan = self.plan(g, d.player)
        if not plan:
            return -1
        kind, target = plan[0]
        self._target = target
        after = z.copy()
        after[kind] = after[kind] - 1  # (not `-=`: compiled, that is a generic operation)
        self._plan = plan[1:]
        self._plan_turn = race.turns_taken
        self._plan_placed = placed + 1
        self._plan_hand = after
        return kind

    @staticmethod
    def _ability_or_end(d: Decision) -> str:
        end = False
        for o in d.options:
            if o.key == "ability":
                return "ability"
            if o.key == "end":
                end = True
        return "end" if end else d.options[0].key

    def _kind_table(self, g: Game) -> KindTable:
        """The kinds by how the choices treat them, worked out once per ruleset: (rules, wear
        kind, play key of each kind, non-moving actions (kind, key, cleaner), moving actions
        (kind, key), kind of each buy key, whether the Action options follow the active pile
        (no `strict_play`), whether "play K" is then offered for a kind in it, and the
        non-moving and moving actions so offered)."""
        got = self._acts
        if got is None or got.rules is not g.rules:
            if self._sh.rules is not g.rules:
                self._bind(g.rules)
            sh = self._sh
            if sh.acts is None or type(self)._kinds_of is not GreedyBot._kinds_of:
                got = self._kinds_of(g)
                if type(self)._kinds_of is GreedyBot._kinds_of:
                    sh.acts = got
            else:
                got = sh.acts
            self._acts = got
        return got

    def _kinds_of(self, g: Game) -> KindTable:
        rs = g.rules
        play = [f"play {kind.id}" for kind in rs.kinds]
        still: list[tuple[int, str, bool]] = []
        movers: list[tuple[int, str]] = []
        for k, kind in enumerate(rs.kinds):
            if kind.role == "action":
                if "mover" in self.traits(g, k):
                    movers.append((k, play[k]))
                else:
                    still.append((k, play[k], "cleaner" in self.traits(g, k)))
        buy = {f"buy {kind.id}": kind.index for kind in rs.kinds}
        effect = set(rs.with_effect)
        offer = [k in effect and (rs.options.wear_card_playable or kind.role != "wear")
                 for k, kind in enumerate(rs.kinds)]
        # the Action options follow the active pile unless plays are checked (strict play, or a
        # card's play condition: `play_if`)
        follow = not rs.options.strict_play and not reactive_forms(rs)[1]
        return KindTable(rs, rs.wear, play, tuple(still), tuple(movers), buy, follow,
                         offer, tuple(x for x in still if offer[x[0]]), tuple(x for x in movers if offer[x[0]]))

    def plan(self, g: Game, me: int) -> list[tuple[int, str]]:
        """Best sequence of (gear kind, target cell key) from the route head (gearplan.py)."""
        rs = g.rules
        planner = self._planner
        weight = self.WEAR_WEIGHT  # (read once: compiled, a class variable is read by name)
        if planner is None or planner.rules is not rs or planner.ix is not g.ix \
                or planner.weight != weight:
            planner = self._planner = GearPlanner(rs, g.ix, weight)
        race = g.race
        t = race.turn
        if t is None:
            return []
        z = race.players[me].zones[ACTIVE]
        cnt0 = planner.count(z)
        if cnt0 == 0:  # no gear cube in hand
            return []
        if t.placements:
            last = t.placements[-1]
            h = last.segment * planner.width + last.lane + 1
            colours = g.ix.colours  # (the track index's: a typed tuple, no attribute by name)
            darkest0 = 0  # the darkest colour entered this turn
            for pl in t.placements:
                for sp in pl.spaces:
                    c = colours[sp]
                    if c > darkest0:
                        darkest0 = c
        else:
            car = race.players[me].car
            h = car.segment * planner.width + car.lane + 1
            darkest0 = 0
        reach = 1 if t.gear_spaces is None else self.gear_reach(g, me, t)
        if cnt0 < 0:  # 16 cubes of one gear in hand: a planner with wider counts
            planner = self._planner = GearPlanner(rs, g.ix, weight, bits=16)
            cnt0 = planner.count(z)
            if cnt0 < 0:
                raise OverflowError(max(z))
        return planner.plan_from(race, me, reach, h, cnt0, darkest0)

    def c_move(self, g: Game, d: Decision) -> str:
        t = self._target
        if t:
            for o in d.options:
                if o.key == t:
                    self._target = None
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
            key = o.key
            if key.startswith("to "):
                ln, s = to_cell(key)  # (parsed once per key)
                adv = (s - head) % n * 2 + (1 if ln == 0 else 0)
                if adv > best_adv:
                    best, best_adv = key, adv
        if best == "stop" and "stop" not in d.keys():
            return d.options[0].key
        return best

    def c_shade(self, g: Game, d: Decision) -> str:
        return d.options[-1].key

    # ------------------------------------------------------------------ cube choices
    def _rank(self, g: Game, key: str) -> float:
        """Lower is a better cube to get rid of."""
        if self._sh.rules is not g.rules:
            self._bind(g.rules)
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
        # the first wear; else with "stop" offered, the slowest gear while more than five are
        # owned, or "stop"; else the lowest rank, ties to the first
        opts = d.options
        got = self._removals.get(id(opts))  # the same options tuple (the engine keeps them)
        if got is None or got[0] is not opts:
            mk = _memo_key(d)
            got = self._removals.get(mk)
            if got is None:
                got = self._removal(g, d, mk)
            if len(self._removals) >= _MEMO_MAX:
                self._removals.clear()
            got = self._removals[id(opts)] = (opts, got[1])
        wear, stop, white, low = got[1]
        if wear is not None:
            return wear
        if stop:
            if white is not None:
                w = white[0]
                zs = g.race.players[d.player].zones
                if zs[BAG][w] + zs[ACTIVE][w] + zs[USED][w] + zs[DISCARD][w] > 5:
                    return white[1]
            return "stop"
        if low is None:
            return min(())  # no option at all: fails as min() of nothing
        return low

    def _removal(self, g: Game, d: Decision, mk: tuple[int, ...]) -> tuple[Any, Removal]:
        """What the remove choice reads from its options, one pass: (the first wear key, whether
        "stop" is offered, (the slowest gear, the first key of it), the first key of the lowest
        rank), None where there is none."""
        ranks = self._ranks
        opts = []
        wear: str | None = None
        low: str | None = None
        stop = False
        low_rank = 0.0
        for o in d.options:
            k = o.key
            if k == "stop":
                stop = True
                continue
            opts.append(k)
            r = ranks.get(k)
            if r is None:
                r = self._rank(g, k)
            if r == 0.0 and wear is None:
                wear = k
            if low is None or r < low_rank:
                low, low_rank = k, r
        white: tuple[int, str] | None = None
        gi = g.rules.gear_index
        if gi:
            w = gi[min(gi)]  # the slowest gear
            tail = ":" + g.rules.kinds[w].id
            for k in opts:
                if k.endswith(tail):
                    white = (w, k)
                    break
        if len(self._removals) >= _MEMO_MAX:
            self._removals.clear()
        got = self._removals[mk] = (d.options, (wear, stop, white, low))
        return got

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
        opts = d.options
        picks = self._picks
        got = picks.get(id(opts))  # the same options tuple (the engine keeps them)
        if got is not None and got[0] is opts:
            return got[1]
        # another tuple: the choice worked out afresh (one pass over the options costs less
        # than the key of them by their ids, `_memo_key`, that this also kept it under: in
        # the look-ahead's rollouts that key was new 13 times in 14; measured)
        key = self._move_cubes(g, d)
        if len(picks) >= _MEMO_MAX:
            picks.clear()
        picks[id(opts)] = (opts, key)
        return key

    def _move_cubes(self, g: Game, d: Decision) -> str:
        # one pass over the options: a fast gear or an action cube back into play (or into
        # the bag) first; else, among the cubes not from the discard pile (or all of them when
        # every one is), the first wear, "stop", or the lowest rank; ties to the first
        info = self._cube_keys  # key -> (rank, 0 "stop" / 1 not from the discard pile /
        # 2 from it / 3 from it and back into play, rank 5 or more)
        back: str | None = None
        back_rank = 0.0
        near_wear = near_min = None  # among the keys not from the discard pile
        far_wear = far_min = None  # among the keys from it (all keys when there is no other)
        near_rank = far_rank = 0.0
        stop = False
        for o in d.options:
            k = o.key
            got = info.get(k)
            if got is None:
                if k == "stop":
                    got = info[k] = (0.0, 0)
                else:
                    r = self._rank(g, k)
                    got = info[k] = (r, (3 if r >= 5.0 else 2) if k.startswith("discard:") else 1)
            r, cls = got
            if cls == 3:
                if back is None or r > back_rank:
                    back, back_rank = k, r
            elif back is not None:
                continue  # the choice is a cube back into play
            elif cls == 2:
                if r == 0.0 and far_wear is None:
                    far_wear = k
                if far_min is None or r < far_rank:
                    far_min, far_rank = k, r
            elif cls == 1:
                if r == 0.0 and near_wear is None:
                    near_wear = k
                if near_min is None or r < near_rank:
                    near_min, near_rank = k, r
            else:
                stop = True
        if back is not None:
            return back
        wear, lowest = (near_wear, near_min) if near_min is not None else (far_wear, far_min)
        if wear is not None:
            return wear
        if stop:
            return "stop"
        assert lowest is not None
        return lowest

    def c_select(self, g: Game, d: Decision) -> str:
        best, best_rank = "stop", 0.0  # the highest rank, ties to the first
        ranks = self._ranks
        for o in d.options:
            k = o.key
            if k != "stop":
                r = ranks.get(k)
                if r is None:
                    r = self._rank(g, k)
                if best == "stop" or r > best_rank:
                    best, best_rank = k, r
        return best

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
    BUY_MIN: ClassVar[float] = 4.0  # what a cube must be worth (`_buy_value`) for the bot to buy it

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

    def _values_of(self, g: Game, key: str) -> tuple[float, ...]:
        """The `_buy_value` of the cube a Buy key buys with 0-3, 4-5 and 6 or more wear cubes
        owned (the counts where it changes), or () for a key that buys nothing."""
        if not key.startswith("buy "):
            return ()
        k = self._kind_table(g).buy.get(key)
        if k is None:
            k = g.rules.kind(key[4:])
        return tuple(self._buy_value(g, k, w) for w in (0, 4, 6))

    def _shopping(self, g: Game, d: Decision, me: int) -> str:
        # the choice with 0-3, 4-5 and 6 or more wear cubes owned, by options (`_memo_key`)
        opts = d.options
        buys = self._buys
        got = buys.get(id(opts))  # the same options tuple (the engine keeps Buy decisions)
        if got is None or got[0] is not opts:
            mk = _memo_key(d)
            got = buys.get(mk)
            if got is None:
                if len(buys) >= _MEMO_MAX:
                    buys.clear()
                got = buys[mk] = (opts, [self._shop(g, d, col) for col in range(3)]
                                  if any(o.key.startswith("buy ") for o in opts) else
                                  [self._shop(g, d, 0)])
            if len(buys) >= _MEMO_MAX:
                buys.clear()
            got = buys[id(opts)] = (opts, got[1])
        picks = got[1]
        if len(picks) == 1:
            return picks[0]
        w = g.rules.wear
        if w < 0:
            return picks[0]
        zs = g.race.players[me].zones
        owned = zs[0][w] + zs[1][w] + zs[2][w] + zs[3][w]
        return picks[0 if owned < 4 else 1 if owned < 6 else 2]

    def _shop(self, g: Game, d: Decision, col: int) -> str:
        """The Buy choice with the wear owned in column `col` of `_values_of`."""
        values = self._values
        best, best_value = "", 0.0  # the most valuable cube, ties to the first
        end = done = False
        for o in d.options:
            key = o.key
            v = values.get(key)
            if v is None:
                v = values[key] = self._values_of(g, key)
            if not v:
                if key == "end":
                    end = True
                elif key == "done":
                    done = True
                continue
            x = v[col]
            if not best or x > best_value:
                best, best_value = key, x
        if not best or best_value < self.BUY_MIN:
            return "end" if end else "done" if done else d.options[0].key
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
