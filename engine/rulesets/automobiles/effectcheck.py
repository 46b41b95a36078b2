"""Cross-checks of effect lists against the vocabulary and the pack (codes E101-E109, E120-E124).

The vocabulary itself (schemas/effect.schema.json, docs/effects.md) belongs to the rules
engine. The schema checks shapes; these checks name the problem precisely where the schema can
only say "not valid under any of the given schemas" (an unknown primitive or zone), and check
what the schema cannot know: cube kinds and gear colours of the pack, selections named by an
earlier `as:`, turn counters that are read but never raised, and forms the schema allows that
cannot do anything where they stand: `all` where no cubes are counted (E107), a step that needs
the played cube where none is played (E108), `distribute` over cubes it cannot send (E109).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

from slipstream.engine.core.diagnostics import Diagnostic, make
from slipstream.engine.core.schema import schema_files
from slipstream.engine.core.yamlsource import Loaded, PathKey, SourceMap, json_path

if TYPE_CHECKING:
    from slipstream.engine.rulesets.automobiles.content import Pack

KIND_GROUPS = ("gears", "actions")
SOURCE_EXTRA = ("played",)
# Keys whose value names an earlier selection (`as: NAME`).
SELECTION_KEYS = ("among", "selected", "cost_of", "one_higher", "same_as", "one_lower", "lower_than",
                  "higher_than", "highest", "lowest")
KIND_KEYS = ("kind", "kinds", "not_kinds")
ZONE_KEYS = ("zone", "from")
NESTED_LISTS = ("then", "else", "effect")
# Counts where `all` counts nothing (spaces, not cubes): (primitive, key).
NOT_CUBES = (("move", "spaces"), ("drive", "spaces"), ("modify_turn", "gear_spaces"))
# Nested lists that run without the played cube: a scheduled list, and the lists of others.
NO_PLAYED = ("schedule", "others", "watch")
# The makers of a selection `distribute` can send: `select` (the cubes stay where they lie) and
# `draw` with `at_once` (the cubes wait in `revealed`).
DISTRIBUTABLE = ("select", "revealed")
# Reads checked against what the pack raises: race counters and flags go in the counter
# tables under these prefixes (never a slug's first character).
READ_MARKS = ("race_counter", "flag", "moved")
RACE = "race:"
FLAG = "flag:"


@cache
def primitives() -> tuple[str, ...]:
    """Primitive names of the effect vocabulary, read from its schema."""
    defs = schema_files().get("effect.schema.json", {}).get("$defs", {})
    return tuple(k[2:] for k in defs if k.startswith("p_"))


@cache
def zones() -> tuple[str, ...]:
    defs = schema_files().get("effect.schema.json", {}).get("$defs", {})
    return tuple(defs.get("zone", {}).get("enum", ()))


def effect_lists(kind: str, data: Any) -> Iterator[tuple[PathKey, Any]]:
    """(path, effect list) of every effect list in a data file of `kind`."""
    if not isinstance(data, dict):
        return
    main = {"cards": "cards", "drivers": "drivers", "sponsors": "sponsors"}.get(kind)
    if main is None:
        return
    for key in (main, "overrides"):
        items = data.get(key)
        if not isinstance(items, list):
            continue
        for i, item in enumerate(items):
            if not isinstance(item, dict):
                continue
            if kind == "cards" and "effect" in item:
                yield (key, i, "effect"), item["effect"]
            sub = {"drivers": "hooks", "sponsors": "brackets"}.get(kind)
            if sub and isinstance(item.get(sub), dict):
                for name, lst in item[sub].items():
                    yield (key, i, sub, name), lst


def _near(word: str, options: tuple[str, ...] | list[str]) -> str | None:
    m = difflib.get_close_matches(str(word), list(options), n=1, cutoff=0.5)
    return m[0] if m else None


@dataclass(slots=True)
class _Walk:
    """State of one walk over an effect list."""

    src: SourceMap
    kinds: tuple[str, ...] | None  # None: do not check kinds (no pack known)
    colours: tuple[int, ...] | None
    diags: list[Diagnostic] = field(default_factory=list)
    bad_steps: list[PathKey] = field(default_factory=list)
    selections: set[str] = field(default_factory=set)
    counters_read: list[tuple[str, PathKey]] = field(default_factory=list)
    counters_raised: set[str] = field(default_factory=set)
    # whether the list being walked runs with a played cube (None: not known, not checked)
    played: bool | None = None
    made_by: dict[str, str] = field(default_factory=dict)  # selection -> the step that made it

    def report(self, code: str, path: PathKey, message: str, hint: str | None = None,
               key: bool = False) -> None:
        pos = self.src.key(path) if key else self.src.value(path)
        self.diags.append(make(code, self.src.file, pos.line, pos.column, json_path(path),
                               message, hint=hint))

    def steps(self, lst: Any, path: PathKey) -> None:
        if not isinstance(lst, list | tuple):
            return
        for i, step in enumerate(lst):
            self.step(step, (*path, i))

    def step(self, step: Any, path: PathKey) -> None:
        if not isinstance(step, dict) or len(step) != 1:
            return  # the schema reports the shape
        (name, body), = step.items()
        if name not in primitives():
            near = _near(name, primitives())
            self.report("E101", (*path, name), f"unknown effect primitive {name!r}",
                        hint=f"did you mean {near!r}?" if near else "see docs/effects.md", key=True)
            self.bad_steps.append(path)
            return
        before = len(self.diags)
        if isinstance(body, dict):
            self.nothing_counted(name, body, path)
            self.needs_played(name, body, path)
        if name == "choose_one" and isinstance(body, list | tuple):
            for j, opt in enumerate(body):
                if isinstance(opt, dict) and "effect" in opt and len(opt) <= 2 and (
                        "label" in opt or len(opt) == 1):
                    self.steps(opt["effect"], (*path, name, j, "effect"))
                else:
                    self.step(opt, (*path, name, j))
        else:
            self.value(body, (*path, name), name)
        if name == "distribute" and isinstance(body, dict) and isinstance(body.get("among"), str):
            made = self.made_by.get(body["among"])
            if made is not None and made not in DISTRIBUTABLE:
                self.report("E109", (*path, name, "among"),
                            f"`distribute` sends cubes picked by `select` or drawn `at_once`; the cubes of "
                            f"{body['among']!r} (made by `{made}`) are not sent anywhere",
                            hint="pick them with `select: {..., as: " + body["among"] + "}`, or draw them "
                            "with `at_once: true`")
        if any(d.code == "E102" for d in self.diags[before:]):
            self.bad_steps.append(path)

    def nothing_counted(self, name: str, body: dict[str, Any], path: PathKey) -> None:
        """E107: `all` (or `{up_to: all}`) counting spaces: a move that never ends."""
        for prim, key in NOT_CUBES:
            v = body.get(key) if prim == name else None
            if v == "all" or (isinstance(v, dict) and v.get("up_to") == "all"):
                kp = (*path, name, key) if v == "all" else (*path, name, key, "up_to")
                self.report("E107", kp, f"`all` counts cubes, and `{name}.{key}` counts spaces: the move would "
                            "never end", hint="give a number or a count expression, e.g. {up_to: 3} or "
                            "{count: {zone: discard}}")

    def needs_played(self, name: str, body: dict[str, Any], path: PathKey) -> None:
        """E108: a step that needs the played cube where no cube is played."""
        if self.played is not False:
            return
        if name == "move":
            self.report("E108", (*path, name), "`move` places the played cube, and none is played here "
                        "(a scheduled list, the list of `others`, a driver hook or a sponsor)",
                        hint="use `drive` to move the car itself", key=True)
        elif body.get("from") == "played":
            self.report("E108", (*path, name, "from"), f"`{name}` from `played`: no cube is played here "
                        "(a scheduled list, the list of `others`, a driver hook or a sponsor)",
                        hint="name a zone, e.g. `from: used`")

    def value(self, v: Any, path: PathKey, prim: str) -> None:
        if isinstance(v, dict):
            for k, sub in v.items():
                kp = (*path, k)
                if k in NESTED_LISTS and isinstance(sub, list | tuple):
                    played = self.played
                    if prim in NO_PLAYED and k == "effect" and played is not None:
                        self.played = False  # these lists run with no played cube
                    self.steps(sub, kp)
                    self.played = played
                elif k in ZONE_KEYS:
                    self.zone(sub, kp, allow_played=(k == "from"))
                elif k in KIND_KEYS:
                    self.kind(sub, kp)
                elif k in SELECTION_KEYS and isinstance(sub, str):
                    if sub not in self.selections:
                        near = _near(sub, sorted(self.selections))
                        self.report("E105", kp, f"selection {sub!r} is not named by an earlier step",
                                    hint=f"did you mean {near!r}?" if near else
                                    "name the earlier step with `as: " + sub + "`")
                elif k == "as" and isinstance(sub, str):
                    self.selections.add(sub)
                    self.made_by[sub] = "revealed" if prim == "draw" and v.get("at_once") else prim
                elif k == "counter" and isinstance(sub, str):
                    self.counters_read.append((sub, kp))
                elif k == "name" and prim in ("add_counter", "set_counter") and isinstance(sub, str):
                    self.counters_raised.add(sub if v.get("lasts") != "race" else RACE + sub)
                elif k == "name" and prim == "lower_counter" and isinstance(sub, str):
                    self.counters_read.append((sub if v.get("lasts") != "race" else RACE + sub, kp))
                elif k in READ_MARKS and self.later_read(k, sub, kp):
                    pass
                elif k == "name" and prim == "set_flag" and isinstance(sub, str):
                    self.counters_raised.add(FLAG + sub)
                elif k == "colours":
                    self.colour(sub, kp)
                else:
                    self.value(sub, kp, prim)
            # `as` names the selection for later steps, but read keys of the same step first.
        elif isinstance(v, list | tuple):
            for j, sub in enumerate(v):
                self.value(sub, (*path, j), prim)

    def later_read(self, k: str, sub: Any, kp: PathKey) -> bool:
        """Reads of the newer forms: race counters and flags (checked like turn counters),
        and the move named by `{moved: {of: NAME}}` (like a selection)."""
        if k == "race_counter" and isinstance(sub, str):
            self.counters_read.append((RACE + sub, kp))
        elif k == "flag" and isinstance(sub, str | dict):
            name = sub if isinstance(sub, str) else sub.get("name")
            if isinstance(name, str):
                self.counters_read.append((FLAG + name, kp if isinstance(sub, str) else (*kp, "name")))
        elif k == "moved" and isinstance(sub, dict) and isinstance(sub.get("of"), str):
            if sub["of"] not in self.selections:
                near = _near(sub["of"], sorted(self.selections))
                self.report("E105", (*kp, "of"), f"move {sub['of']!r} is not named by an earlier step",
                            hint=f"did you mean {near!r}?" if near else
                            "name the earlier move or drive with `as: " + sub["of"] + "`")
        else:
            return False
        return True

    def zone(self, v: Any, path: PathKey, allow_played: bool) -> None:
        known = (*zones(), *(SOURCE_EXTRA if allow_played else ()))
        items = list(enumerate(v)) if isinstance(v, list | tuple) else [(None, v)]
        for j, z in items:
            if isinstance(z, str) and z not in known:
                p = path if j is None else (*path, j)
                near = _near(z, known)
                self.report("E102", p, f"unknown zone {z!r}",
                            hint=f"did you mean {near!r}?" if near else "zones: " + ", ".join(known))

    def kind(self, v: Any, path: PathKey) -> None:
        if self.kinds is None:
            return
        known = (*self.kinds, *KIND_GROUPS)
        items = list(enumerate(v)) if isinstance(v, list | tuple) else [(None, v)]
        for j, k in items:
            if isinstance(k, str) and k not in known:
                p = path if j is None else (*path, j)
                near = _near(k, known)
                self.report("E103", p, f"unknown cube kind {k!r}",
                            hint=f"did you mean {near!r}?" if near else "kinds: " + ", ".join(known))

    def colour(self, v: Any, path: PathKey) -> None:
        if isinstance(v, dict):
            by = v.get("by_position")
            if isinstance(by, dict):
                for key, lst in by.items():
                    self.colour(lst, (*path, "by_position", key))
                return
            for k, sub in v.items():
                if k in SELECTION_KEYS and isinstance(sub, str) and sub not in self.selections:
                    self.report("E105", (*path, k), f"selection {sub!r} is not named by an earlier step",
                                hint="name the earlier step with `as: " + sub + "`")
            return
        if not isinstance(v, list | tuple) or self.colours is None:
            return
        for j, c in enumerate(v):
            if isinstance(c, int) and not isinstance(c, bool) and c not in self.colours:
                self.report("E104", (*path, j), f"no gear cube kind has colour {c}",
                            hint="gear colours of this pack: " + ", ".join(map(str, self.colours)))


EFFECT_SCHEMA = "https://slipstream.invalid/schemas/effect.schema.json"


@cache
def _primitive_validator(name: str) -> Any:
    from jsonschema import Draft202012Validator

    from slipstream.engine.core.schema import registry

    return Draft202012Validator({"$ref": f"{EFFECT_SCHEMA}#/$defs/p_{name}"}, registry=registry())


_SHAPE_ERRORS = ("type", "const", "enum", "required", "oneOf", "anyOf")


def _relevance(err: Any) -> tuple[int, int, float]:
    """Deeper errors first, then errors inside a branch of the right shape, then (for unknown
    keys) the branch whose keys look most like the ones written."""
    score = 0.0
    if err.validator == "additionalProperties" and isinstance(err.instance, dict) and isinstance(err.schema, dict):
        props = list(err.schema.get("properties", {}))
        for k in err.instance:
            if k not in props:
                m = difflib.get_close_matches(str(k), props, n=1, cutoff=0.0)
                if m:
                    score = max(score, difflib.SequenceMatcher(None, str(k), m[0]).ratio())
    return (len(err.absolute_path), err.validator not in _SHAPE_ERRORS, score)


def _leaf(err: Any) -> Any:
    """The most telling error of a `oneOf`/`anyOf` failure."""
    while err.context:
        err = max(err.context, key=_relevance)
    return err


def _nested_steps(name: str, body: Any) -> list[tuple[PathKey, Any]]:
    """(path inside the step, nested step) of the effect lists a step holds."""
    out: list[tuple[PathKey, Any]] = []
    if isinstance(body, dict):
        for key in NESTED_LISTS:
            lst = body.get(key)
            if isinstance(lst, list):
                out += [((name, key, i), sub) for i, sub in enumerate(lst)]
    if name == "choose_one" and isinstance(body, list):
        for j, opt in enumerate(body):
            if isinstance(opt, dict) and "effect" in opt and set(opt) <= {"label", "effect"}:
                if isinstance(opt["effect"], list):
                    out += [((name, j, "effect", i), sub) for i, sub in enumerate(opt["effect"])]
            else:
                out.append(((name, j), opt))
    return out


def step_diagnostics(step: Any, path: PathKey, src: SourceMap) -> list[Diagnostic]:
    """Precise schema errors of one invalid effect step, checked against its own primitive.

    The vocabulary's `effect` is a `oneOf` over every primitive, so a plain schema check of
    a misspelt key says only which unrelated primitive's key is missing. Checking the step
    against the schema of the primitive it names gives the real problem; nested effect lists
    are checked step by step in the same way.
    """
    if not isinstance(step, dict) or len(step) != 1:
        return []
    (name, body), = step.items()
    if name not in primitives():
        return []  # E101, reported by the walk
    out: list[Diagnostic] = []
    nested = _nested_steps(name, body)
    for sub_path, sub in nested:
        out += step_diagnostics(sub, (*path, *sub_path), src)
    skip = [p for p, _ in nested]
    seen: set[tuple[str, str]] = set()
    for err in _primitive_validator(name).iter_errors(step):
        err = _leaf(err)
        rel = tuple(err.absolute_path)
        if any(rel[:len(p)] == p for p in skip):
            continue
        full = (*path, *rel)
        if err.validator == "additionalProperties" and isinstance(err.instance, dict):
            props = list(err.schema.get("properties", {})) if isinstance(err.schema, dict) else []
            for k in err.instance:
                if k in props:
                    continue
                kp = (*full, k)
                pos = src.key(kp)
                near = _near(str(k), props)
                if ("S002", json_path(kp)) not in seen:
                    seen.add(("S002", json_path(kp)))
                    out.append(make("S002", src.file, pos.line, pos.column, json_path(kp),
                                    f"unknown property {k!r} of `{name}`",
                                    hint=f"did you mean {near!r}?" if near else
                                    "`" + name + "` takes: " + ", ".join(props)))
            continue
        code = "S003" if err.validator == "required" else "S001"
        if (code, json_path(full) + err.message) in seen:
            continue
        seen.add((code, json_path(full) + err.message))
        pos = src.value(full)
        desc = err.schema.get("description") if isinstance(err.schema, dict) else None
        out.append(make(code, src.file, pos.line, pos.column, json_path(full),
                        f"{err.message} (in `{name}`)",
                        hint=desc if code == "S001" and desc and len(desc) < 200 else None))
    return out


def schema_noise(diags: list[Diagnostic], loaded: Loaded) -> list[Diagnostic]:
    """Schema diagnostics of a file with effect steps explained precisely: unknown primitives
    and zones as E101/E102, other mistakes by the schema of the step's own primitive."""
    if not diags or not isinstance(loaded.data, dict):
        return diags
    from slipstream.engine.core import schemafast

    kind = str(loaded.data.get("slipstream", "")).partition("/")[0]
    walk = _Walk(loaded.source, None, None)
    lists = list(effect_lists(kind, loaded.data))
    for path, lst in lists:
        walk.selections = set()
        walk.steps(lst, path)
    replaced = list(walk.bad_steps)
    precise = [d for d in walk.diags if d.code in ("E101", "E102")]
    for path, lst in lists:
        if not isinstance(lst, list):
            continue
        for i, step in enumerate(lst):
            sp = (*path, i)
            if any(sp[:len(b)] == b or b[:len(sp)] == sp for b in walk.bad_steps):
                continue
            if schemafast.is_valid("effect", step, "effect") is not False:
                continue
            found = step_diagnostics(step, sp, loaded.source)
            if found:
                precise += found
                replaced.append(sp)
    if not replaced:
        return diags
    prefixes = [json_path(p) for p in replaced]

    def inside(d: Diagnostic) -> bool:
        return any(d.path == p or d.path.startswith((p + ".", p + "[")) for p in prefixes)

    return precise + [d for d in diags if not inside(d)]


