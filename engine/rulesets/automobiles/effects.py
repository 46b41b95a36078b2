"""The effect interpreter: runs the effect vocabulary of docs/effects.md.

Effects are data (lists of one-key mappings). Each primitive either acts at once or becomes a
*frame* on the game's control stack that asks for decisions one at a time. Frames are plain
objects that can be cloned, so a whole game can be copied between any two decisions. Nothing
here knows any particular card, driver or sponsor.
"""

from __future__ import annotations

import operator
import sys
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final, TypeVar

from mypy_extensions import mypyc_attr

from slipstream.engine.packs.data import FrozenMap
from slipstream.engine.play.decisions import Decision, Option, opt
from slipstream.engine.rulesets.automobiles.movement import (
    ahead_cells,
    step_targets,
    targets_from,
    to_cell,
)
from slipstream.engine.rulesets.automobiles.rules import GEAR_NAMES
from slipstream.engine.rulesets.automobiles.state import (
    ACTIVE,
    BAG,
    DISCARD,
    REVEALED,
    USED,
    ZONE_INDEX,
    Memory,
    Placement,
)

if TYPE_CHECKING:
    from slipstream.engine.rulesets.automobiles.game import Game
    from slipstream.engine.rulesets.automobiles.rules import Ruleset

ZONE_ALIASES: Final[dict[str, tuple[int, ...]]] = {
    "bag": (BAG,), "active": (ACTIVE,), "used": (USED,), "track": (USED,), "discard": (DISCARD,),
    "revealed": (REVEALED,), "board": (ACTIVE, USED, DISCARD),
    "owned": (BAG, ACTIVE, USED, DISCARD),
}
DEST: Final = {"bag": BAG, "active": ACTIVE, "used": USED, "discard": DISCARD}
# `ctx.sel` key prefix of the zones of the cubes a `select` picked (one per cube, in order), so
# that `distribute` sends each from where it lies
SELECT_ZONES: Final = "zones:"
# the slots of the tables by a spec's address bits (`_PLAN_SLOTS`, `_COUNT_SLOTS`), less one
_SLOT_MASK: Final = 1023


# A compiled build (engine/core/accel.py) binds calls between functions of one module at build
# time and makes classes fixed types. Tests replace some of these functions and lane rule
# methods at run time (to check that a wrong reading fails its scenarios), so those stay looked
# up by name, and lane rules stay plain classes, however the module runs. Frames and move and
# cube plans are native classes when compiled (their methods are called and their fields read
# directly): a test changes a frame where its primitive makes it (`PRIMITIVES` is read at each
# run), a plan where `plan_of` makes it (a copy: `__copy__`), or goes through a swappable
# function, never by replacing a method, which compiled code would not see.
_F = TypeVar("_F")


def swappable(fn: _F) -> _F:
    """Mark a function that is looked up by name at each call, compiled or not."""
    return fn


@mypyc_attr(native_class=False)
class PlainClass(type):
    """The metaclass of lane rules: plain Python classes even when compiled (their methods can
    be replaced)."""


class EffectError(Exception):
    """Effect data the interpreter cannot run (a pack bug the validator should have caught)."""


# ---------------------------------------------------------------------------------------------
# Context and frames
# ---------------------------------------------------------------------------------------------


# The selections of a context that has made none: one empty read-only mapping shared by them
# (most cards select nothing: no dict made and freed for every cube played). A context makes its
# own at its first selection (`Ctx.own_sel`); a write to this one fails (pack data is read-only).
_NO_SEL: Final[dict[str, list[int]]] = FrozenMap()


class Ctx:
    """Where an effect list runs: for whom, which cube is being played, named selections (read
    `sel`; write through `own_sel()`)."""

    __slots__ = ("me", "played", "sel", "source")

    def __init__(self, me: int, played: int | None = None, source: str = "") -> None:
        self.me = me
        self.played = played
        self.sel: dict[str, list[int]] = _NO_SEL
        self.source = source

    def own_sel(self) -> dict[str, list[int]]:
        """The context's selections, to write to (made at the first)."""
        sel = self.sel
        if type(sel) is not dict:  # the shared empty one (or a copy of it)
            sel = self.sel = dict(sel)
        return sel

    def clone(self, memo: dict[int, Any]) -> Ctx:
        got = memo.get(id(self))
        if got is None:
            got = Ctx(self.me, self.played, self.source)
            if self.sel is not _NO_SEL:
                got.sel = {k: v[:] for k, v in self.sel.items()}
            memo[id(self)] = got
        return got


class Frame:
    """A step of control on the game's stack. `run` acts and returns a decision or None.

    Frames are native classes in the compiled build (their calls and fields are C calls and
    struct reads there); `blank` gives an instance of the same class for `clone` to fill."""

    __slots__ = ()

    def run(self, g: Game) -> Decision | None:
        raise NotImplementedError

    def choose(self, g: Game, key: str) -> None:
        raise NotImplementedError

    def blank(self) -> Frame:
        """A frame of this class whose fields `clone` sets (made without reading the game)."""
        raise NotImplementedError

    def clone(self, memo: dict[int, Any]) -> Frame:
        new = self.blank()
        for name in field_names(type(self)):
            v = getattr(self, name, _UNSET)  # (one look-up by name, not `hasattr` and another)
            if v is not _UNSET:
                if isinstance(v, Ctx):
                    v = v.clone(memo)
                # (a tuple of types: compiled, `list | dict | set` made a union object each time)
                elif isinstance(v, (list, dict, set)):
                    v = v.copy()
                setattr(new, name, v)
        return new


_UNSET: Final = object()  # a field `Frame.clone` finds unset

# The slot names `Frame.clone` copies, by frame class (a look-ahead copies the stack at every rollout).
_SLOT_NAMES: Final[dict[type, tuple[str, ...]]] = {}


def field_names(cls: type) -> tuple[str, ...]:
    """The fields of a class of slots: those of the class and its bases, in the order of its mro
    (compiled, a native class lists its fields in `__mypyc_attrs__` instead)."""
    names = _SLOT_NAMES.get(cls)
    if names is None:
        names = getattr(cls, "__mypyc_attrs__", None)
        if names is None:
            names = tuple(name for c in cls.__mro__ for name in getattr(c, "__slots__", ()))
        _SLOT_NAMES[cls] = names
    return names


def copy_fields(src: Any, dst: Any) -> None:
    """Set every field of `dst` that `src` has to the value in `src` (the same objects)."""
    for name in field_names(type(src)):
        if hasattr(src, name):
            setattr(dst, name, getattr(src, name))


_NO_SPEC: Final[dict[str, Any]] = {}  # the specs of a blank frame (`Frame.blank`)
_NO_DESTS: Final[dict[str, Any]] = {"to": ()}
_ONE_SPACE: Final[dict[str, Any]] = {"spaces": 1}  # the specs of a plan that `__copy__` fills
_PLAYED_SPEC: Final[dict[str, Any]] = {"from": "played"}


def seq(x: Any) -> Sequence[Any]:
    if x is None:
        return ()
    return x if isinstance(x, (list, tuple)) else (x,)  # (a tuple: see `Frame.clone`)


class EffectList(Frame):
    """Runs an effect list top to bottom."""

    __slots__ = ("effects", "i", "ctx", "steps")

    def __init__(self, effects: Sequence[Any], ctx: Ctx,
                 steps: tuple[tuple[Any, Any], ...] | None = None) -> None:
        self.effects = effects
        self.i = 0
        self.ctx = ctx
        self.steps = steps_of(effects) if steps is None else steps

    def blank(self) -> Frame:
        return EffectList(self.effects, self.ctx, self.steps)

    def run(self, g: Game) -> Decision | None:
        steps = self.steps
        i = self.i
        if i >= len(steps) or g.race.over:
            g.stack.pop()
            return None
        self.i = i + 1
        if i + 1 == len(steps):
            g.stack.pop()  # the last effect: the list has nothing left to do after it
        name, arg = steps[i]
        if not run_step(g, name, arg, self.ctx):
            start(g, self.effects[i], self.ctx)  # not a primitive: raises its EffectError
        return None


_MAPPINGS: Final = (dict, Mapping)  # built once (`dict | Mapping` would build a union per call)


@swappable
def push_effects(g: Game, effects: Sequence[Any], ctx: Ctx) -> None:
    """Push an effect list to run next. A list of one primitive starts it now: what the list's
    frame would do when it ran next (the played cube of a gear or the Wear card)."""
    # the steps of the played cube's card, kept by kind for the ruleset asked last (read by
    # index and identity: no id boxed and hashed for every cube played); else `steps_of`'s
    k = ctx.played
    kept = _KIND_STEPS
    rows: list[tuple[Any, tuple[tuple[Any, Any], ...]] | None] = kept[1]
    if kept[0] is not g.rules:
        rows = kept[1] = [None] * len(g.rules.kinds)
        kept[0] = g.rules
    got = rows[k] if k is not None and 0 <= k < len(rows) else None
    if got is not None and got[0] is effects:
        steps = got[1]
    else:
        steps = steps_of(effects)
        if k is not None and 0 <= k < len(rows):
            got = _STEPS.get(id(effects))
            if got is not None and got[0] is effects:  # a list of pack data (`steps_of` kept it)
                rows[k] = got
    if len(steps) == 1 and not g.race.over:
        name, arg = steps[0]
        if run_step(g, name, arg, ctx):
            return
    g.stack.append(EffectList(effects, ctx, steps))


_STEPS: Final[dict[int, tuple[Any, tuple[tuple[Any, Any], ...]]]] = {}  # id(list) -> (list, steps)
# [ruleset, by kind index: (its card's effect list, steps) or None] (`push_effects`)
_KIND_STEPS: Final[list[Any]] = [None, []]


def steps_of(effects: Sequence[Any]) -> tuple[tuple[Any, Any], ...]:
    """An effect list as (primitive name, argument) steps; (None, effect) for an effect that is
    not a one-key mapping (`start` reports it when it is reached). Worked out once for a
    list of pack data (a tuple of frozen mappings: it cannot change), held by its identity."""
    got = _STEPS.get(id(effects))
    if got is not None and got[0] is effects:
        return got[1]
    steps = tuple(_step(eff) for eff in effects)
    if type(effects) is tuple and all(type(eff) is FrozenMap for eff in effects):
        if len(_STEPS) >= 10_000:
            _STEPS.clear()
        _STEPS[id(effects)] = (effects, steps)  # holding the list keeps its id from being reused
    return steps


def _step(eff: Any) -> tuple[Any, Any]:
    """The (primitive name, argument) step of one effect, its name interned (the primitive is
    looked up by name at each run: a name that is the table's own key object matches it at
    once, without comparing the text)."""
    if isinstance(eff, dict | Mapping) and len(eff) == 1:
        name, arg = next(iter(eff.items()))
        return (sys.intern(name) if type(name) is str else name), arg
    return None, eff


def start(g: Game, eff: Mapping[str, Any], ctx: Ctx) -> None:
    """Begin one primitive: act now, or push its frame."""
    if not isinstance(eff, _MAPPINGS) or len(eff) != 1:
        raise EffectError(f"an effect must be a mapping with one key, not {eff!r}")
    (name, arg), = eff.items()
    if not run_step(g, name, arg, ctx):
        raise EffectError(f"unknown effect primitive {name!r}")


def run_step(g: Game, name: Any, arg: Any, ctx: Ctx) -> bool:
    """Run primitive `name` on `arg` for `ctx` (False: there is no such primitive). The
    primitive is looked up at each run, so a replaced one is the one run; while a look-ahead
    holds hands back (Game.holding), the step first says whether it may run meanwhile."""
    if g.held:
        while_held(g, name, ctx)
    fn = PRIMITIVES.get(name)
    if fn is None:
        return False
    run_primitive(fn, g, arg, ctx)
    return True


# ---------------------------------------------------------------------------------------------
# Numbers, kinds, colours, conditions
# ---------------------------------------------------------------------------------------------


_ZONES: Final[dict[Any, tuple[int, ...]]] = {}  # zone spec -> zone indices, worked out once


def zones_of(spec: Any) -> tuple[int, ...]:
    try:
        return _ZONES[spec]
    except KeyError:
        got = _ZONES[spec] = _zones_of(spec)
        return got
    except TypeError:  # a list (effects not from a pack): not hashable
        return _zones_of(spec)


def _zones_of(spec: Any) -> tuple[int, ...]:
    if spec is None:
        return ZONE_ALIASES["board"]
    out: list[int] = []
    for z in seq(spec):
        out.extend(ZONE_ALIASES[z])
    return tuple(dict.fromkeys(out))


def kind_filter(g: Game, spec: Mapping[str, Any]) -> set[int] | None:
    """Allowed kind indices from `kind` / `kinds` / `not_kinds` (None = any; not to be changed).

    Worked out once per effect and ruleset (`Ruleset.memo`, by the effect mapping's identity).
    """
    memo = g.rules.memo
    got = memo.get(id(spec))
    if got is not None and got[0] is spec:
        return got[1]
    allowed = _kind_filter(g.rules, spec)
    if len(memo) > 10_000:  # effects made on the fly (tests, scenarios) do not pile up
        memo.clear()
    memo[id(spec)] = (spec, allowed)  # holding `spec` keeps its id from being reused
    return allowed


