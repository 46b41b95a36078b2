"""The decision API (DESIGN §8): one pending decision at a time, finite options, structured rejections."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import FunctionType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from slipstream.engine.play.protocol import Bot, Game


@dataclass(frozen=True, slots=True, init=False)
class Option:
    """One legal choice: a stable key (what logs and scenarios write) and a short text."""

    key: str
    text: str

    # the compiled __init__ (a native one; the generated __init__ of a dataclass stays
    # interpreted even in a compiled module); run as pure Python, `_option_init` replaces it
    def __init__(self, key: str, text: str) -> None:
        self.key = key  # type: ignore[misc]
        self.text = text  # type: ignore[misc]

    # an option is immutable: copies are the option itself (compiled, a frozen native class
    # would refuse copy's field-by-field rebuild); pickled, it is made anew from its fields
    def __deepcopy__(self, memo: dict[int, Any]) -> Option:
        return self

    def __copy__(self) -> Option:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return Option, (self.key, self.text)


@dataclass(frozen=True, slots=True, init=False)
class Decision:
    """Who decides, what kind of decision, the legal options and a one-line description."""

    player: int
    kind: str
    options: tuple[Option, ...]
    text: str

    def __init__(self, player: int, kind: str, options: tuple[Option, ...], text: str) -> None:
        self.player = player  # type: ignore[misc]  # compiled only, as Option's
        self.kind = kind  # type: ignore[misc]
        self.options = options  # type: ignore[misc]
        self.text = text  # type: ignore[misc]

    def __deepcopy__(self, memo: dict[int, Any]) -> Decision:  # immutable, as Option
        return self

    def __copy__(self) -> Decision:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return Decision, (self.player, self.kind, self.options, self.text)

    def keys(self) -> list[str]:
        return [o.key for o in self.options]

    def option(self, key: str) -> Option | None:
        for o in self.options:
            if o.key == key:
                return o
        return None


def _setter(cls: type, name: str) -> Any:
    """The slot descriptor's own setter (it does not go through the frozen __setattr__)."""
    return vars(cls)[name].__set__


_set_key, _set_text = _setter(Option, "key"), _setter(Option, "text")
_set_player, _set_kind = _setter(Decision, "player"), _setter(Decision, "kind")
_set_options, _set_dtext = _setter(Decision, "options"), _setter(Decision, "text")


def _option_init(self: Option, key: str, text: str) -> None:
    _set_key(self, key)
    _set_text(self, text)


def _decision_init(self: Decision, player: int, kind: str, options: tuple[Option, ...], text: str) -> None:
    _set_player(self, player)
    _set_kind(self, kind)
    _set_options(self, options)
    _set_dtext(self, text)


# Options and decisions are built at every turn. As pure Python, the __init__ of the class
# bodies would meet the frozen __setattr__: these set the slots directly instead (where the
# generated __init__ of a frozen dataclass goes through object.__setattr__ once per field).
# Compiled (mypyc, build_support/slipstream_accel.py), both are native classes whose own
# __init__ of the class body stores the fields natively (about 15 times faster than the
# dataclass-generated one, which mypyc leaves interpreted), and these functions are not plain
# functions: nothing to replace.
if isinstance(_option_init, FunctionType):
    _option_init.__qualname__ = "Option.__init__"
    _decision_init.__qualname__ = "Decision.__init__"
    Option.__init__ = _option_init  # type: ignore[method-assign]
    Decision.__init__ = _decision_init  # type: ignore[method-assign]


@dataclass(frozen=True, slots=True)
class Rejection:
    """Why `apply` refused an option: `code` is one of `race-over`, `not-an-option`."""

    code: str
    message: str
    legal: tuple[str, ...] = ()

    def __deepcopy__(self, memo: dict[int, Any]) -> Rejection:  # immutable, as Option
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return Rejection, (self.code, self.message, self.legal)


def opt(key: str, text: str | None = None) -> Option:
    return Option(key, text if text is not None else key)


def play_out(game: Game, bots: Sequence[Bot], max_decisions: int = 200_000,
             orders: list[list[int]] | None = None) -> int:
    """Let the bots play until the race ends; returns the number of decisions made. With
    `orders`, appends the race order (`game.standings()`) each time a round ends and the final
    standings, for the lead changes and last-round overtakes of engine/play/measures.py.
    (engine/play/races.py gives it as `races.play_out`; here, so that a compiled build runs
    the loop of every decision of every ruleset as native code.)"""
    n = 0
    choosers = [b.choose for b in bots]
    apply = game.apply
    at = game.rounds if orders is not None else 0
    while True:
        d: Any = game.pending  # a decision of any ruleset: its fields looked up by name
        if d is None:
            if orders is not None:
                orders.append(list(game.standings()))
            break
        if orders is not None and game.rounds != at:
            at = game.rounds
            orders.append(list(game.standings()))
        key = choosers[d.player](game, d)
        r = apply(key)
        if r is not None:
            raise AssertionError(f"the bot of seat {d.player} chose an illegal option: {r}")
        n += 1
        if n > max_decisions:
            raise AssertionError("race did not end")
    return n


def play_decisions(machine: Any, decisions: Sequence[Any]) -> list[str]:
    """Apply scenario decisions (a key, or `{choose: KEY, rejected: true}`) to anything with
    `pending` and `apply` (a game or a sponsor draft); return what went against the script."""
    for i, dec in enumerate(decisions):
        key, want_reject = (dec, False) if isinstance(dec, str) else (dec["choose"], dec.get("rejected", False))
        pend = machine.pending
        r = machine.apply(key)
        if want_reject and r is None:
            return [f"decision {i + 1} {key!r} was accepted but should be rejected"]
        if not want_reject and r is not None:
            where = f"{pend.kind} decision of P{pend.player + 1}" if pend else "no decision"
            return [f"decision {i + 1} {key!r} rejected ({r.code}) at the {where}; "
                    f"legal: {', '.join(r.legal) or 'none'}"]
    return []


def pending_mismatches(ex: Mapping[str, Any], pend: Decision | None) -> list[str]:
    """How the pending decision differs from an `expect: pending:` entry (player, kind)."""
    if "pending" not in ex:
        return []
    w = ex["pending"]
    if pend is None:
        return [f"expected a pending decision {w}, but none is pending"]
    out: list[str] = []
    if "player" in w and pend.player != w["player"]:
        out.append(f"pending decision is for player {pend.player}, expected {w['player']}")
    if "kind" in w and pend.kind != w["kind"]:
        out.append(f"pending decision is {pend.kind!r}, expected {w['kind']!r}")
    return out