def check_effects(pack: Pack, *, files: set[str]) -> list[Diagnostic]:
    """E-coded diagnostics for the effect lists written in `files` (the pack's own files)."""
    from slipstream.engine.rulesets.automobiles.content import iter_effects

    kinds = tuple(pack.cube_kinds)
    colours = tuple(k.gear for k in pack.cube_kinds.values() if k.gear is not None)
    out: list[Diagnostic] = []
    raised: set[str] = set()
    reads: list[tuple[str, PathKey, SourceMap]] = []
    lanes = max((t.lanes for t in pack.tracks.values()), default=0)
    for _label, origin, sub, effect in iter_effects(pack):
        src = pack.sources.get(origin.file)
        if src is None:
            continue
        walk = _Walk(src, kinds, colours, played=_label.startswith("card "))
        walk.steps(effect, (*origin.path, *sub))
        raised |= walk.counters_raised
        if origin.file in files:
            out += walk.diags
            out += money_and_lane_checks(_label, sub, effect, (*origin.path, *sub), src, lanes)
            out += reaction_checks(_label, effect, (*origin.path, *sub), src)
            reads += [(name, p, src) for name, p in walk.counters_read]
    for name, p, src in reads:
        if name not in raised:
            pos = src.value(p)
            out.append(_never_raised(name, raised, src.file, pos.line, pos.column, json_path(p)))
    return out