def _kind_filter(rs: Ruleset, spec: Mapping[str, Any]) -> set[int] | None:
    allowed: set[int] | None = None
    for key in ("kind", "kinds"):
        if key in spec:
            got: set[int] = set()
            for ref in seq(spec[key]):
                try:
                    got.update(rs.group(ref))
                except KeyError:
                    pass  # a kind not in this game's card set matches nothing
            allowed = got if allowed is None else allowed & got
    if "not_kinds" in spec:
        bad: set[int] = set()
        for ref in seq(spec["not_kinds"]):
            try:
                bad.update(rs.group(ref))
            except KeyError:
                pass
        allowed = (set(range(len(rs.kinds))) if allowed is None else allowed) - bad
    return allowed


def players_for(g: Game, whose: str | None, ctx: Ctx, them: int | None) -> list[int]:
    n = len(g.race.players)
    if whose in (None, "me"):
        return [ctx.me]
    if g.held:  # another player's piles may be read: a hand a look-ahead holds back among them
        g.broke = True
    if whose == "them":
        return [them if them is not None else ctx.me]
    if whose == "others":
        return [i for i in range(n) if i != ctx.me]
    return list(range(n))


class CountPlan:
    """The parts of a `{count: ...}` spec that need no game state, read once per spec of pack
    data (a native class when compiled: `count_cubes` reads its fields, not the spec's keys)."""

    __slots__ = ("has_among", "among", "only_among", "zones", "track", "whose", "rules", "allowed",
                 "kinds")

    def __init__(self, spec: Mapping[str, Any]) -> None:
        self.has_among: bool = "among" in spec
        self.among: Any = spec.get("among")
        # a count of the selection only (no zone): no zone is read
        self.only_among: bool = self.has_among and "zone" not in spec
        zspec = spec.get("zone")
        self.zones: tuple[int, ...] = () if self.only_among else zones_of(zspec)
        self.track: bool = zspec is not None and "track" in seq(zspec)
        self.whose: Any = spec.get("whose")
        # the kind filter under the last ruleset asked (`rules`), and its kinds as a tuple to loop
        self.rules: Any = None
        self.allowed: set[int] | None = None
        self.kinds: tuple[int, ...] = ()


# a slot per bits of a count spec's address -> (spec, plan), as `_PLAN_SLOTS`
_COUNT_SLOTS: Final[list[tuple[Any, CountPlan] | None]] = [None] * (_SLOT_MASK + 1)


def count_plan(spec: Mapping[str, Any]) -> CountPlan:
    """The plan of a count spec: kept in its slot for a spec of pack data (a frozen mapping: it
    cannot change; the entry holds it, so its address is not reused), read afresh otherwise."""
    slot = (id(spec) >> 4) & _SLOT_MASK
    got = _COUNT_SLOTS[slot]
    if got is not None and got[0] is spec:
        return got[1]
    plan = CountPlan(spec)
    if type(spec) is FrozenMap:
        _COUNT_SLOTS[slot] = (spec, plan)
    return plan


def count_cubes(g: Game, spec: Mapping[str, Any], ctx: Ctx, them: int | None = None) -> int:
    cp = count_plan(spec)
    if cp.rules is not g.rules:
        allowed = kind_filter(g, spec)
        cp.allowed = allowed
        cp.kinds = () if allowed is None else tuple(allowed)
        cp.rules = g.rules
    allowed = cp.allowed
    if cp.only_among:
        pool = ctx.sel.get(cp.among, [])
        return sum(1 for k in pool if allowed is None or k in allowed)
    whose = cp.whose
    if whose is None or whose == "me":  # (`players_for`'s first case, without its list)
        total = _count_of(g, ctx.me, cp)
    else:
        total = 0
        for pi in players_for(g, whose, ctx, them):
            total += _count_of(g, pi, cp)
    if cp.has_among:
        pool = ctx.sel.get(cp.among, [])
        total = min(total, sum(1 for k in pool if allowed is None or k in allowed))
    return total


def _count_of(g: Game, pi: int, cp: CountPlan) -> int:
    """The cubes of player `pi` that a count plan counts (its zones, its kinds)."""
    allowed = cp.allowed
    kinds = cp.kinds
    track = cp.track
    p = g.race.players[pi]
    total = 0
    for z in cp.zones:
        if track and z == USED:
            total += sum(1 for pl in g.race.turn.placements
                         if allowed is None or pl.kind in allowed) if (
                g.race.turn and g.race.turn.player == pi) else 0
            continue
        zz = p.zones[z]
        if allowed is None:
            total += sum(zz)
        else:  # (a loop: compiled, `sum(map(zz.__getitem__, allowed))` made a bound method
            for k in kinds:  # and a map object, and called by object for every kind)
                total += zz[k]
    return total


# a slot per bits of a one-key mapping's address -> (mapping, key, value) (`one_item`)
_ITEM_SLOTS: Final[list[tuple[Any, Any, Any] | None]] = [None] * (_SLOT_MASK + 1)


def one_item(x: Mapping[Any, Any]) -> tuple[Any, Any, Any]:
    """(x, its key, its value) of a mapping of one key (a number or condition expression): kept
    in its slot for one of pack data (frozen: the entry holds it), so a number or condition
    read again reads its form by index and identity, not through the mapping's items."""
    slot = (id(x) >> 4) & _SLOT_MASK
    got = _ITEM_SLOTS[slot]
    if got is not None and got[0] is x:
        return got
    (k, v), = x.items()
    got = (x, k, v)
    if type(x) is FrozenMap:
        _ITEM_SLOTS[slot] = got
    return got


def number(g: Game, x: Any, ctx: Ctx, them: int | None = None) -> int:
    """Evaluate a number or count expression (docs/effects.md)."""
    if type(x) is int:  # the common case first (a bool is not: those are refused below)
        return x
    if isinstance(x, bool):
        raise EffectError(f"not a number: {x!r}")
    if isinstance(x, int):
        return x
    if not isinstance(x, _MAPPINGS) or len(x) != 1:  # (`dict` first: pack data is one)
        raise EffectError(f"not a number expression: {x!r}")
    item = one_item(x)
    op = item[1]
    arg = item[2]
    if op == "count":
        return count_cubes(g, arg, ctx, them)
    if op == "distinct_kinds":
        if len(arg) > ("zone" in arg) + ("whose" in arg):  # kind filters or `among`
            return distinct_kinds_number(g, arg, ctx, them)
        kinds: set[int] = set()
        for pi in players_for(g, arg.get("whose"), ctx, them):
            for z in zones_of(arg.get("zone", "discard")):
                kinds.update(k for k, n in enumerate(g.race.players[pi].zones[z]) if n)
        return len(kinds)
    if op == "selected":
        return len(ctx.sel.get(arg, []))
    if op == "cost_of":
        return sum(g.rules.kinds[k].cost for k in ctx.sel.get(arg, []))
    if op == "money":
        return money_number(g, arg, ctx)
    if op == "counter":
        return g.race.turn.counters.get(arg, 0) if g.race.turn else 0
    if op == "position":
        return g.position_of(ctx.me, arg == "action_start")
    if op == "turn_stat":
        t = g.race.turn
        if t is None:
            return 0
        if arg == "decline_wear":
            return t.decline_wear
        if arg == "positions_gained":
            return max(0, t.position_car_start - g.position_of(ctx.me, False)) if t.position_car_start else 0
        return turn_stat_more(g, arg, ctx)
    if op == "by_position":
        return number(g, arg.get(bracket(g, ctx), 0), ctx, them)
    if op in ("sum", "product", "min", "max"):
        vals = [number(g, v, ctx, them) if not isinstance(v, int) else v for v in arg]
        if op == "sum":
            r = sum(vals)
        elif op == "product":
            r = 1
            for v in vals:
                r *= v
        else:
            r = min(vals) if op == "min" else max(vals)
        return max(0, r)
    form = NUMBER_FORMS.get(op)
    if form is not None:
        return int(form(g, arg, ctx, them))
    raise EffectError(f"unknown number expression {op!r}")


def bracket(g: Game, ctx: Ctx) -> str:
    pos = g.position_of(ctx.me, True)
    if pos == 1:
        return "first"
    if pos == len(g.race.players):
        return "last"
    return "other"


def count_spec(g: Game, x: Any, ctx: Ctx) -> tuple[int | None, bool]:
    """(limit, optional) of a count: `all` gives None; `{up_to: N}` is optional."""
    if type(x) is int:  # the common case first (not a bool: those are refused by `number`)
        return x, False
    got = static_count(x)
    if got is not None:
        return got
    if isinstance(x, _MAPPINGS) and "up_to" in x and len(x) == 1:
        return number(g, x["up_to"], ctx), True
    return number(g, x, ctx), False


def static_count(x: Any) -> tuple[int | None, bool] | None:
    """What `count_spec` gives for a count that needs no game state (a literal), else None."""
    if type(x) is int:
        return x, False
    if x is None:
        return 1, False
    if x == "all":
        return None, False
    if isinstance(x, _MAPPINGS) and "up_to" in x and len(x) == 1:
        lim = x["up_to"]
        if lim == "all":
            return None, True
        if type(lim) is int:
            return lim, True
    return None


class MovePlan:
    """The parts of a `move` / `drive` spec that need no game state, read once per spec (a
    native class when compiled: frames read its fields at every cube)."""

    __slots__ = ("spaces", "count", "colours", "cols", "fixed_cols", "gear", "same", "lanes", "as_",
                 "one_step", "rules", "chained", "colour")

    def __init__(self, spec: Mapping[str, Any]) -> None:
        self.spaces = spec["spaces"]
        self.count: tuple[int | None, bool] | None = static_count(self.spaces)
        c = self.colours = spec.get("colours")
        # literal shades are read once (a frozenset: frames share it and never change it)
        self.fixed_cols = c == "any" or c is None or isinstance(c, list | tuple)
        self.cols = (None if c == "any" or c is None else frozenset(int(x) for x in c)) if (
            self.fixed_cols) else None
        # the one shade of `cols` (a gear card's), else -1: `place_one` asks for the steps of that
        # shade by number (`movement.colour_targets`)
        self.colour: int = one_shade(self.cols)
        self.gear = bool(spec.get("gear"))
        self.same = bool(spec.get("same_colour"))
        self.lanes = "straight" in spec or "lanes" in spec or "lane_change" in spec
        self.as_ = spec.get("as")
        # exactly one space of fixed shades, nothing more: the gear cards (see `place_one`)
        self.one_step = self.count == (1, False) and self.fixed_cols and not (
            self.same or self.lanes or self.as_) and set(spec) <= {"spaces", "colours", "gear"}
        # whether `place_one` may place at once under the last ruleset asked (`rules`): placements
        # chain and no `{moved: ...}` reads a move (worked out once per ruleset, not per cube)
        self.rules: Any = None
        self.chained = False

    def __copy__(self) -> MovePlan:
        got = MovePlan(_ONE_SPACE)
        copy_fields(self, got)
        return got


class CubesPlan:
    """The parts of a `remove` / `move_cubes` / `select` spec that need no game state (a native
    class when compiled)."""

    __slots__ = ("played", "zones", "dest", "count", "count_all", "as_", "price", "among", "simple",
                 "rules", "allowed", "sources", "verb", "decided", "picks")

    def __init__(self, op: str, spec: Mapping[str, Any]) -> None:
        # (the fields typed: compiled, the frames read them as struct fields, not by name)
        self.verb: str = _VERBS[op]
        src = spec["from"]
        self.played: bool = src == "played"
        self.zones: tuple[int, ...] = () if self.played else zones_of(src)
        self.dest: int = DEST.get(spec.get("to", ""), -1) if op == "move_cubes" else -1
        self.count: tuple[int | None, bool] | None = static_count(spec.get("count", 1))
        self.count_all: bool = spec.get("count", 1) == "all"
        self.as_: str | None = spec.get("as")
        self.price = "price" in spec
        self.among: str | None = spec.get("among")
        # the played cube with nothing more to it (the Wear card): taken at once, no frame
        self.simple: bool = self.played and not set(spec) - {"from", "to", "as"}
        # the kind filter and the `sources` of the last ruleset asked (`rules`; see `for_rules`)
        self.rules: Any = None
        self.allowed: set[int] | None = None
        self.sources: tuple[tuple[int, tuple[tuple[int, int], ...], tuple[int, ...], tuple[Option, ...]], ...] = ()
        # the decisions `Cubes.run` made from these sources, by player, then by an int key of
        # the candidates held, the cubes left and whether it may stop (emptied by `for_rules`)
        self.decided: list[dict[int, Decision]] = []
        # option key chosen -> (zone, kind) under `rules` (`Cubes.choose`; emptied by `for_rules`)
        self.picks: dict[str, tuple[int, int]] = {}

    def __copy__(self) -> CubesPlan:
        got = CubesPlan("remove", _PLAYED_SPEC)
        copy_fields(self, got)
        got.decided = []  # its own: it may read its sources under another ruleset
        got.picks = {}
        return got

    def for_rules(self, g: Game, spec: Mapping[str, Any]) -> None:
        """Read the kind filter under the game's ruleset, and for each zone its (zone, kind)
        candidates of the allowed kinds, those kinds and their options, so `Cubes` picks the
        candidates and options of the kinds that have cubes without working anything out."""
        rules = g.rules
        self.allowed = allowed = kind_filter(g, spec)
        kinds = tuple(range(len(rules.kinds))) if allowed is None else tuple(sorted(allowed))
        self.sources = tuple((z, tuple((z, k) for k in kinds), kinds,
                              tuple(cube_option(self.verb, z, rules.kinds[k].id) for k in kinds))
                             for z in self.zones)
        self.rules = rules
        self.decided = []
        self.picks = {}