def _never_raised(name: str, raised: set[str], file: str, line: int, col: int,
                  path: str) -> Diagnostic:
    """E106 for a turn counter, race counter or flag that nothing raises or sets."""
    prefix = RACE if name.startswith(RACE) else FLAG if name.startswith(FLAG) else ""
    bare = name[len(prefix):]
    same = sorted(r[len(prefix):] for r in raised if r.startswith(prefix) and (
        prefix or not r.startswith((RACE, FLAG))))
    near = _near(bare, same)
    if prefix == FLAG:
        msg = f"flag {bare!r} is never set by `set_flag`"
    elif prefix == RACE:
        msg = f"race counter {bare!r} is never raised by `add_counter` with `lasts: race`"
    else:
        msg = f"counter {bare!r} is never raised by `add_counter`"
    return make("E106", file, line, col, path, msg, hint=f"did you mean {near!r}?" if near else None)


# Driver hooks that run after this turn's Buy phase: Buy-phase modifiers do nothing there.
AFTER_BUY = ("car", "decline", "end_before_draw", "end_draw", "end_after_draw")
# `schedule` times after this turn's Buy phase (the later ones run in the next turn, before its
# Buy phase, where the modifiers work)
SCHEDULED_AFTER_BUY = ("after_buy", "after_car_move", "after_end")