# id(spec) -> (spec, primitive, plan): one look-up per move or cube effect run (a spec of pack
# data is the argument of one primitive only; a spec asked under another is read again). Final:
# compiled, the table is read as a C static, not looked up by name in the module
_PLANS: Final[dict[int, tuple[Any, str, Any]]] = {}
# ... and in front of it, one entry per slot of the spec's address bits (`plan_of`): a slot is
# read by index and the entry's spec by identity, no id boxed and hashed (a spec whose slot
# another holds is found in `_PLANS`, and takes the slot)
_PLAN_SLOTS: Final[list[tuple[Any, str, Any] | None]] = [None] * (_SLOT_MASK + 1)


@swappable
def plan_of(op: str, spec: Mapping[str, Any]) -> Any:
    """The plan of a move (`op` "move") or cube spec, read once for a spec of pack data (a
    frozen mapping: it cannot change), held by its identity; read afresh for any other."""
    slot = (id(spec) >> 4) & _SLOT_MASK
    got = _PLAN_SLOTS[slot]
    if got is not None and got[0] is spec and got[1] == op:
        return got[2]
    got = _PLANS.get(id(spec))
    if got is not None and got[0] is spec and got[1] == op:
        _PLAN_SLOTS[slot] = got
        return got[2]
    plan = MovePlan(spec) if op == "move" else CubesPlan(op, spec)
    if type(spec) is FrozenMap:
        if len(_PLANS) >= 40_000:
            _PLANS.clear()
        _PLANS[id(spec)] = _PLAN_SLOTS[slot] = (spec, op, plan)
    return plan


def gear_of(g: Game, kinds: Sequence[int]) -> list[int]:
    out: list[int] = []
    table = g.rules.kinds
    for k in kinds:  # (a loop: a comprehension costs a function call in Python 3.11)
        gear = table[k].gear
        if gear is not None:
            out.append(gear)
    return out


def colours(g: Game, spec: Any, ctx: Ctx) -> set[int] | None:
    """Allowed shades of a move (None = any)."""
    if spec == "any" or spec is None:
        return None
    if isinstance(spec, (list, tuple)):  # (a tuple: see `Frame.clone`)
        return {int(c) for c in spec}
    (op, arg), = spec.items()
    if op == "by_position":
        return {int(c) for c in arg.get(bracket(g, ctx), [])}
    gears = gear_of(g, ctx.sel.get(arg, []))
    if op == "same_as":
        return set(gears)
    if op == "one_lower":
        return {c - 1 for c in gears if c - 1 >= 3}
    if op == "lower_than":
        return {c for c in (3, 4, 5, 6) if any(c < x for x in gears)}
    if op == "higher_than":
        return {c for c in (3, 4, 5, 6) if any(c > x for x in gears)}
    raise EffectError(f"unknown colour rule {op!r}")


_COMPARE: Final = {"lt": operator.lt, "le": operator.le, "eq": operator.eq, "ne": operator.ne,
            "ge": operator.ge, "gt": operator.gt}


def condition(g: Game, c: Mapping[str, Any], ctx: Ctx, them: int | None = None) -> bool:
    item = one_item(c)
    op: str = item[1]
    arg = item[2]
    if op == "selected":
        return bool(ctx.sel.get(arg))
    if op == "position":
        b = bracket(g, ctx)
        return {"first": b == "first", "last": b == "last", "not_first": b != "first",
                "not_last": b != "last"}[arg]
    if op == "compare":
        left = number(g, arg["left"], ctx, them)
        right = number(g, arg["right"], ctx, them)
        return bool(_COMPARE[arg["op"]](left, right))  # a table, not a dict of every result
    if op == "every_other":
        for o in range(len(g.race.players)):  # (a loop: a generator costs a frame per player)
            if o != ctx.me and not condition(g, arg, ctx, o):
                return False
        return True
    if op == "all":
        return all(condition(g, x, ctx, them) for x in arg)
    if op == "any":
        return any(condition(g, x, ctx, them) for x in arg)
    if op == "not":
        return not condition(g, arg, ctx, them)
    form = CONDITION_FORMS.get(op)
    if form is not None:
        return bool(form(g, arg, ctx, them))
    raise EffectError(f"unknown condition {op!r}")


# ---------------------------------------------------------------------------------------------
# Primitives that act at once
# ---------------------------------------------------------------------------------------------


def p_gain_wear(g: Game, arg: Any, ctx: Ctx) -> None:
    g.gain(ctx.me, g.rules.wear, number(g, arg, ctx), "effect")


def p_modify_turn(g: Game, arg: Mapping[str, Any], ctx: Ctx) -> None:
    t = g.race.turn
    if t is None:
        return
    if arg.get("drafting"):
        t.drafting_flag = True
    if "gear_spaces" in arg and t.gear_spaces is None:
        t.gear_spaces = arg["gear_spaces"]
    if "stand_in" in arg:
        si = arg["stand_in"]
        try:
            kinds = g.rules.group(si["kind"])
        except KeyError:
            kinds = []
        for k in kinds:
            t.stand_in.setdefault(k, (si.get("colours", "any"), si.get("wear", 0)))
    if "prices" in arg or "buy_limit" in arg:
        modify_buy(g, t, arg, ctx)
    if "lasts" in arg and arg["lasts"] == "race" and ctx.source != RACE_LONG:
        memory(g, ctx.me).modifiers.append(arg)  # applied again at each of this player's turns
    if g.record:  # `emit` records nothing otherwise: its arguments are not made
        g.emit("modify", p=ctx.me, what=sorted(arg))


def p_add_counter(g: Game, arg: Mapping[str, Any], ctx: Ctx) -> None:
    if arg.get("lasts") == "race":
        add_race_counter(g, arg, ctx)
        return
    t = g.race.turn
    if t is not None:
        t.counters[arg["name"]] = t.counters.get(arg["name"], 0) + number(g, arg.get("by", 1), ctx)


def p_schedule(g: Game, arg: Mapping[str, Any], ctx: Ctx) -> None:
    if arg["at"] in LATER_AT:
        schedule_later(g, arg, ctx)
        return
    t = g.race.turn
    if t is not None and arg["key"] not in t.scheduled:
        t.scheduled[arg["key"]] = (arg["at"], arg["effect"], ctx.me)


def p_if(g: Game, arg: Mapping[str, Any], ctx: Ctx) -> None:
    branch = arg["then"] if condition(g, arg["test"], ctx) else arg.get("else", ())
    if branch:
        g.stack.append(EffectList(branch, ctx))


def p_choose_one(g: Game, arg: Sequence[Any], ctx: Ctx) -> None:
    g.stack.append(ChooseOne(arg, ctx))


def p_draw(g: Game, arg: Any, ctx: Ctx) -> None:
    if isinstance(arg, _MAPPINGS) and ("count" in arg or "as" in arg or "at_once" in arg
                                       or "repeat_while" in arg):
        g.stack.append(Draw(arg, ctx, g))
    else:  # `draw: N` (no mapping made for it)
        g.stack.append(Draw(_NO_SPEC, ctx, g, arg))


def p_cubes(op: str) -> Any:
    def fn(g: Game, arg: Mapping[str, Any], ctx: Ctx) -> None:
        cubes_effect(op, g, arg, ctx)
    return fn


def cubes_effect(op: str, g: Game, arg: Mapping[str, Any], ctx: Ctx) -> None:
    """remove / move_cubes / select (`op`): the primitive of `p_cubes`."""
    plan: CubesPlan = plan_of(op, arg)
    if plan.simple:  # what the frame would do when it runs next, done now
        take_played(g, op, plan.dest, plan.as_, ctx)
        return
    c = Cubes(op, arg, ctx, g, plan)
    if c.left > 0 or c.played:  # else (`count: all`: taken already) its run would only end it
        g.stack.append(c)


def take_played(g: Game, op: str, dest: int, as_: str | None, ctx: Ctx) -> None:
    """remove / move_cubes / select `from: played`: the cube being played, from the track."""
    if as_:
        ctx.own_sel()[as_] = []
    me = ctx.me
    k = ctx.played
    if k is not None and g.race.players[me].zones[USED][k] > 0:
        g.unplace(me, k)
        if op == "remove":
            g.remove(me, USED, k)
        elif op == "move_cubes":
            g.move_cube(me, USED, dest, k)
        if as_:
            ctx.sel[as_].append(k)


def p_gain(g: Game, arg: Mapping[str, Any], ctx: Ctx) -> None:
    g.stack.append(Gain(arg, ctx, g))


def p_distribute(g: Game, arg: Mapping[str, Any], ctx: Ctx) -> None:
    g.stack.append(Distribute(arg, ctx))


def p_move(g: Game, arg: Mapping[str, Any], ctx: Ctx) -> None:
    plan: MovePlan = plan_of("move", arg)
    pre = None
    if plan.one_step:
        pre = place_one(g, plan, ctx)
        if pre is None:
            return
    m = Move(arg, ctx, g, drive=False, plan=plan)
    if isinstance(pre, list):
        m.pre = pre  # the targets of its first run, worked out already
    g.stack.append(m)


def place_one(g: Game, plan: MovePlan, ctx: Ctx) -> list[tuple[int, int, int]] | bool | None:
    """A one-space placement of the played cube (a gear card) whose space is the only one, or
    that has none: what the `Move` frame would do when it runs next, done now (None). When the
    frame is needed: its targets if a decision (several spaces), else False (a turn modifier,
    a rule reading the move)."""
    rules = g.rules
    if plan.rules is not rules:
        plan.rules = rules
        plan.chained = rules.options.placement_chain and "moved" not in uses(rules)
    race = g.race
    t = race.turn
    kind = ctx.played
    me = ctx.me
    if (not plan.chained or kind is None or t is None or t.gear_spaces is not None
            or kind in t.stand_in):
        return False
    players = race.players
    placements = t.placements
    if not placements or t.player != me:
        car = players[me].car
        lane, s = car.lane, car.segment
    else:
        last = placements[-1]
        lane, s = last.lane, last.segment
    tg = targets_from(g.ix, rules.options, players, me, lane, s, plan.cols, plan.colour)
    if len(tg) > 1:
        return tg
    if tg:
        sp, ln, seg = tg[0]
        placements.append(Placement(kind, ln, seg, (sp,), 1 if seg < s else 0, False))
        if g.record:  # `emit` records nothing otherwise: its arguments are not made
            g.emit("place", p=me, kind=rules.kinds[kind].id, cell=f"{ln}:{seg}", steps=1)
    return None


def p_drive(g: Game, arg: Mapping[str, Any], ctx: Ctx) -> None:
    g.stack.append(Move(arg, ctx, g, drive=True))


def p_others(g: Game, arg: Mapping[str, Any], ctx: Ctx) -> None:
    g.stack.append(Others(arg, ctx, g))


def p_shop(g: Game, arg: Mapping[str, Any], ctx: Ctx) -> None:
    g.stack.append(Shop(number(g, arg["budget"], ctx), arg.get("to"), ctx))


# ---------------------------------------------------------------------------------------------
# Frames that ask
# ---------------------------------------------------------------------------------------------


class ChooseOne(Frame):
    __slots__ = ("choices", "ctx")

    def __init__(self, choices: Sequence[Any], ctx: Ctx) -> None:
        self.choices = choices
        self.ctx = ctx

    def blank(self) -> Frame:
        return ChooseOne(self.choices, self.ctx)

    def run(self, g: Game) -> Decision | None:
        opts = []
        for i, c in enumerate(self.choices):
            label = c.get("label") if isinstance(c, Mapping) and "label" in c else describe(c)
            opts.append(opt(str(i + 1), str(label)))
        return Decision(self.ctx.me, "choose_one", tuple(opts), "choose one option")

    def choose(self, g: Game, key: str) -> None:
        c = self.choices[int(key) - 1]
        g.stack.pop()
        effects = c["effect"] if isinstance(c, Mapping) and "label" in c else seq(c)
        if g.record:
            g.emit("choose", p=self.ctx.me, option=key)
        g.stack.append(EffectList(effects, self.ctx))


def describe(eff: Any) -> str:
    if isinstance(eff, Mapping) and len(eff) == 1:
        (k, v), = eff.items()
        return f"{k} {v}" if not isinstance(v, Mapping) else f"{k} " + " ".join(
            f"{a}={b}" for a, b in v.items())
    return str(eff)


class Draw(Frame):
    """draw: N / {up_to: N} one at a time, repeat_while, or at_once into `revealed`."""

    __slots__ = ("ctx", "left", "optional", "as_", "repeat", "at_once", "asked", "drawn")

    def __init__(self, spec: Mapping[str, Any], ctx: Ctx, g: Game | None,
                 count: Any = _UNSET) -> None:
        self.ctx = ctx
        if g is None:  # a blank for `clone`
            return
        rw: Any = None
        at_once = False
        as_: Any = None
        if count is _UNSET:  # the draw's spec (else `draw: N`, its count only)
            count = spec.get("count", 1)
            as_ = spec.get("as")
            rw = spec.get("repeat_while")
            at_once = bool(spec.get("at_once"))
        lim, self.optional = count_spec(g, count, ctx)
        self.left = 10_000 if lim is None else lim
        self.as_ = as_
        self.repeat = kind_filter(g, rw) if rw else None
        self.at_once = at_once
        self.asked = False
        self.drawn = 0
        if self.as_:
            ctx.own_sel()[self.as_] = []

    def blank(self) -> Frame:
        return Draw(_NO_SPEC, self.ctx, None)

    def run(self, g: Game) -> Decision | None:
        if self.at_once and self.optional and not self.asked:
            n = min(self.left, g.drawable(self.ctx.me))
            return Decision(self.ctx.me, "draw_count",
                            tuple(opt(str(i), f"draw {i}") for i in range(n + 1)),
                            "how many cubes to draw at once")
        me = self.ctx.me
        while self.left > 0 and g.drawable(me) > 0:
            if self.optional:
                return Decision(me, "draw", (DRAW, STOP),
                                f"draw up to {self.left} more")
            self._one(g)  # a draw that asks nothing: the next one follows (what its run would do)
        g.stack.pop()
        return None

    def _one(self, g: Game) -> None:
        k = g.draw(self.ctx.me, REVEALED if self.at_once else ACTIVE)
        self.left -= 1
        self.drawn += 1
        if k is None:
            self.left = 0
            return
        if self.as_:
            self.ctx.sel[self.as_].append(k)
        if self.repeat is not None:
            self.left = 1 if k in self.repeat else 0

    def choose(self, g: Game, key: str) -> None:
        if self.at_once and not self.asked:
            self.asked = True
            self.left = int(key)
            self.optional = False
            return
        if key == "stop":
            g.stack.pop()
        else:
            self._one(g)


class Cubes(Frame):
    """remove / move_cubes / select: take cubes one at a time, chosen by zone and kind."""

    __slots__ = ("op", "ctx", "zones", "dest", "allowed", "left", "optional", "as_", "price",
                 "among", "played", "sources", "plan")

    def __init__(self, op: str, spec: Mapping[str, Any], ctx: Ctx, g: Game | None,
                 given: CubesPlan | None = None) -> None:
        if g is None:  # a blank for `clone`
            return
        plan: CubesPlan = plan_of(op, spec) if given is None else given
        # (the fields typed, the plan's too: compiled, `run` reads them as struct fields and
        # loops over the sources natively, not through Python's protocols)
        self.plan: CubesPlan = plan
        self.op: str = op
        self.ctx: Ctx = ctx
        self.played: bool = plan.played
        self.zones: tuple[int, ...] = plan.zones
        self.dest: int = plan.dest
        if plan.rules is not g.rules:
            plan.for_rules(g, spec)
        self.allowed: set[int] | None = plan.allowed
        self.sources: tuple[tuple[int, tuple[tuple[int, int], ...], tuple[int, ...], tuple[Option, ...]], ...] = (
            plan.sources)
        cnt: tuple[int | None, bool] = plan.count or count_spec(g, spec.get("count", 1), ctx)
        lim, self.optional = cnt
        self.left = 10_000 if lim is None else lim
        self.as_: str | None = plan.as_
        self.price = number(g, spec["price"], ctx) if plan.price else 0
        among = plan.among
        self.among: list[int] | None = list(ctx.sel.get(among, [])) if among else None
        if self.as_:
            ctx.own_sel()[self.as_] = []
            if op == "select":  # where each picked cube lies, for `distribute` (`SELECT_ZONES`)
                ctx.own_sel()[SELECT_ZONES + self.as_] = []
        if plan.count_all:
            # every matching cube, no decisions
            for z, k in self.candidates(g):
                n = g.race.players[ctx.me].zones[z][k]
                if self.among is not None:
                    n = min(n, self.among.count(k))
                for _ in range(n):
                    self.take(g, z, k)
            self.left = 0

    def blank(self) -> Frame:
        return Cubes(self.op, _NO_SPEC, self.ctx, None)

    def candidates(self, g: Game) -> list[tuple[int, int]]:
        ctx = self.ctx
        zones = g.race.players[ctx.me].zones
        among = self.among
        as_ = self.as_
        picked = ctx.sel[as_] if as_ and self.op == "select" else None
        out: list[tuple[int, int]] = []
        if not picked and among is None:  # the common case: zone and kind only
            for z, pairs, kinds, _options in self.sources:
                # the allowed kinds that have cubes (a loop: native code when compiled)
                row = zones[z]
                i = 0
                for k in kinds:
                    if row[k]:
                        out.append(pairs[i])
                    i += 1
            return out
        allowed = self.allowed
        for z in self.zones:
            for k, n in enumerate(zones[z]):
                if picked is not None:
                    n -= picked.count(k)
                if n > 0 and (allowed is None or k in allowed) and (among is None or k in among):
                    out.append((z, k))
        return out

    def take(self, g: Game, z: int, k: int) -> None:
        # the frame's fields read once (in pure Python each read is a look-up by name)
        ctx = self.ctx
        me = ctx.me
        op = self.op
        if op == "remove":
            g.remove(me, z, k)
        elif op == "move_cubes":
            g.move_cube(me, z, self.dest, k)
        price = self.price
        if price and g.race.turn is not None:
            g.race.turn.spent += price
        as_ = self.as_
        if as_:
            ctx.sel[as_].append(k)
            if op == "select":
                ctx.sel[SELECT_ZONES + as_].append(z)
        among = self.among
        if among is not None:
            among.remove(k)
        self.left -= 1

    def run(self, g: Game) -> Decision | None:
        ctx = self.ctx  # the fields read once, as in `take`
        me = ctx.me
        op = self.op
        as_ = self.as_
        if self.played:
            k = ctx.played
            g.stack.pop()
            if k is not None and g.race.players[me].zones[USED][k] > 0:
                g.unplace(me, k)
                if op == "remove":
                    g.remove(me, USED, k)
                elif op == "move_cubes":
                    g.move_cube(me, USED, self.dest, k)
                if as_:
                    ctx.sel[as_].append(k)
            return None
        price = self.price
        if self.left <= 0 or (price and (g.race.turn is None or g.money(me) < price)):
            g.stack.pop()
            return None
        plan = self.plan
        verb = plan.verb
        optional = self.optional
        if self.among is None and not (op == "select" and as_ and ctx.sel[as_]):
            # the common case (`candidates`'s: zone and kind only), in one pass: the candidates
            # as bits, one per (zone, kind) of the sources with cubes, their number and the first
            zones = g.race.players[me].zones
            sources = self.sources
            held = 0
            bit = 1
            count = 0
            first: tuple[int, int] | None = None
            for z, pairs, kinds, _options in sources:
                row = zones[z]
                i = 0
                for k in kinds:
                    if row[k]:
                        held |= bit
                        count += 1
                        if first is None:
                            first = pairs[i]
                    bit <<= 1
                    i += 1
            if first is None:
                g.stack.pop()
                return None
            if count == 1 and not optional:
                self.take(g, first[0], first[1])
                if self.left <= 0:  # the last cube: what the next run would do
                    g.stack.pop()
                return None
            # the options of the candidates, picked as they were from the plan's options: no
            # option is looked up, no table of hands is kept. The decision depends on the plan,
            # the player, the cubes left, whether it may stop and which of the candidates' kinds
            # have cubes only: one decision per such key for every game of the ruleset (as the
            # Action decisions, phases.py), kept by the plan (`decided`, emptied when it reads its
            # sources under another ruleset), so the bots' choices keyed by its options find them
            # by identity
            left = self.left
            memo: dict[int, Decision] | None = None
            key: tuple[Any, ...] | None = None
            if left < 16_384:  # (always, in practice) an int key, kept by the plan: no tuple
                decided = plan.decided
                while len(decided) <= me:
                    decided.append({})
                memo = decided[me]
                # `held` in the low bits, the rest above the candidates' bits (`bit`, past the
                # last): an int's hash is the int, so keys that differ in their low bits spread
                # over the table (with the cubes left and the stop in the low bits, as before,
                # the keys of a plan all began alike and collided, probe after probe)
                ikey = (((left << 1) | optional) * bit) | held
                d = memo.get(ikey)
            else:
                key = ("cubes", plan, me, optional, left, held)
                d = g.decisions.get(key)
            if d is None:
                opts: list[Option] = []
                for z, _pairs, kinds, options in sources:
                    row = zones[z]
                    i = 0
                    for k in kinds:
                        if row[k]:
                            opts.append(options[i])
                        i += 1
                if optional:
                    opts.append(STOP)
                d = Decision(me, op, tuple(opts), cube_text(verb, optional, left))
                if memo is not None:
                    if len(memo) >= 4096:  # many patterns: start over rather than grow
                        memo.clear()
                    memo[ikey] = d
                elif key is not None:
                    decisions = g.decisions
                    if len(decisions) >= 16_384:  # (phases.keep_decision)
                        decisions.clear()
                    decisions[key] = d
            return d
        cands = self.candidates(g)
        if not cands:
            g.stack.pop()
            return None
        if len(cands) == 1 and not optional:
            z0, k0 = cands[0]  # (unpacked: compiled, a starred call goes by name)
            self.take(g, z0, k0)
            if self.left <= 0:  # the last cube: what the next run would do
                g.stack.pop()
            return None
        opts = [cube_option(verb, z, g.rules.kinds[k].id) for z, k in cands]
        if optional:
            opts.append(STOP)
        return Decision(me, op, tuple(opts), cube_text(verb, optional, self.left))

    def choose(self, g: Game, key: str) -> None:
        if key == "stop":
            g.stack.pop()
            return
        plan = self.plan
        got = plan.picks.get(key) if plan.rules is g.rules else None
        if got is None:  # the key read once per plan and ruleset
            zname, _, kid = key.partition(":")
            got = (ZONE_INDEX[zname], g.rules.kind(kid))
            if plan.rules is g.rules:
                plan.picks[key] = got
        self.take(g, got[0], got[1])
        if self.left <= 0:  # the last cube: what the next run would do
            g.stack.pop()


ZONE_NAMES_: Final = ("bag", "active", "used", "discard", "revealed")
_VERBS: Final = {"remove": "remove", "move_cubes": "move", "select": "select"}
STOP: Final = opt("stop")
DRAW: Final = opt("draw", "draw a cube")
_CUBE_OPTIONS: Final[dict[tuple[str, int, str], Option]] = {}


_CUBE_TEXTS: Final[dict[tuple[str, bool, int], str]] = {}


def cube_text(verb: str, optional: bool, left: int) -> str:
    """The text of a cube choice (made once per verb, optional or not, and cubes left)."""
    got = _CUBE_TEXTS.get((verb, optional, left))
    if got is None:
        if len(_CUBE_TEXTS) >= 10_000:
            _CUBE_TEXTS.clear()
        got = _CUBE_TEXTS[verb, optional, left] = (
            f"{verb} {'up to ' if optional else ''}"
            f"{'any number of' if left >= 10_000 else left} cube(s)")
    return got


def cube_option(verb: str, zone: int, kid: str) -> Option:
    """The option `ZONE:KIND` of a cube choice (made once per verb, zone and kind)."""
    got = _CUBE_OPTIONS.get((verb, zone, kid))
    if got is None:
        if len(_CUBE_OPTIONS) >= 10_000:
            _CUBE_OPTIONS.clear()
        got = _CUBE_OPTIONS[verb, zone, kid] = opt(f"{ZONE_NAMES_[zone]}:{kid}",
                                                   f"{verb} {kid} from {ZONE_NAMES_[zone]}")
    return got