def money_and_lane_checks(label: str, sub: tuple[Any, ...], effect: Any, path: PathKey,
                          src: SourceMap, lanes: int) -> list[Diagnostic]:
    """E120: money forms where no turn's money exists (sponsors) or Buy-phase modifiers after the
    Buy phase (a driver hook after it, or a list scheduled for after it); E121: a lane rule
    naming a lane that no track of the pack has."""
    between_races = label.startswith("sponsor ")
    after_buy = label.startswith("driver ") and len(sub) == 2 and sub[1] in AFTER_BUY
    out: list[Diagnostic] = []

    def at(code: str, p: PathKey, msg: str, hint: str) -> None:
        pos = src.value(p)
        out.append(make(code, src.file, pos.line, pos.column, json_path(p), msg, hint=hint))

    def walk(v: Any, p: PathKey, late: bool) -> None:
        if isinstance(v, dict):
            if len(p) and p[-1] == "schedule" and isinstance(v.get("at"), str):
                late = v["at"] in SCHEDULED_AFTER_BUY  # when the scheduled list runs
            for k, x in v.items():
                kp = (*p, k)
                if between_races and (k == "pay" or (k == "money" and isinstance(x, str))):
                    at("E120", kp, f"`{k}` between races: a sponsor has no turn money, so it is always 0",
                       "money forms work in a turn (cards, driver hooks)")
                elif k in ("prices", "buy_limit") and len(p) and p[-1] == "modify_turn" and (
                        between_races or late):
                    scheduled = "schedule" in p
                    when = "between races" if between_races else \
                        "scheduled after the Buy phase" if scheduled else "after the Buy phase"
                    at("E120", kp, f"`modify_turn.{k}` {when} changes nothing",
                       "use it in a card or an `action` / `buy` driver hook, or schedule it for "
                       "`next_turn_start` / `next_action`")
                elif k == "lanes" and isinstance(x, list | tuple) and lanes:
                    for j, ln in enumerate(x):
                        if isinstance(ln, int) and not isinstance(ln, bool) and ln >= lanes:
                            at("E121", (*kp, j), f"lane {ln}: no track of the pack has more than {lanes} lanes",
                               "lanes count from 0 (innermost); `outside` names the outermost lane of any track")
                walk(x, kp, late)
        elif isinstance(v, list | tuple):
            for j, x in enumerate(v):
                walk(x, (*p, j), late)

    walk(effect, path, after_buy)
    return out