class Gain(Frame):
    __slots__ = ("ctx", "kinds", "left", "optional", "as_", "max_cost")

    def blank(self) -> Frame:
        return Gain(_NO_SPEC, self.ctx, None)

    def __init__(self, spec: Mapping[str, Any], ctx: Ctx, g: Game | None) -> None:
        if g is None:  # a blank for `clone`
            self.ctx = ctx
            return
        self.ctx = ctx
        rs = g.rules
        if "one_higher" in spec:
            kinds = [rs.gear_index[c + 1] for c in gear_of(g, ctx.sel.get(spec["one_higher"], []))
                     if c + 1 in rs.gear_index]
        elif "one_lower" in spec:
            kinds = [rs.gear_index[c - 1] for c in gear_of(g, ctx.sel.get(spec["one_lower"], []))
                     if c - 1 in rs.gear_index]
        else:
            allowed = kind_filter(g, spec)
            kinds = [k.index for k in rs.kinds if (k.index in allowed if allowed is not None
                                                   else k.role != "wear")]
        self.kinds = kinds
        lim, self.optional = count_spec(g, spec.get("count", 1), ctx)
        self.left = 10_000 if lim is None else lim
        self.max_cost = number(g, spec["max_cost"], ctx) if "max_cost" in spec else None
        self.as_ = spec.get("as")
        if self.as_:
            ctx.own_sel()[self.as_] = []

    def cands(self, g: Game) -> list[int]:
        return [k for k in self.kinds if g.race.stock[k] > 0 and (
            self.max_cost is None or g.rules.kinds[k].cost <= self.max_cost)]

    def run(self, g: Game) -> Decision | None:
        c = self.cands(g)
        if self.left <= 0 or not c:
            g.stack.pop()
            return None
        if len(c) == 1 and not self.optional:
            self.choose(g, g.rules.kinds[c[0]].id)
            return None
        opts = [opt(g.rules.kinds[k].id, f"gain {g.rules.kinds[k].id}") for k in c]
        if self.optional:
            opts.append(STOP)
        return Decision(self.ctx.me, "gain", tuple(opts), "gain a cube from the stock")

    def choose(self, g: Game, key: str) -> None:
        if key == "stop":
            g.stack.pop()
            return
        k = g.rules.kind(key)
        g.gain(self.ctx.me, k, 1, "effect")
        if self.as_:
            self.ctx.sel[self.as_].append(k)
        self.left -= 1


class Distribute(Frame):
    """For each revealed cube (or each cube of selection `among`), the player picks where it
    goes. The cubes of a `select` stay where they lie until then: each goes from its zone
    (one no longer there is passed over)."""

    __slots__ = ("ctx", "dests", "among", "zones")

    def blank(self) -> Frame:
        return Distribute(_NO_DESTS, self.ctx)

    def __init__(self, spec: Mapping[str, Any], ctx: Ctx) -> None:
        self.ctx = ctx
        self.dests = list(spec["to"])
        name = spec.get("among")
        self.among = list(ctx.sel.get(name, [])) if name else None
        picked = ctx.sel.get(SELECT_ZONES + name) if name else None
        self.zones: list[int] | None = list(picked) if picked is not None else None

    def run(self, g: Game) -> Decision | None:
        zones = g.race.players[self.ctx.me].zones
        if self.zones is not None and self.among is not None:  # the cubes of a `select`
            while self.among and zones[self.zones[0]][self.among[0]] <= 0:
                self.among.pop(0)
                self.zones.pop(0)
            kinds = self.among[:1]
            where = ZONE_NAMES_[self.zones[0]] if self.zones else ""
        else:
            rev = zones[REVEALED]
            kinds = [k for k, n in enumerate(rev) if n and (self.among is None or k in self.among)]
            where = "revealed"
        if not kinds:
            g.stack.pop()
            return None
        k = kinds[0]
        kid = g.rules.kinds[k].id
        return Decision(self.ctx.me, "distribute",
                        tuple(opt(f"{kid}:{d}", f"{kid} to {d}") for d in self.dests),
                        f"where does the {where} {kid} go?")

    def choose(self, g: Game, key: str) -> None:
        kid, _, dest = key.partition(":")
        k = g.rules.kind(kid)
        me = self.ctx.me
        src = REVEALED
        if self.zones is not None and self.among is not None:
            src = self.zones.pop(0)
            self.among.pop(0)
        if dest == "stock":
            g.remove(me, src, k)
        else:
            g.move_cube(me, src, DEST[dest], k)
        if src == REVEALED and self.among is not None and k in self.among:
            self.among.remove(k)


class Move(Frame):
    """PLAN_MOVE with the played cube (RULES §3.1.2), or a direct car move (`drive`)."""

    __slots__ = ("ctx", "drive", "left", "optional", "cols", "same", "steps", "spaces",
                 "crossings", "head", "kind", "shade_pending", "shade_opts", "stand_wear",
                 "restart", "as_", "origin", "lane_rule", "changes", "pre", "colour")

    def blank(self) -> Frame:
        return Move(_NO_SPEC, self.ctx, None, self.drive)

    def __init__(self, spec: Mapping[str, Any], ctx: Ctx, g: Game | None, drive: bool,
                 plan: MovePlan | None = None) -> None:
        if g is None:  # a blank for `clone`
            self.ctx = ctx
            return
        if plan is None:
            plan = plan_of("move", spec)
        self.ctx = ctx
        self.drive = drive
        t = g.race.turn
        spaces = plan.spaces
        count: tuple[int | None, bool] | None = plan.count
        self.kind = ctx.played
        self.cols: set[int] | frozenset[int] | None
        if plan.fixed_cols:
            self.cols = plan.cols
            self.colour = plan.colour
        else:
            self.cols = colours(g, plan.colours, ctx)
            self.colour = one_shade(self.cols)
        self.shade_pending = False
        self.shade_opts: list[int] = []
        self.stand_wear = 0
        if plan.gear and t is not None:
            if t.gear_spaces is not None:
                spaces = t.gear_spaces
                count = None
            if self.kind is not None and self.kind in t.stand_in:
                cspec, wear = t.stand_in[self.kind]
                extra = colours(g, cspec, ctx)
                own = g.rules.kinds[self.kind].gear
                opts = set(extra if extra is not None else (3, 4, 5, 6)) | ({own} if own else set())
                self.shade_opts = sorted(opts)
                self.stand_wear = number(g, wear, ctx)
                self.shade_pending = len(self.shade_opts) > 1
        lim, self.optional = count or count_spec(g, spaces, ctx)
        self.left = 10_000 if lim is None else lim
        self.same = plan.same
        self.lane_rule = lane_rule(g, spec, ctx) if plan.lanes else None
        self.changes = 0
        self.steps = 0
        self.spaces: list[int] = []
        self.crossings = 0
        self.restart = False
        p = g.race.players[ctx.me]
        if drive or t is None or not t.placements or t.player != ctx.me:
            self.head = (p.car.lane, p.car.segment)
        else:
            last = t.placements[-1]
            self.head = (last.lane, last.segment)
        self.origin = self.head
        self.as_ = plan.as_
        self.pre: list[tuple[int, int, int]] | None = None

    def targets(self, g: Game) -> list[tuple[int, int, int]]:
        me = self.ctx.me
        opts = g.rules.options
        head = self.head
        players = g.race.players
        out = targets_from(g.ix, opts, players, me, head[0], head[1], self.cols, self.colour)
        rule = self.lane_rule
        if rule is not None:
            out = rule.keep(g, head[0], out, self.changes)
        if not self.drive and not opts.placement_chain and self.steps == 0:
            # RULES §8.9 alternative: a placement may also start from the car again
            car = g.race.players[me].car
            if (car.lane, car.segment) != head:
                seen = {(ln, s) for _, ln, s in out}
                more = targets_from(g.ix, opts, players, me, car.lane, car.segment, self.cols,
                                    self.colour)
                if rule is not None:
                    more = rule.keep(g, car.lane, more, self.changes)
                out += [t for t in more if (t[1], t[2]) not in seen]
        return out

    def run(self, g: Game) -> Decision | None:
        me = self.ctx.me
        if self.shade_pending:
            own = g.rules.kinds[self.kind].gear if self.kind is not None else None
            return Decision(me, "shade", tuple(
                opt(f"shade {c}", f"as {GEAR_NAMES[c]}" + (f" (+{self.stand_wear} wear)"
                                                          if c != own and self.stand_wear else ""))
                for c in self.shade_opts), "which shade does this cube stand in for?")
        if self.drive is False and self.kind is None:
            g.stack.pop()
            return None
        tg = self.pre
        if tg is not None:  # targets worked out when the frame was made (`place_one`)
            self.pre = None
        else:
            tg = self.targets(g) if self.left > 0 else []
        if not tg:
            self.finish(g)
            return None
        if len(tg) == 1 and not self.optional:  # the only space: no decision
            self.step(g, tg[0][1], tg[0][2])
            return None
        opts = [g.ix.to_option(ln, s) for _sp, ln, s in tg]
        if self.optional:
            opts.append(STOP)
        return Decision(me, "drive" if self.drive else "move", tuple(opts),
                        move_text(self.drive, self.steps, self.left, self.optional))

    def choose(self, g: Game, key: str) -> None:
        if key.startswith("shade "):
            c = int(key[6:])
            own = g.rules.kinds[self.kind].gear if self.kind is not None else None
            self.cols = {c}
            self.colour = c
            self.shade_pending = False
            if c != own and self.stand_wear:
                g.gain(self.ctx.me, g.rules.wear, self.stand_wear, "effect")
            return
        if key == "stop":
            self.finish(g)
            return
        lane, seg = to_cell(key)
        self.step(g, lane, seg)

    def step(self, g: Game, lane: int, s: int) -> None:
        """One step of the move to (lane, s)."""
        sp = g.ix.cells[lane][s]
        me = self.ctx.me  # the fields read once (compiled, each read of a frame's is by name)
        drive = self.drive
        head = self.head
        steps = self.steps
        if steps == 0 and not drive and not g.rules.options.placement_chain:
            car = g.race.players[me].car
            from_head = {(ln, t) for _, ln, t in step_targets(
                g.ix, g.rules.options, g.occupancy(me), head[0], head[1], self.cols)}
            if (lane, s) not in from_head:
                head = (car.lane, car.segment)  # this placement starts from the car
                self.restart = True
        if s < head[1]:
            self.crossings += 1
        if self.lane_rule is not None and lane != head[0]:
            self.changes += 1
        self.head = (lane, s)
        self.spaces.append(sp)
        self.steps = steps + 1
        left = self.left - 1
        self.left = left
        if self.same:
            colour = g.ix.colours[sp]
            self.cols = {colour}
            self.colour = colour
        if drive:
            g.drive_step(me, lane, s, sp, s < g.race.players[me].car.segment)
        if left <= 0:  # the last step: what the next run would do
            self.finish(g)

    def finish(self, g: Game) -> None:
        g.stack.pop()
        me = self.ctx.me
        if self.as_ or "moved" in uses(g.rules):
            record_move(g, self)
        if self.drive:
            if self.steps:
                g.after_car_moved(me, self.spaces)
            return
        if self.steps and self.kind is not None:
            t = g.race.turn
            assert t is not None
            t.placements.append(Placement(self.kind, self.head[0], self.head[1],
                                          tuple(self.spaces), self.crossings, self.restart))
            if g.record:
                    g.emit("place", p=me, kind=g.rules.kinds[self.kind].id,
                       cell=f"{self.head[0]}:{self.head[1]}", steps=self.steps)


_MOVE_TEXTS: Final[dict[int, str]] = {}


def move_text(drive: bool, steps: int, left: int, optional: bool) -> str:
    """The text of a move's step decision (made once per int key of what it says)."""
    # (the cubes left count only when below 10 000 and optional: read as 10 000 otherwise)
    # (what changes most, the steps, in the low bits: an int's hash is the int)
    shown = left if optional and left < 10_000 else 10_000
    key = (((((shown << 20) | steps) << 1) | drive) << 1) | optional
    got = _MOVE_TEXTS.get(key) if steps < 1 << 20 else None
    if got is None:
        got = (f"{'drive' if drive else 'place the cube'}: step {steps + 1}"
               f"{'' if left >= 10_000 else f' of up to {steps + left}' if optional else ''}")
        if steps < 1 << 20:  # (always, in practice: the key holds the steps in 20 bits)
            if len(_MOVE_TEXTS) >= 10_000:
                _MOVE_TEXTS.clear()
            _MOVE_TEXTS[key] = got
    return got


def one_shade(cols: set[int] | frozenset[int] | None) -> int:
    """The one shade of a move's `cols`, or -1 (any, or several)."""
    if cols is not None and len(cols) == 1:
        for c in cols:
            return c
    return -1


class Others(Frame):
    """Offer an effect list to other players in turn or position order."""

    __slots__ = ("ctx", "who", "order", "effect", "done", "eligible", "asked", "mandatory")

    def blank(self) -> Frame:
        return Others(_NO_SPEC, self.ctx, None)

    def __init__(self, spec: Mapping[str, Any], ctx: Ctx, g: Game | None) -> None:
        if g is None:  # a blank for `clone`
            self.ctx = ctx
            return
        self.ctx = ctx
        self.who = spec.get("who", "all")
        self.order = spec.get("order", "turn")
        self.effect = spec["effect"]
        self.done: list[int] = []
        pos = g.positions(False)
        mine = pos[ctx.me]
        n = len(g.race.players)
        others = [i for i in range(n) if i != ctx.me]
        if self.who == "behind":
            others = [i for i in others if pos[i] > mine]
        elif self.who == "ahead":
            others = [i for i in others if pos[i] < mine]
        elif self.who in ADJACENT:
            others = adjacent_others(g, ctx.me, self.who)
        elif self.who == "mover":
            others = [i for i in ctx.sel.get(MOVER, ()) if i != ctx.me]
        self.eligible = others
        self.asked = -1
        self.mandatory = bool(spec.get("mandatory"))

    def next_player(self, g: Game) -> int | None:
        left = [i for i in self.eligible if i not in self.done]
        if not left:
            return None
        if self.order == "position":
            pos = g.positions(False)
            return min(left, key=pos.__getitem__)
        order = g.race.order
        me_at = order.index(self.ctx.me) if self.ctx.me in order else 0
        ring = order[me_at + 1:] + order[:me_at]
        return next(i for i in ring if i in left)

    def run(self, g: Game) -> Decision | None:
        p = self.next_player(g)
        if p is None:
            g.stack.pop()
            return None
        self.asked = p
        if self.mandatory:  # no offer to decline: the list runs for them now
            self.choose(g, "yes")
            return None
        return Decision(p, "offer", (opt("yes", "accept"), opt("no", "decline")),
                        f"accept the offer from player {self.ctx.me + 1}?")

    def choose(self, g: Game, key: str) -> None:
        p = self.asked
        self.done.append(p)
        if key == "yes":
            sub = Ctx(p, None, self.ctx.source)
            sub.sel = self.ctx.own_sel()  # counters and selections of the offering effect stay readable
            g.stack.append(EffectList(self.effect, sub))


class Shop(Frame):
    """Spend a budget on cubes from the stock (sponsors A and F)."""

    __slots__ = ("ctx", "budget", "to")

    def blank(self) -> Frame:
        return Shop(self.budget, self.to, self.ctx)

    def __init__(self, budget: int, to: str | None, ctx: Ctx) -> None:
        self.ctx = ctx
        self.budget = budget
        self.to = to

    def run(self, g: Game) -> Decision | None:
        rs = g.rules
        c = [k for k in rs.kinds if k.buyable and k.role != "wear" and g.race.stock[k.index] > 0
             and k.cost <= self.budget]
        if not c:
            g.stack.pop()
            return None
        return Decision(self.ctx.me, "shop", tuple([opt(f"buy {k.id}", f"buy {k.id} for ${k.cost}")
                                                    for k in c] + [opt("done")]),
                        f"spend up to ${self.budget}")

    def choose(self, g: Game, key: str) -> None:
        if key == "done":
            g.stack.pop()
            return
        k = g.rules.kind(key[4:])
        self.budget -= g.rules.kinds[k].cost
        dest = DEST[self.to] if self.to else None
        g.gain(self.ctx.me, k, 1, "shop", zone=dest)


# ---------------------------------------------------------------------------------------------
# State beyond the turn, progress, relative position, move results, arithmetic
# (docs/effects.md, issue 17 part A). Nothing here runs for a ruleset whose effects do not use
# these forms: the few turn-level records are gated by `uses(rules)`.
# ---------------------------------------------------------------------------------------------


_USES: Final[dict[int, tuple[Any, frozenset[str]]]] = {}  # id(ruleset) -> (ruleset, features)
# the ruleset `uses` answered last and its features: read by identity, without boxing its id and
# hashing it (held: the ruleset cannot go away and another take its place unseen)
_LAST_USES: Final[list[Any]] = [None, frozenset()]
LATER_AT: Final = ("next_turn_start", "next_action")  # `schedule` times beyond this turn


def uses(rules: Ruleset) -> frozenset[str]:
    """Features of the newer forms that a ruleset's effect data uses (worked out once).

    `start`: a form that reads where the cars stood at the start of the turn; `moved`: a
    `{moved: ...}` count (every move then records what it did).
    """
    last = _LAST_USES
    if last[0] is rules:  # the ruleset asked last (a race asks at every turn and move)
        return last[1]
    got = _USES.get(id(rules))
    if got is not None and got[0] is rules:
        last[0], last[1] = rules, got[1]
        return got[1]
    feats = _uses_of(rules)
    if len(_USES) >= 64:
        _USES.clear()
    _USES[id(rules)] = (rules, feats)
    last[0], last[1] = rules, feats
    return feats


def _uses_of(rules: Ruleset) -> frozenset[str]:
    """`uses`, worked out (a function of its own: compiled, a function that holds a nested one
    makes the nested one's environment at every call, the calls answered at once included)."""
    found: set[str] = set()

    def walk(x: Any) -> None:
        if isinstance(x, Mapping):
            for k, v in x.items():
                if k == "moved":
                    found.add("moved")
                elif k == "watch":
                    found.add("watch")
                elif k == "last_turn" or (k == "turn_stat" and v == "cubes_played"):
                    found.add("history")
                elif (k == "drafting" and v == "start_of_turn") or (
                        k == "turn_stat" and v == "cars_passed") or (
                        k == "progress" and v in ("crossings_this_turn", "crossed_line_this_turn")):
                    found.add("start")
                walk(v)
        elif isinstance(x, list | tuple):
            for v in x:
                walk(v)

    for k in rules.kinds:
        walk(k.effect)
    for d in rules.drivers:
        walk(d.hooks)
    return frozenset(found)


def memory(g: Game, me: int) -> Memory:
    """The player's race-long effect memory (made when first needed)."""
    p = g.race.players[me]
    if p.memory is None:
        p.memory = Memory()
    return p.memory


def turn_extra(g: Game) -> dict[str, Any] | None:
    """The turn's record of the newer forms (made when first needed; None outside a turn)."""
    t = g.race.turn
    if t is None:
        return None
    if t.extra is None:
        t.extra = {}
    return t.extra


def record_turn_start(g: Game) -> None:
    """Note where every car stands at the start of the turn (only for rules that read it), and
    the turn history (only for rules that read it: `{last_turn: ...}`, cubes played)."""
    feats = uses(g.rules)
    if "start" in feats:
        ex = turn_extra(g)
        assert ex is not None
        ex["start_cars"] = [(p.car.lane, p.car.segment, p.car.lap) for p in g.race.players]
    if "history" in feats:
        record_history(g)


def turn_start(g: Game, me: int) -> bool:
    """Start of `me`'s turn (TurnState just made): records, then delayed `next_turn_start`
    lists. True when lists were pushed (they run before the turn decision)."""
    record_turn_start(g)
    mem = g.race.players[me].memory
    if mem is not None and (mem.watches or mem.modifiers):
        turn_start_memory(g, me, mem)
    return push_later(g, me, "next_turn_start")


def push_later(g: Game, me: int, at: str) -> bool:
    """Push the effect lists `me` scheduled for `at` in an earlier turn, in scheduling order."""
    mem = g.race.players[me].memory
    if mem is None or not mem.later:
        return False
    due = [x for x in mem.later if x[0] == at]
    if not due:
        return False
    mem.later = [x for x in mem.later if x[0] != at]
    for _at, key, eff in due[::-1]:  # the stack runs the last pushed first
        g.stack.append(EffectList(eff, Ctx(me, None, key)))
    return True


def schedule_later(g: Game, arg: Mapping[str, Any], ctx: Ctx) -> None:
    """`schedule` at a time of a later turn: kept in the player's memory."""
    t = g.race.turn
    if t is not None:
        if arg["key"] in t.scheduled:
            return
        t.scheduled[arg["key"]] = (arg["at"], (), ctx.me)  # the once-per-turn mark only
    memory(g, ctx.me).later.append((arg["at"], arg["key"], arg["effect"]))


@swappable
def add_race_counter(g: Game, arg: Mapping[str, Any], ctx: Ctx) -> None:
    c = memory(g, ctx.me).counters
    c[arg["name"]] = c.get(arg["name"], 0) + number(g, arg.get("by", 1), ctx)


def p_set_flag(g: Game, arg: Mapping[str, Any], ctx: Ctx) -> None:
    if arg.get("lasts", "turn") == "race":
        memory(g, ctx.me).flags.add(arg["name"])
        return
    ex = turn_extra(g)
    if ex is not None:
        ex.setdefault("flags", set()).add((ctx.me, arg["name"]))


def p_clear_flag(g: Game, arg: Mapping[str, Any], ctx: Ctx) -> None:
    lasts = arg.get("lasts")
    if lasts in (None, "race"):
        mem = g.race.players[ctx.me].memory
        if mem is not None:
            mem.flags.discard(arg["name"])
    if lasts in (None, "turn"):
        t = g.race.turn
        if t is not None and t.extra is not None and "flags" in t.extra:
            t.extra["flags"].discard((ctx.me, arg["name"]))


@swappable
def has_flag(g: Game, me: int, name: str, lasts: str | None) -> bool:
    if lasts in (None, "race"):
        mem = g.race.players[me].memory
        if mem is not None and name in mem.flags:
            return True
    if lasts in (None, "turn"):
        t = g.race.turn
        if t is not None and t.extra is not None and (me, name) in t.extra.get("flags", ()):
            return True
    return False


def p_once(g: Game, arg: Mapping[str, Any], ctx: Ctx) -> None:
    per = arg.get("per", "race")
    key = arg["key"]
    if per == "turn":
        ex = turn_extra(g)
        seen: set[Any] | None = None if ex is None else ex.setdefault("once", set())
        token: Any = (ctx.me, key)
    else:
        seen = memory(g, ctx.me).once
        token = key if per == "race" else (key, g.race.round)
    if seen is not None:
        if token in seen:
            return
        seen.add(token)
    if arg["effect"]:
        g.stack.append(EffectList(arg["effect"], ctx))


def _laps_done(g: Game, me: int) -> int:
    return max(0, min(g.race.players[me].car.lap, g.race.laps))


def _start_cars(g: Game) -> list[tuple[int, int, int]] | None:
    t = g.race.turn
    return t.extra.get("start_cars") if t is not None and t.extra is not None else None


def _crossings_this_turn(g: Game, me: int) -> int:
    start = _start_cars(g)
    return max(0, g.race.players[me].car.lap - start[me][2]) if start else 0


def progress_number(g: Game, arg: str, ctx: Ctx) -> int:
    me = ctx.me
    laps = g.race.laps
    if arg == "lap":
        return min(_laps_done(g, me) + 1, laps)
    if arg == "laps":
        return laps
    if arg == "laps_done":
        return _laps_done(g, me)
    if arg == "laps_left":
        return laps - _laps_done(g, me)
    if arg == "round":
        return g.race.round
    if arg == "crossings_this_turn":
        return _crossings_this_turn(g, me)
    raise EffectError(f"unknown progress number {arg!r}")


def progress_condition(g: Game, arg: str, ctx: Ctx) -> bool:
    me = ctx.me
    if arg == "final_round":
        return g.race.final_round
    if arg == "last_lap":  # a car on the grid (lap -1) is on lap 1: the last one of a 1-lap race
        return max(0, g.race.players[me].car.lap) == g.race.laps - 1
    if arg == "finished":
        return g.race.players[me].car.lap >= g.race.laps
    if arg == "crossed_line_this_turn":
        return _crossings_this_turn(g, me) > 0
    raise EffectError(f"unknown progress condition {arg!r}")


def _dist(g: Game, lap: int, seg: int) -> int:
    return lap * g.ix.n + seg if g.rules.options.positions_count_laps else seg


def _key(g: Game, lane: int, seg: int, lap: int) -> tuple[int, int]:
    """Larger = further ahead (the standings' order: distance, ties to the inner lane)."""
    return (_dist(g, lap, seg), -lane)


def drafting_condition(g: Game, arg: str, ctx: Ctx) -> bool:
    from slipstream.engine.rulesets.automobiles.movement import drafts
    from slipstream.engine.rulesets.automobiles.state import Car

    me = ctx.me
    start = _start_cars(g) if arg == "start_of_turn" else None
    if start is None:  # `now` (or no record of the turn's start: a turn set up mid-way)
        return drafts(g.ix, g.rules.options, g.occupancy(me), g.race.players[me].car)
    occ = {(ln, s): i for i, (ln, s, _lap) in enumerate(start) if i != me}
    ln, s, lap = start[me]
    return drafts(g.ix, g.rules.options, occ, Car(ln, s, lap))


def cars_near(g: Game, me: int, where: str) -> list[int]:
    """The other players whose car is directly `ahead` of, `beside` or `behind` `me`'s car
    (the geometry of `{car: ...}`, docs/effects.md), in player order."""
    car = g.race.players[me].car
    occ = g.occupancy(me)
    lane, s = car.lane, car.segment
    n = g.ix.n
    if where == "ahead":
        cells = list(ahead_cells(g.ix, lane, s))
    elif where == "behind":
        cells = [(lane, (s - 1) % n)]
        track = g.track
        sp = track.spaces[track.cells[lane][s]]
        prev = track.cells[lane][(sp.first - 1) % n]
        if s == sp.first and prev >= 0:
            cells += [(lane, t) for t in track.spaces[prev].segments()]
    elif where == "beside":
        cells = [c for c in occ if c[0] != lane and c[1] == s]
    else:
        raise EffectError(f"unknown car condition {where!r}")
    return sorted({occ[c] for c in cells if c in occ})


def car_condition(g: Game, arg: str, ctx: Ctx) -> bool:
    return bool(cars_near(g, ctx.me, arg))