def reaction_checks(label: str, effect: Any, path: PathKey, src: SourceMap) -> list[Diagnostic]:
    """E122: a `watch` that can never fire (in a sponsor, inside another watch, `when: enters`
    without colours) or `who: mover` outside a watch's list; E123: `play_if` anywhere but the
    first step of a card's effect; E124: a form bound to the player's own turn where it gets
    nothing (`gain_money`, `modify_turn` with `lasts: race`, `{last_turn: ...}` between races;
    `gain_money` in a watch's list, which runs in another player's turn)."""
    sponsor = label.startswith("sponsor ")
    card = label.startswith("card ")
    out: list[Diagnostic] = []

    def at(code: str, p: PathKey, msg: str, hint: str, key: bool = False) -> None:
        pos = src.key(p) if key else src.value(p)
        out.append(make(code, src.file, pos.line, pos.column, json_path(p), msg, hint=hint))

    def walk(v: Any, p: PathKey, in_watch: bool, top: bool) -> None:
        if isinstance(v, list | tuple):
            for j, x in enumerate(v):
                walk(x, (*p, j), in_watch, top and j == 0)
            return
        if not isinstance(v, dict):
            return
        for k, x in v.items():
            kp = (*p, k)
            if k == "watch" and isinstance(x, dict):
                if sponsor:
                    at("E122", kp, "`watch` in a sponsor: it is armed between races, when no car moves, "
                       "and every trigger ends with the race", "arm triggers in a card or a driver hook", key=True)
                elif in_watch:
                    at("E122", kp, "`watch` inside a watch's list: a trigger that arms a trigger",
                       "arm both from the card itself", key=True)
                if x.get("when") == "enters" and "colours" not in x:
                    at("E122", kp, "`watch` with `when: enters` names no space colours, so it never fires",
                       "add `colours: [6]` (the gear colours of the spaces watched)", key=True)
                walk(x, kp, True, False)
                continue
            if k == "who" and x == "mover" and not in_watch:
                at("E122", kp, "`who: mover` outside a watch's list: no car's move fired anything here",
                   "use it inside the `effect` of a `watch`")
            elif k == "play_if" and not (card and top):
                at("E123", kp, "`play_if` is read only as the first step of a card's effect; here it does nothing",
                   "move it to the top of the card's effect list", key=True)
            elif k == "gain_money" and (sponsor or in_watch):
                at("E124", kp, "`gain_money` " + ("between races" if sponsor else "in a watch's list, which runs "
                   "in another player's turn") + ": only the player on turn has money to gain",
                   "gain money in a card or a driver hook of the player's own turn", key=True)
            elif k == "lasts" and x == "race" and sponsor and len(p) and p[-1] == "modify_turn":
                at("E124", kp, "`modify_turn` with `lasts: race` in a sponsor: the next race starts afresh",
                   "a race-long modifier belongs in a card or a driver hook")
            elif k == "last_turn" and sponsor:
                at("E124", kp, "`{last_turn: ...}` between races: no turn of this race is left to look back on",
                   "read it in a card or a driver hook")
            walk(x, kp, in_watch, False)

    walk(effect, path, False, True)
    return out