def gap_number(g: Game, arg: str, ctx: Ctx) -> int:
    me = ctx.me
    mine = g.distance(me)
    others = [g.distance(i) for i in range(len(g.race.players)) if i != me]
    if arg == "ahead":
        return min((d - mine for d in others if d > mine), default=0)
    if arg == "behind":
        return min((mine - d for d in others if d < mine), default=0)
    if arg == "leader":
        return max(0, max(others, default=mine) - mine)
    raise EffectError(f"unknown gap {arg!r}")


def cars_number(g: Game, arg: str, ctx: Ctx) -> int:
    pos = g.position_of(ctx.me, False)
    if arg == "ahead":
        return pos - 1
    if arg == "behind":
        return len(g.race.players) - pos
    raise EffectError(f"unknown cars count {arg!r}")


MOVED: Final = ("steps", "spaces", "cars_passed", "crossings")


def record_move(g: Game, m: Move) -> None:
    """What a finished move or drive did, for `{moved: ...}` (latest, and by its `as:` name)."""
    me = m.ctx.me
    car = g.race.players[me].car
    if m.drive:
        before = _key(g, m.origin[0], m.origin[1], car.lap - m.crossings)
        after = _key(g, car.lane, car.segment, car.lap)
    else:  # the cube's chain from the car
        before = _key(g, car.lane, car.segment, car.lap)
        t = g.race.turn
        chain = 0
        if t is not None and not m.restart:
            start = max((i for i, pl in enumerate(t.placements) if pl.from_car), default=0)
            chain = sum(pl.crossings for pl in t.placements[start:])
        after = _key(g, m.head[0], m.head[1], car.lap + chain + m.crossings)
    passed = 0
    for i, p in enumerate(g.race.players):
        if i != me:
            k = _key(g, p.car.lane, p.car.segment, p.car.lap)
            if before < k and k < after:
                passed += 1
    got = [m.steps, len(set(m.spaces)), passed, m.crossings]
    m.ctx.own_sel()["moved:"] = got
    if m.as_:
        m.ctx.own_sel()["moved:" + m.as_] = got


def moved_number(g: Game, arg: Any, ctx: Ctx) -> int:
    what, of = (arg, "") if isinstance(arg, str) else (arg["what"], arg.get("of", ""))
    got = ctx.sel.get("moved:" + of)
    return got[MOVED.index(what)] if got else 0


@swappable
def turn_stat_more(g: Game, arg: str, ctx: Ctx) -> int:
    t = g.race.turn
    me = ctx.me
    if t is None or t.player != me:
        return 0
    if arg == "spaces_entered":
        return len(t.entered)
    if arg == "cubes_played":
        return cubes_played(g, me)
    if arg == "cars_passed":
        start = _start_cars(g)
        if not start:
            return 0
        ps = g.race.players
        me_then = _key(g, *start[me])
        me_now = _key(g, ps[me].car.lane, ps[me].car.segment, ps[me].car.lap)
        return sum(1 for i, p in enumerate(ps) if i != me and _key(g, *start[i]) > me_then
                   and _key(g, p.car.lane, p.car.segment, p.car.lap) < me_now)
    raise EffectError(f"unknown turn_stat {arg!r}")


def divide_number(g: Game, arg: Mapping[str, Any], ctx: Ctx, them: int | None) -> int:
    left = number(g, arg["left"], ctx, them)
    by = number(g, arg["by"], ctx, them)
    if by <= 0:
        return 0
    rnd = arg.get("round", "down")
    if rnd == "up":
        return -(-left // by)
    if rnd == "nearest":
        return (2 * left + by) // (2 * by)
    return left // by


@swappable
def distinct_kinds_number(g: Game, arg: Mapping[str, Any], ctx: Ctx, them: int | None) -> int:
    """`{distinct_kinds: FILTER}` with kind filters or `among` (the plain zone form stays in
    `number`)."""
    allowed = kind_filter(g, arg)
    among = ctx.sel.get(arg["among"], []) if "among" in arg else None
    if among is not None and "zone" not in arg:
        return len({k for k in among if allowed is None or k in allowed})
    kinds: set[int] = set()
    for pi in players_for(g, arg.get("whose"), ctx, them):
        for z in zones_of(arg.get("zone", "discard")):
            kinds.update(k for k, n in enumerate(g.race.players[pi].zones[z]) if n and (
                allowed is None or k in allowed) and (among is None or k in among))
    return len(kinds)


NUMBER_FORMS: Final[dict[str, Any]] = {
    "race_counter": lambda g, a, ctx, them: (
        g.race.players[ctx.me].memory.counters.get(a, 0)
        if g.race.players[ctx.me].memory is not None else 0),
    "progress": lambda g, a, ctx, them: progress_number(g, a, ctx),
    "gap": lambda g, a, ctx, them: gap_number(g, a, ctx),
    "cars": lambda g, a, ctx, them: cars_number(g, a, ctx),
    "moved": lambda g, a, ctx, them: moved_number(g, a, ctx),
    "divide": divide_number,
    "shade": lambda g, a, ctx, them: shade_number(g, a, ctx),
    "minus": lambda g, a, ctx, them: max(0, number(g, a[0], ctx, them) - number(g, a[1], ctx, them)),
}
CONDITION_FORMS: Final[dict[str, Any]] = {
    "flag": lambda g, a, ctx, them: (has_flag(g, ctx.me, a, None) if isinstance(a, str)
                                     else has_flag(g, ctx.me, a["name"], a.get("lasts"))),
    "progress": lambda g, a, ctx, them: progress_condition(g, a, ctx),
    "drafting": lambda g, a, ctx, them: drafting_condition(g, a, ctx),
    "car": lambda g, a, ctx, them: car_condition(g, a, ctx),
    "car_on": lambda g, a, ctx, them: shade_number(g, "car", ctx) in a["colours"],
    "last_turn": lambda g, a, ctx, them: last_turn_condition(g, a, ctx),
}


# ---------------------------------------------------------------------------------------------
# Money, movement rules beyond colour, adjacent cars (docs/effects.md, issue 17 part B)
# ---------------------------------------------------------------------------------------------


@swappable
def money_number(g: Game, what: str, ctx: Ctx) -> int:
    """`{money: available}` / `{money: spent}`: this turn's money of `me` (0 when not on turn)."""
    t = g.race.turn
    if t is None or t.player != ctx.me:
        return 0
    if what == "spent":  # (money gained this turn was taken off `spent`: it is not spending)
        return t.spent + (t.extra.get("gained", 0) if t.extra is not None else 0)
    if what == "available":
        return max(0, g.money(ctx.me))
    raise EffectError(f"unknown money figure {what!r}")


def p_pay(g: Game, arg: Any, ctx: Ctx) -> None:
    """Spend N of this turn's money (all that is left when less is left)."""
    t = g.race.turn
    if t is None or t.player != ctx.me:
        return
    n = min(number(g, arg, ctx), money_number(g, "available", ctx))
    if n > 0:
        t.spent += n
    g.emit("pay", p=ctx.me, n=max(0, n))


@swappable
def modify_buy(g: Game, t: Any, arg: Mapping[str, Any], ctx: Ctx) -> None:
    """`modify_turn.prices` (changes add up) and `modify_turn.buy_limit` (the smaller wins)."""
    for ch in arg.get("prices", ()):
        prices = t.prices if t.prices is not None else {}
        for ref in seq(ch["kinds"]):
            try:
                kinds = g.rules.group(ref)
            except KeyError:
                continue  # a kind not in this game's card set
            for k in kinds:
                prices[k] = prices.get(k, 0) + int(ch["change"])
                if "floor" in ch:  # a minimum price: the highest floor given wins
                    ex = turn_extra(g)
                    assert ex is not None
                    floors = ex.setdefault("floors", {})
                    floors[k] = max(floors.get(k, 0), number(g, ch["floor"], ctx))
        t.prices = prices
    if "buy_limit" in arg:
        n = number(g, arg["buy_limit"], ctx)
        t.buy_limit = n if t.buy_limit is None else min(t.buy_limit, n)


class LaneRule(metaclass=PlainClass):
    """`straight`, `lanes` and `lane_change` of a move or drive: which steps may change lane."""

    __slots__ = ("straight", "lanes", "at_most")

    def __init__(self, straight: bool, lanes: frozenset[int] | None, at_most: int | None) -> None:
        self.straight = straight
        self.lanes = lanes
        self.at_most = at_most

    def keep(self, g: Game, origin_lane: int, targets: list[tuple[int, int, int]],
             changes: int) -> list[tuple[int, int, int]]:
        """The targets of one step from a cell in `origin_lane` that the rule allows."""
        same_only = self.straight or (self.at_most is not None and changes >= self.at_most)
        return [t for t in targets if (not same_only or t[1] == origin_lane)
                and (self.lanes is None or t[1] in self.lanes)]


def lane_rule(g: Game, spec: Mapping[str, Any], ctx: Ctx) -> LaneRule | None:
    """The lane rule of a move spec (None when it has none: the common case costs nothing)."""
    if "straight" not in spec and "lanes" not in spec and "lane_change" not in spec:
        return None
    lanes: frozenset[int] | None = None
    ls = spec.get("lanes")
    if ls == "inside":
        lanes = frozenset((0,))
    elif ls == "outside":
        lanes = frozenset((g.track.lanes - 1,))
    elif ls is not None:
        lanes = frozenset(int(x) for x in seq(ls))
    lc = spec.get("lane_change")
    at_most = number(g, lc["at_most"], ctx) if isinstance(lc, Mapping) and "at_most" in lc else None
    return LaneRule(bool(spec.get("straight")), lanes, at_most)


ADJACENT: Final = {"ahead_adjacent": "ahead", "beside": "beside", "behind_adjacent": "behind"}


@swappable
def adjacent_others(g: Game, me: int, who: str) -> list[int]:
    """Other players whose car is directly ahead of, beside or directly behind `me`'s car: the
    geometry of `{car: ...}` (`cars_near`), for `others: {who: ahead_adjacent | ...}`."""
    return cars_near(g, me, ADJACENT[who])


PRIMITIVES: Final[dict[str, Any]] = {
    "gain_wear": p_gain_wear,
    "gain": p_gain,
    "draw": p_draw,
    "remove": p_cubes("remove"),
    "move_cubes": p_cubes("move_cubes"),
    "select": p_cubes("select"),
    "distribute": p_distribute,
    "move": p_move,
    "drive": p_drive,
    "modify_turn": p_modify_turn,
    "choose_one": p_choose_one,
    "if": p_if,
    "add_counter": p_add_counter,
    "schedule": p_schedule,
    "others": p_others,
    "shop": p_shop,
    "set_flag": p_set_flag,
    "clear_flag": p_clear_flag,
    "once": p_once,
    "pay": p_pay,
    "watch": lambda g, arg, ctx: p_watch(g, arg, ctx),
    "gain_money": lambda g, arg, ctx: p_gain_money(g, arg, ctx),
    "play_if": lambda g, arg, ctx: None,  # checked before the card may be played (`play_conditions`)
    "set_counter": lambda g, arg, ctx: p_set_counter(g, arg, ctx),
    "lower_counter": lambda g, arg, ctx: p_lower_counter(g, arg, ctx),
    "take": lambda g, arg, ctx: g.stack.append(Take(arg, ctx, g)),
}


# The hot primitives as `PRIMITIVES` holds them at import: `run_primitive` calls the function
# behind one of these directly (compiled, a C call, not a call through Python's protocol with
# its arguments checked again); an entry a test has replaced is not one of these, and is called
# as it is
_P_MOVE: Final = PRIMITIVES["move"]
_P_MOVE_CUBES: Final = PRIMITIVES["move_cubes"]
_P_REMOVE: Final = PRIMITIVES["remove"]
_P_GAIN_WEAR: Final = PRIMITIVES["gain_wear"]
_P_IF: Final = PRIMITIVES["if"]
_P_DRAW: Final = PRIMITIVES["draw"]
_P_SELECT: Final = PRIMITIVES["select"]


def run_primitive(fn: Any, g: Game, arg: Any, ctx: Ctx) -> None:
    """Run primitive `fn` (an entry of `PRIMITIVES`) on `arg`."""
    if fn is _P_MOVE:
        p_move(g, arg, ctx)
    elif fn is _P_MOVE_CUBES:
        cubes_effect("move_cubes", g, arg, ctx)
    elif fn is _P_REMOVE:
        cubes_effect("remove", g, arg, ctx)
    elif fn is _P_GAIN_WEAR:
        p_gain_wear(g, arg, ctx)
    elif fn is _P_IF:
        p_if(g, arg, ctx)
    elif fn is _P_DRAW:
        p_draw(g, arg, ctx)
    elif fn is _P_SELECT:
        cubes_effect("select", g, arg, ctx)
    else:
        fn(g, arg, ctx)


# The primitives that may run while a look-ahead holds back other players' End-phase hands
# (Game.holding, lookahead.py `_opening`): each touches the piles of the player it acts for
# only, or other players' through `players_for`, which ends the hold. A primitive that is not
# listed (`take`, which reads and takes from other players' piles; any new one until it is
# looked at) ends the hold, as does any step acting for a player whose hand is held.
WHILE_HELD: Final = frozenset({
    "gain_wear", "gain", "draw", "remove", "move_cubes", "select", "distribute", "move", "drive",
    "modify_turn", "choose_one", "if", "add_counter", "schedule", "others", "shop", "set_flag",
    "clear_flag", "once", "pay", "watch", "gain_money", "play_if", "set_counter", "lower_counter",
})


def while_held(g: Game, name: Any, ctx: Ctx) -> None:
    """A step `name` about to run for `ctx.me` while `g` holds hands back: the hold ends
    (`broke`) unless the step is sure to leave them alone."""
    if ctx.me in g.held or name not in WHILE_HELD:
        g.broke = True


# ---------------------------------------------------------------------------------------------
# Reacting to the other players' moves, money and playability, counters that are set or
# lowered, race-long modifiers, the space under the car, turn history, cubes taken from another
# player (docs/effects.md, issue 34). As above, nothing here runs for rules whose effects do not
# use these forms: `reactive_forms` is read once per ruleset (game.RulesTables) and the turn
# history is recorded only when `uses` finds a reader.
# ---------------------------------------------------------------------------------------------


MOVER: Final = "mover:"  # `ctx.sel` key: the cars whose move fired a `watch` (`who: mover`)
RACE_LONG: Final = "\0race-long"  # the source of a race-long `modify_turn` applied again
WATCH_EVENTS: Final = ("passed", "ends_behind", "enters")
_PITS_SEEN: Final = "\0pits-seen"  # race-counter keys no slug can take (turn history)
_PREV_PIT: Final = "\0prev-pit"


def reactive_forms(rules: Ruleset) -> tuple[bool, dict[int, Any]]:
    """(whether any effect arms a `watch`, kind -> its card's `play_if` condition)."""
    play_if: dict[int, Any] = {}
    for k in rules.kinds:
        eff = k.effect
        if eff and isinstance(eff[0], _MAPPINGS) and "play_if" in eff[0]:
            play_if[k.index] = eff[0]["play_if"]
    return "watch" in uses(rules), play_if


def playable_now(g: Game, me: int, kind: int, test: Any) -> bool:
    """Whether `me` may play a cube of `kind` now: its card's `play_if` holds (read before the
    cube leaves the active pile)."""
    return condition(g, test, Ctx(me, kind, g.rules.kinds[kind].card))


def _car_key(g: Game, i: int) -> tuple[int, int]:
    c = g.race.players[i].car
    return _key(g, c.lane, c.segment, c.lap)


def cars_behind(g: Game, me: int) -> frozenset[int]:
    """The other players whose car is behind `me`'s car in the standings' order."""
    mine = _car_key(g, me)
    return frozenset(i for i in range(len(g.race.players)) if i != me and _car_key(g, i) < mine)


def p_watch(g: Game, arg: Mapping[str, Any], ctx: Ctx) -> None:
    """Arm a trigger of `me` (one per key: arming it again replaces it)."""
    mem = memory(g, ctx.me)
    key = arg["key"]
    mem.watches = [w for w in mem.watches if w[0] != key] + [(key, arg, -1, cars_behind(g, ctx.me))]
    if g.record:
        g.emit("watch", p=ctx.me, key=key)


def watch_events(g: Game, mover: int, spaces: Sequence[int] | None) -> None:
    """A car has moved (a Car-phase route when `spaces` is None, else a drive entering those
    spaces): fire the `watch` triggers of the other players that it meets, each at most once a
    turn, in player order."""
    race = g.race
    stamp = race.turns_taken
    fired: list[tuple[int, str, Any, list[int]]] = []
    for owner, p in enumerate(race.players):
        mem = p.memory
        if mem is None or not mem.watches:
            continue
        out = []
        for w in mem.watches:
            key, spec, last, behind = w
            on = spec["when"]
            hit: list[int] = []
            if on == "passed":
                now = cars_behind(g, owner)
                hit = sorted(i for i in behind if i not in now)
                w = (key, spec, last, now)
            elif mover != owner:
                if on == "ends_behind":
                    hit = [mover] if mover in cars_near(g, owner, "behind") else []
                else:  # enters
                    if spaces is None:
                        t = race.turn
                        spaces = [sp for pl in t.placements for sp in pl.spaces] if (
                            t is not None and t.player == mover) else []
                    cols = spec["colours"]
                    colour_of = g.ix.colours
                    hit = [mover] if any(colour_of[sp] in cols for sp in spaces) else []
            if hit and last != stamp:
                w = (key, spec, stamp, w[3])
                fired.append((owner, key, spec["effect"], hit))
            out.append(w)
        mem.watches = out
    for owner, key, eff, hit in fired[::-1]:  # the stack runs the last pushed first
        ctx = Ctx(owner, None, key)
        ctx.own_sel()[MOVER] = hit
        if g.record:
            g.emit("trigger", p=owner, key=key, by=hit)
        if eff:
            g.stack.append(EffectList(eff, ctx))


def turn_start_memory(g: Game, me: int, mem: Memory) -> None:
    """At the start of `me`'s turn: triggers armed `until: next_turn` end, race-long modifiers
    apply to the new turn."""
    if mem.watches:
        mem.watches = [w for w in mem.watches if w[1].get("until", "next_turn") != "next_turn"]
    for arg in mem.modifiers:
        p_modify_turn(g, arg, Ctx(me, None, RACE_LONG))


def p_gain_money(g: Game, arg: Any, ctx: Ctx) -> None:
    """Add N to this turn's money (nothing for a player whose turn it is not)."""
    t = g.race.turn
    if t is None or t.player != ctx.me:
        return
    n = number(g, arg, ctx)
    if n > 0:
        t.spent -= n  # the money is the active pile's value minus `spent`
        ex = turn_extra(g)
        assert ex is not None
        ex["gained"] = ex.get("gained", 0) + n
    if g.record:
        g.emit("gain_money", p=ctx.me, n=n)


def _counters(g: Game, arg: Mapping[str, Any], ctx: Ctx) -> dict[str, int] | None:
    if arg.get("lasts") == "race":
        return memory(g, ctx.me).counters
    t = g.race.turn
    return t.counters if t is not None else None


def p_set_counter(g: Game, arg: Mapping[str, Any], ctx: Ctx) -> None:
    c = _counters(g, arg, ctx)
    if c is not None:
        c[arg["name"]] = number(g, arg.get("value", 0), ctx)


def p_lower_counter(g: Game, arg: Mapping[str, Any], ctx: Ctx) -> None:
    c = _counters(g, arg, ctx)
    if c is not None:
        c[arg["name"]] = max(0, c.get(arg["name"], 0) - number(g, arg.get("by", 1), ctx))


def shade_number(g: Game, arg: Any, ctx: Ctx) -> int:
    """`{shade: car}`: the gear colour of the space under the car; `{shade: {highest: NAME}}` /
    `{shade: {lowest: NAME}}`: of the gears of a selection (0 when it holds none)."""
    if arg == "car":
        car = g.race.players[ctx.me].car
        return int(g.ix.colours[g.track.cells[car.lane][car.segment]])
    (op, name), = arg.items()
    gears = gear_of(g, ctx.sel.get(name, []))
    if not gears:
        return 0
    if op == "highest":
        return max(gears)
    if op == "lowest":
        return min(gears)
    raise EffectError(f"unknown shade {op!r}")


def record_history(g: Game) -> None:
    """At the start of a turn: the cubes played so far (for `cubes_played`) and whether the
    player's previous turn was a pit stop (for `{last_turn: ...}`)."""
    t = g.race.turn
    if t is None:
        return
    me = t.player
    stats = g.race.stats
    ex = turn_extra(g)
    assert ex is not None
    ex["plays0"] = sum(stats["plays"][me])
    c = memory(g, me).counters
    pits = stats["pits"][me]
    c[_PREV_PIT] = int(pits > c.get(_PITS_SEEN, 0))
    c[_PITS_SEEN] = pits


def cubes_played(g: Game, me: int) -> int:
    t = g.race.turn
    if t is None or t.player != me or t.extra is None or "plays0" not in t.extra:
        return 0
    return sum(g.race.stats["plays"][me]) - t.extra["plays0"]


def last_turn_condition(g: Game, arg: str, ctx: Ctx) -> bool:
    """`{last_turn: pit | standard}`: the player's latest turn before this one (in their own
    turn: the previous one) was a pit stop / a standard turn. False before their first turn."""
    me = ctx.me
    mem = g.race.players[me].memory
    c = mem.counters if mem is not None else {}
    t = g.race.turn
    if t is not None and t.player == me:
        if _PITS_SEEN not in c:
            return False
        pit = bool(c.get(_PREV_PIT, 0))
        first = g.race.stats["turns"][me] == 0
    else:
        pit = g.race.stats["pits"][me] > c.get(_PITS_SEEN, 0)
        first = g.race.stats["turns"][me] == 0
    if first:
        return False
    return pit if arg == "pit" else not pit


TAKE_FROM: Final = ("bag", "active", "discard")


def eligible_others(g: Game, ctx: Ctx, who: str) -> list[int]:
    """The other players `who` names (the values of `others.who`), in player order."""
    pos = g.positions(False)
    mine = pos[ctx.me]
    others = [i for i in range(len(g.race.players)) if i != ctx.me]
    if who == "behind":
        return [i for i in others if pos[i] > mine]
    if who == "ahead":
        return [i for i in others if pos[i] < mine]
    if who in ADJACENT:
        return adjacent_others(g, ctx.me, who)
    if who == "mover":
        return [i for i in ctx.sel.get(MOVER, ()) if i != ctx.me]
    return others


class Take(Frame):
    """`take`: move cubes from another player's zone to one of mine. I pick the player when
    several have a fitting cube; the cubes are picked by me or by them (`chosen_by`)."""

    __slots__ = ("ctx", "zones", "dest", "allowed", "left", "optional", "by_them", "as_",
                 "cands", "victim")

    def blank(self) -> Frame:
        return Take(_NO_SPEC, self.ctx, None)

    def __init__(self, spec: Mapping[str, Any], ctx: Ctx, g: Game | None) -> None:
        if g is None:  # a blank for `clone`
            self.ctx = ctx
            return
        self.ctx = ctx
        self.zones = zones_of(spec.get("from", "discard"))
        self.dest = DEST[spec.get("to", "discard")]
        self.allowed = kind_filter(g, spec)
        lim, self.optional = count_spec(g, spec.get("count", 1), ctx)
        self.left = 10_000 if lim is None else lim
        self.by_them = spec.get("chosen_by", "me") == "them"
        self.as_ = spec.get("as")
        if self.as_:
            ctx.own_sel()[self.as_] = []
        self.cands = eligible_others(g, ctx, spec.get("who", "all"))
        self.victim = -1

    def fitting(self, g: Game, i: int) -> list[tuple[int, int]]:
        zones = g.race.players[i].zones
        allowed = self.allowed
        return [(z, k) for z in self.zones for k, n in enumerate(zones[z])
                if n and (allowed is None or k in allowed)]

    def run(self, g: Game) -> Decision | None:
        me = self.ctx.me
        if self.left <= 0:
            g.stack.pop()
            return None
        if self.victim < 0:
            left = [i for i in self.cands if self.fitting(g, i)]
            if not left:
                g.stack.pop()
                return None
            if len(left) > 1:
                return Decision(me, "take_from", tuple(
                    opt(f"player {i + 1}", f"take from {g.race.players[i].name}") for i in left),
                    "take cubes from which player?")
            self.victim = left[0]
        cubes = self.fitting(g, self.victim)
        if not cubes:
            g.stack.pop()
            return None
        if len(cubes) == 1 and not self.optional:
            self.take(g, *cubes[0])
            return None
        opts = [cube_option("take", z, g.rules.kinds[k].id) for z, k in cubes]
        if self.optional:
            opts.append(STOP)
        chooser = self.victim if self.by_them else me
        return Decision(chooser, "take", tuple(opts),
                        f"player {me + 1} takes {'up to ' if self.optional else ''}"
                        f"{'any number of' if self.left >= 10_000 else self.left} cube(s) from "
                        f"player {self.victim + 1}")

    def choose(self, g: Game, key: str) -> None:
        if key.startswith("player "):
            self.victim = int(key[7:]) - 1
            return
        if key == "stop":
            g.stack.pop()
            return
        zname, _, kid = key.partition(":")
        self.take(g, ZONE_INDEX[zname], g.rules.kind(kid))

    def take(self, g: Game, zone: int, k: int) -> None:
        me = self.ctx.me
        players = g.race.players
        # (not `-=` and `+=` on the items: compiled, those are generic operations on objects)
        src, dst = players[self.victim].zones[zone], players[me].zones[self.dest]
        src[k] = src[k] - 1
        dst[k] = dst[k] + 1
        self.left -= 1
        if self.as_:
            self.ctx.sel[self.as_].append(k)
        if g.record:
            g.emit("take", p=me, kind=g.rules.kinds[k].id, src=self.victim, zone=ZONE_NAMES_[zone],
                   dst=ZONE_NAMES_[self.dest])
