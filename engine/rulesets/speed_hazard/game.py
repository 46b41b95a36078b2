"""A speed-and-hazard race as a state machine of decisions (docs/rules/speed-hazard.md).

Each round every running car chooses its card (`card ID` / `equip ID`) in seat order; no
decision shows another seat's choice (the choices wait in `_hidden` until all are made; the
log records each as its decision line). Then the cards are revealed and the cars take their
turns by card number: the card's own decision (`brake N`, `accelerate N`, `nitrous`, `u-turn
...`), then the move one square at a time (`to LANE:SEG`, `pit`, `ram LANE:SEG`), the forced
rear-end (`bump LANE:SEG`), drawing with luck (`keep` / `redraw`), a ram after moving
(`ram-after`), tokens dropped (`sabotage`) and shopping in the pit road (`shop`, `keep`,
`return`). A step with a single possible square is made without asking. Every card and die
comes from the seeded generator in the state.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from slipstream.engine.play.decisions import Decision, Option, Rejection
from slipstream.engine.rulesets.speed_hazard import rules
from slipstream.engine.rulesets.speed_hazard.content import (
    ActionCard,
    Cond,
    Decks,
    Effect,
    Equipment,
    HazardCard,
)
from slipstream.engine.rulesets.speed_hazard.moves import board, reach_ram_on
from slipstream.engine.tracks.track import Track

ROUND_CAP = 300
NO_CORNER = -1
# the last option made for each key (a step's, a luck decision's, ...): most decisions offer
# options made before, and making one is the cost of an interpreted call
_OPTIONS: Final[dict[str, Option]] = {}


# Car and Turn write their own __init__ (init=False): compiled, a dataclass's generated __init__
# stays interpreted, where one written in the class is native (rollouts make them by the
# thousand). The arguments are the fields, in order, with the same defaults.


@dataclass(slots=True, init=False)
class Car:
    """One car: where it stands, its speedometer, what it holds and how far it got."""

    seat: int
    node: int  # main square (the last one while in the pit road)
    progress: int  # segments driven from the finish line (negative on the grid)
    speed: int
    maximum: int
    luck: int
    tokens: dict[str, int]
    equipment: list[str] = field(default_factory=list)
    insanity: list[int] = field(default_factory=list)  # hazard deck indices held
    in_pit: bool = False
    pit_seq: int = 0  # order of entering the pit road (FIFO exit)
    pit_node: int = -1  # the pit square it entered on
    wreck: bool = False
    nitrous: bool = False
    reversed: bool = False
    free_corner: int = NO_CORNER  # the curve it drives through freely (hazards paid)
    goal: int = 0  # progress that wins (laps x N, one lap more after a pit pass over the line)

    def __init__(self, seat: int, node: int, progress: int, speed: int, maximum: int, luck: int,
                 tokens: dict[str, int], equipment: list[str] | None = None, insanity: list[int] | None = None,
                 in_pit: bool = False, pit_seq: int = 0, pit_node: int = -1, wreck: bool = False,
                 nitrous: bool = False, reversed: bool = False, free_corner: int = NO_CORNER, goal: int = 0) -> None:
        self.seat, self.node, self.progress, self.speed, self.maximum = seat, node, progress, speed, maximum
        self.luck, self.tokens = luck, tokens
        self.equipment = [] if equipment is None else equipment
        self.insanity = [] if insanity is None else insanity
        self.in_pit, self.pit_seq, self.pit_node, self.wreck = in_pit, pit_seq, pit_node, wreck
        self.nitrous, self.reversed, self.free_corner, self.goal = nitrous, reversed, free_corner, goal

    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        return _deepcopy_fields(self, memo)

    def copy(self) -> Car:
        """What deepcopy makes of the car, by hand: its own tokens, equipment and insanities."""
        return Car(self.seat, self.node, self.progress, self.speed, self.maximum, self.luck, dict(self.tokens),
                   list(self.equipment), list(self.insanity), self.in_pit, self.pit_seq, self.pit_node,
                   self.wreck, self.nitrous, self.reversed, self.free_corner, self.goal)


@dataclass(slots=True, init=False)
class Turn:
    car: int
    card: ActionCard
    phase: str = "act"
    opts: dict[str, Any] = field(default_factory=dict)  # key -> what applying it does
    text: str = ""
    steps: int = 0
    passed: list[int] = field(default_factory=list)  # main squares left this turn
    rammed: bool = False
    ended: bool = False
    owed: int = 0  # hazard cards still to draw
    drawn: int = -1  # a hazard or nitrous card drawn, waiting for keep / redraw
    drawn_kind: str = ""  # hazard | nitrous
    points: int = 0  # pit points left
    offer: list[str] = field(default_factory=list)  # equipment cards drawn to choose from
    dropped: str = ""  # the token kind a sabotage drops
    drops: int = 0
    extra: int = 0  # squares to move beyond speed / 10 (card effects: `move`)

    def __init__(self, car: int, card: ActionCard, phase: str = "act", opts: dict[str, Any] | None = None,
                 text: str = "", steps: int = 0, passed: list[int] | None = None, rammed: bool = False,
                 ended: bool = False, owed: int = 0, drawn: int = -1, drawn_kind: str = "", points: int = 0,
                 offer: list[str] | None = None, dropped: str = "", drops: int = 0, extra: int = 0) -> None:
        self.car, self.card, self.phase = car, card, phase
        self.opts = {} if opts is None else opts
        self.text, self.steps = text, steps
        self.passed = [] if passed is None else passed
        self.rammed, self.ended, self.owed, self.drawn, self.drawn_kind = rammed, ended, owed, drawn, drawn_kind
        self.points = points
        self.offer = [] if offer is None else offer
        self.dropped, self.drops, self.extra = dropped, drops, extra

    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        return _deepcopy_fields(self, memo)

    def copy(self, opts: dict[str, Any]) -> Turn:
        """What deepcopy makes of the turn, by hand, with `opts` (those of the game's copy)."""
        return Turn(self.car, self.card, self.phase, opts, self.text, self.steps, list(self.passed), self.rammed,
                    self.ended, self.owed, self.drawn, self.drawn_kind, self.points, list(self.offer),
                    self.dropped, self.drops, self.extra)


class SpeedHazardGame:
    """One race; `pending` is the decision to make, `apply` makes it."""

    def __init__(self, track: Track, decks: Decks, names: Sequence[str], seed: int, laps: int,
                 options: Mapping[str, Any], record: bool = True, source: SpeedHazardGame | None = None,
                 source_log: bool = True) -> None:
        if source is not None:  # a copy of `source` (`copy`, `fork`): nothing dealt, all taken
            self._take(source, source_log)
            return
        self.track, self.decks, self.names, self.laps = track, decks, list(names), laps
        self.o_leaving = bool(options.get("check_leaving_curve", False))
        self.o_beside = bool(options.get("ram_beside", False))
        self.o_nitrous = str(options.get("nitrous_until", "turn"))
        self.o_accel = str(options.get("curve_accel_hazards", "accelerated"))
        self.o_start_square = bool(options.get("sabotage_start_square", True))
        self.o_wall = bool(options.get("pit_wall_slide", True))
        self.o_uturn = bool(options.get("u_turn", False))
        self.o_uturn_lanes = str(options.get("u_turn_lanes", "inner-outer"))
        self.o_reverse_laps = str(options.get("reverse_laps", "count-down"))
        self.o_all_pits = bool(options.get("all_pit_entries", False))
        self.rng: Any = random.Random(seed)  # None while lookahead.py copies the game
        self.record = record
        self.log: list[dict[str, Any]] = []
        self.stats: dict[str, Any] = {"wrecks": 0, "hazards": 0, "hazards_by_corner": Counter(), "pit_visits": 0,
                                      "rams": Counter(), "bumps": 0, "nitrous": 0, "finished": 0,
                                      "wrecks_at": Counter(), "rams_at": Counter(),  # by square name
                                      "hazard_cards": Counter(), "damage": 0, "luck_spent": 0}  # cards by name
        self.rounds = 0
        self.capped = False
        self.over = False
        self.winner = -1
        self.wrecked: list[int] = []
        self.turn: Turn | None = None
        self.choosing: list[int] = []
        self._hidden: dict[int, str] = {}  # chosen cards not yet revealed
        self.queue: list[int] = []
        self.pit_counter = 0
        self._pending: Decision | None = None
        setup = decks.setup
        self.n = track.segments
        self.b = board(track)
        self.m = len(track.spaces)
        self.equip_by_id: dict[str, Equipment] = {e.id: e for e in decks.equipment}
        self.actions = [a for a in decks.actions if self.o_uturn or not a.optional]
        self.hazard_deck = list(range(len(decks.hazards)))
        self.rng.shuffle(self.hazard_deck)
        self.hazard_used: list[int] = []
        self.nitrous_deck = list(range(len(decks.nitrous)))
        self.rng.shuffle(self.nitrous_deck)
        self.nitrous_used: list[int] = []
        self.equip_deck = [e.id for e in decks.equipment]
        self.rng.shuffle(self.equip_deck)
        kinds = [k.id for k in setup.tokens]
        self.token_kinds = {k.id: k for k in setup.tokens}
        self.supply = {k: setup.supply for k in kinds}
        self.on_board: dict[int, str] = {}  # main square -> token kind
        self.wall_squares = self._wall_squares()
        self.grid = list(range(len(names)))  # seat per grid slot, pole first: drawn by lot (house)
        self.rng.shuffle(self.grid)
        cars: dict[int, Car] = {}
        places = self._grid_places(len(names))
        for slot, p in enumerate(self.grid):
            sp, progress = places[slot]
            tokens = {}
            for k in kinds:
                take = min(setup.token_start, self.supply[k])
                self.supply[k] -= take
                tokens[k] = take
            cars[p] = Car(p, sp, progress, setup.start, setup.maximum, setup.luck, tokens,
                          goal=laps * self.n)
        self.cars: list[Car] = [cars[p] for p in range(len(names))]
        self.event("grid", order=self.grid)
        self._start_round()

    # --- plumbing ---------------------------------------------------------------------------

    def _grid_places(self, cars: int) -> list[tuple[int, int]]:
        """(square, progress) per grid slot; cars beyond the track's slots line up on the free
        squares behind the grid, inner lane first (Readings 30)."""
        track = self.track
        out: list[tuple[int, int]] = []
        for gs in track.grid[:cars]:
            sp = track.space_at(gs.lane, gs.segment)
            if sp is not None and all(sp.index != x for x, _ in out):
                out.append((sp.index, track.grid_progress(gs)))
        back = min((pr for _, pr in out), default=0)
        while len(out) < cars and back > -self.n:
            back -= 1
            for lane in range(track.lanes):
                sp = track.space_at(lane, back % self.n)
                if sp is not None and len(out) < cars and all(sp.index != x for x, _ in out):
                    out.append((sp.index, back))
        if len(out) < cars:
            raise ValueError(f"the track has room for {len(out)} cars, not {cars}")
        return out

    def event(self, ev: str, **data: Any) -> None:
        if self.record:
            self.log.append({"t": "event", "ev": ev, **data})

    def where(self, node: int) -> str:
        return self.b.name[node]

    def running(self) -> list[Car]:
        return [c for c in self.cars if not c.wreck]

    def blocked(self) -> dict[int, int]:
        """Main squares holding a car or a wreck -> its seat (cars in the pit road hold none)."""
        return {c.node: c.seat for c in self.cars if not c.in_pit and c.node >= 0}

    def targets_map(self, but: int) -> dict[int, int]:
        """Running cars on the main track other than `but`: node -> seat (who may be rammed)."""
        return {c.node: c.seat for c in self.cars if not c.wreck and not c.in_pit and c.seat != but}

    def limit(self, car: Car, node: int) -> int | None:
        lim = self.b.limit[node]
        if lim < 0:
            return None
        return lim + sum(self.equip_by_id[e].grip for e in car.equipment) if car.equipment else lim

    def _wall_squares(self) -> frozenset[int]:
        """Main squares of the lane next to the pit road between its main entry and exit
        (Readings 12); empty without a pit wall."""
        pit = self.track.pit
        if pit is None or not any(f.kind == "pit-wall" for f in self.track.features):
            return frozenset()
        entry = next((e for e in pit.entries if e.main), None)
        exit_ = next((x for x in pit.exits if x.main), None)
        a = self.track.space_named(entry.cell) if entry else None
        b = self.track.space_named(exit_.cell) if exit_ else None
        if a is None or b is None:
            return frozenset()
        lane = 0 if pit.side == "inside" else self.track.lanes - 1
        out = set()
        for k in range((b.first - a.first) % self.n + 1):
            sp = self.track.space_at(lane, (a.first + k) % self.n)
            if sp is not None:
                out.add(sp.index)
        return frozenset(out)

    def has(self, car: Car, flag: str) -> bool:
        return any(getattr(self.equip_by_id[e], flag) for e in car.equipment)

    def insane(self, car: Car, kind: str) -> bool:
        return any(self.decks.hazards[i].insanity == kind for i in car.insanity)

    # --- the round --------------------------------------------------------------------------

    def _start_round(self) -> None:
        if self.rounds >= ROUND_CAP:
            self.capped = True
            self.over = True
            return
        self.rounds += 1
        self.choosing = [c.seat for c in self.running()]
        self._hidden = {}
        self._pending = None
        if not self.choosing:
            self.over = True

    def card_options(self, p: int) -> list[tuple[str, ActionCard]]:
        """The cards car `p` may choose now: those with an action it can perform."""
        car = self.cars[p]
        cards: list[tuple[str, ActionCard]] = [(f"card {a.id}", a) for a in self.actions]
        cards += [(f"equip {e}", act) for e in dict.fromkeys(car.equipment)
                  if (act := self.equip_by_id[e].action) is not None]
        return [(k, a) for k, a in cards if self.performable(car, a)]

    def performable(self, car: Car, a: ActionCard) -> bool:
        if car.in_pit:
            return a.kind == "accelerate" and (not a.needs or self.holds(car, a.needs))  # the only way out (Readings 4)
        if a.needs and not self.holds(car, a.needs):
            return False
        if a.kind == "brake":
            return bool(rules.brake_amounts(a.amounts, car.speed)) and not self.insane(car, "no-brake")
        if a.kind == "accelerate":
            return True
        if a.kind == "sabotage":
            need = 1 if self.o_start_square else 2
            return sum(car.tokens.values()) > 0 and rules.squares(car.speed) >= need
        if a.kind == "ram":
            return reach_ram_on(self.b, car.node, rules.squares(car.speed), car.reversed, self.o_beside,
                                self.blocked(), self.targets_map(car.seat))
        if a.kind == "u-turn":
            return bool(self.u_turn_paths(car, False))  # cars in the way do not count (Readings 32)
        return bool(a.effects or a.choices)  # a kind of the pack's own

    def _reveal(self) -> None:
        cards = {p: self._card_of(p, k) for p, k in self._hidden.items()}
        if self.record:
            self.event("reveal", cards={str(p): k for p, k in sorted(self._hidden.items())})

        def key(p: int) -> tuple[int, ...]:
            c = self.cars[p]
            late = sum(self.decks.hazards[i].late for i in c.insanity if self.decks.hazards[i].insanity == "late")
            lane = self.track.spaces[c.node].lane if not c.in_pit else -1
            return rules.order_key(cards[p].number + late, c.speed, c.progress, lane, c.pit_seq, p)

        self.queue = sorted(self._hidden, key=key)
        if self.record:
            self.event("order", order=list(self.queue))  # a copy: the queue empties as the cars move
        self._next_car()

    def _card_of(self, p: int, key: str) -> ActionCard:
        kind, _, cid = key.partition(" ")
        if kind == "equip":
            act = self.equip_by_id[cid].action
            assert act is not None
            return act
        return next(a for a in self.actions if a.id == cid)

    def _next_car(self) -> None:
        self.turn = None
        self._pending = None
        while self.queue and not self.over:
            p = self.queue.pop(0)
            car = self.cars[p]
            if car.wreck:
                continue
            key = self._hidden[p]
            card = self._card_of(p, key)
            if key.startswith("equip "):  # played: back under the equipment deck
                car.equipment.remove(card.equipment)
                self.equip_deck.append(card.equipment)
            self.turn = Turn(p, card)
            if self.record:
                self.event("turn", p=p, card=card.id, speed=car.speed, maximum=car.maximum)
            self._begin(self.turn)
            if self._in_turn():
                return  # the turn waits for a decision
        if not self.over and not self.queue and self.turn is None:
            self._start_round()

    def _in_turn(self) -> bool:
        # read after `_begin` may have ended the turn: a check of its own, since a type checker
        # (and so the compiled code) still takes `self.turn` for the Turn assigned before the call
        return self.turn is not None

    # --- decisions --------------------------------------------------------------------------

    @property
    def pending(self) -> Decision | None:
        if self.over:
            return None
        if self._pending is not None:
            return self._pending
        if self.turn is None:
            if not self.choosing:
                return None
            p = self.choosing[0]
            cards: list[Option] = []
            for k, a in self.card_options(p):
                text = f"{a.name} ({a.number})"
                o = _OPTIONS.get(k)
                if o is None or o.text != text:
                    o = _OPTIONS[k] = Option(k, text)
                cards.append(o)
            self._pending = Decision(p, "card", tuple(cards), f"{self.names[p]}: choose your card in secret")
            return self._pending
        t = self.turn
        options: list[Option] = []
        for k, v in t.opts.items():
            o = _OPTIONS.get(k)
            if o is None or o.text != v[0]:
                o = _OPTIONS[k] = Option(k, v[0])  # options are frozen: shared by every decision
            options.append(o)
        self._pending = Decision(t.car, t.phase, tuple(options), t.text)
        return self._pending

    def apply(self, key: str) -> Rejection | None:
        d = self.pending
        if d is None:
            return Rejection("race-over", "the race is over")
        if not any(o.key == key for o in d.options):
            return Rejection("not-an-option", f"{key!r} is not an option now", tuple(d.keys()))
        self.log.append({"t": "decision", "p": d.player, "kind": d.kind, "choice": key})
        self.play(d, key)
        return None

    def play(self, d: Decision, key: str) -> None:
        """`apply` without its checks and its log line: for look-ahead rollouts, whose bots
        choose among the options of `d`, the decision pending now."""
        if d.kind == "card":
            self.choose_card(key)
        else:
            self.play_turn(key)

    def choose_card(self, key: str) -> None:
        """`play` of a card decision: `key` the secret card of the seat choosing now."""
        self._pending = None
        self._hidden[self.choosing.pop(0)] = key
        if not self.choosing:
            self._reveal()

    def play_turn(self, key: str) -> None:
        """`play` of a decision of the car whose turn it is: `key` one of `turn.opts`."""
        self._pending = None
        t = self.turn
        assert t is not None
        _, fn, *args = t.opts[key]
        t.opts = {}
        fn(t, *args)
        self._settle()

    def _ask(self, t: Turn, phase: str, text: str, opts: dict[str, Any]) -> None:
        t.phase, t.text, t.opts = phase, text, opts

    def _settle(self) -> None:
        """After a decision: when the turn asks nothing more, go on to the next car."""
        if self.over:
            self.turn = None
            return
        if self.turn is None or not self.turn.opts:
            self._end_turn(self.turn) if self.turn is not None else None
            self._next_car()

    # --- a turn -----------------------------------------------------------------------------

    def _begin(self, t: Turn) -> None:
        car = self.cars[t.car]
        a = t.card
        if car.in_pit:
            return self._leave_pit(t)
        if a.kind == "brake":
            amounts = rules.brake_amounts(a.amounts, car.speed)
            if amounts:
                return self._ask(t, "brake", f"{self.names[t.car]}: brake by how much?",
                                 {f"brake {x}": (f"brake by {x} km/h", self._brake, x) for x in amounts})
            self.event("no-action", p=t.car, card=a.id)
        elif a.kind == "accelerate":
            return self._offer_accelerate(t, car, a)
        elif a.choices:
            return self._ask(t, "choose", f"{self.names[t.car]}: how do you play {a.name}?",
                             {f"choose {c.id}": (c.name, self._play_effects, c.effects) for c in a.choices})
        elif a.effects:
            return self._play_effects(t, a.effects)
        elif a.kind == "u-turn":
            turns = self.u_turn_paths(car, True)
            if turns:
                return self._ask(t, "u-turn", f"{self.names[t.car]}: which U-turn?",
                                 {f"u-turn {k}": (f"{k} round", self._u_turn, k, path) for k, path in turns.items()})
            self.event("u-turn-impossible", p=t.car)  # revealed all the same; it drives on normally
        self._move_on(t)

    def _offer_accelerate(self, t: Turn, car: Car, a: ActionCard) -> None:
        opts: dict[str, Any] = {f"accelerate {x}": (f"add {x} km/h", self._accelerate, x)
                                for x in rules.accelerate_amounts(a.amounts, car.speed, car.maximum, car.in_pit)}
        if a.nitrous:
            opts["nitrous"] = ("draw a nitrous card", self._nitrous)
        if not opts:
            self.event("no-action", p=t.car, card=a.id)
            return self._end_turn(t)
        self._ask(t, "accelerate", f"{self.names[t.car]}: accelerate by how much, or nitrous?", opts)

    def _brake(self, t: Turn, x: int) -> None:
        car = self.cars[t.car]
        car.speed -= x
        if self.record:
            self.event("speed", p=t.car, speed=car.speed, why="brake")
        self._move_on(t)

    def _accelerate(self, t: Turn, x: int) -> None:
        car = self.cars[t.car]
        car.speed += x
        if self.record:
            self.event("speed", p=t.car, speed=car.speed, why="accelerate")
        self._accel_in_curve(t, car, x)
        self._after_speed_up(t)

    def _after_speed_up(self, t: Turn) -> None:
        car = self.cars[t.car]
        if car.in_pit:
            if car.speed <= 0:
                self.event("pit-wait", p=t.car, why="no speed")
                return self._end_turn(t)
            return self._exit_pit(t)
        self._move_on(t)

    def _accel_in_curve(self, t: Turn, car: Car, added: int) -> None:
        if car.in_pit:
            return
        lim = self.limit(car, car.node)
        if lim is None:
            return
        n = rules.accel_hazards(car.speed, lim, added, self.o_accel)
        if n:
            self._owe(t, car, n, car.node)

    def _nitrous(self, t: Turn) -> None:
        self.stats["nitrous"] += 1
        self._draw_nitrous(t)

    def _draw_nitrous(self, t: Turn) -> None:
        if not self.nitrous_deck:
            self.nitrous_deck, self.nitrous_used = self.nitrous_used, []
            self.rng.shuffle(self.nitrous_deck)
            if self.nitrous_deck:
                self.event("reshuffle", deck="nitrous", cards=len(self.nitrous_deck))
        if not self.nitrous_deck:
            self.event("nitrous-none", p=t.car)
            return self._after_speed_up(t)
        i = self.nitrous_deck.pop(0)
        card = self.decks.nitrous[i]
        self.event("nitrous", p=t.car, card=card.id)
        car = self.cars[t.car]
        if car.luck > 0 and not self.insane(car, "no-luck"):
            t.drawn, t.drawn_kind = i, "nitrous"
            return self._ask(t, "luck", f"{self.names[t.car]} drew {card.name}: keep it or spend a luck token?",
                             {"keep": (f"keep {card.name}", self._keep_drawn),
                              "redraw": ("give up a luck token and draw again", self._redraw)})
        self._apply_nitrous(t, i)

    def _apply_nitrous(self, t: Turn, i: int) -> None:
        card = self.decks.nitrous[i]
        car = self.cars[t.car]
        if not card.click:  # a click shuffles the card back with the used ones (its `reshuffle`)
            self.nitrous_used.append(i)
        before = car.speed
        self.effects(t, car, card.effects, "nitrous", i)
        if car.wreck:
            return self._end_turn(t)
        self._accel_in_curve(t, car, car.speed - before)
        self._after_speed_up(t)

    def _play_effects(self, t: Turn, effects: tuple[Effect, ...]) -> None:
        """An action card of the pack's own kind: its effects, then the move as after Accelerate."""
        car = self.cars[t.car]
        before = car.speed
        nitrous = self.effects(t, car, effects, "action", -1)
        if car.wreck or self.over:
            return self._end_turn(t)
        self._accel_in_curve(t, car, car.speed - before)
        if nitrous:
            return self._nitrous(t)
        self._after_speed_up(t)

    # --- card effects (content.py: the vocabulary) ---------------------------------------

    def holds(self, car: Car, cond: Cond) -> bool:
        """Whether every test of a card's condition holds for `car`."""
        for k, v in cond:
            if k == "speed_at_least":
                ok = car.speed >= v
            elif k == "speed_at_most":
                ok = car.speed <= v
            elif k == "top_speed_at_least":
                ok = car.maximum >= v
            elif k == "top_speed_at_most":
                ok = car.maximum <= v
            elif k == "on_curve":
                ok = (not car.in_pit and car.node >= 0 and self.b.limit[car.node] >= 0) == bool(v)
            elif k == "nitrous":
                ok = car.nitrous == bool(v)
            elif k == "tokens_at_least":
                ok = sum(car.tokens.values()) >= v
            else:  # luck_at_least
                ok = car.luck >= v
            if not ok:
                return False
        return True

    def effects(self, t: Turn, car: Car, steps: tuple[Effect, ...], where: str, card: int) -> bool:
        """Run a card's steps (`where`: action, hazard, nitrous or keep; `card`: the nitrous
        card's index). True when the last step asks for a nitrous card (the caller draws it)."""
        for e in steps:
            if car.wreck or self.over:
                return False
            op = e.op
            if op == "boost":
                car.nitrous = True
                car.speed += e.n
                self.event("speed", p=car.seat, speed=car.speed, why="nitrous")
            elif op == "speed":
                if e.n < 0:
                    self._slow(car, -e.n, where)
                else:
                    car.speed = car.speed + e.n if car.nitrous else max(car.speed, min(car.speed + e.n, car.maximum))
                    self.event("speed", p=car.seat, speed=car.speed, why=where)
            elif op == "damage":
                if where == "nitrous" and self.has(car, "nitrous_safe"):
                    continue
                self._damage(car, e.n, "explosion" if where == "nitrous" else where)
            elif op == "top_speed":
                car.maximum = max(0, car.maximum + e.n)
                car.speed = rules.capped_speed(car.speed, car.maximum, car.nitrous)
                self.event("top-speed", p=car.seat, maximum=car.maximum, speed=car.speed, why=where)
                if car.maximum <= 0:
                    self._wreck(car)
            elif op == "draw":
                if e.what == "nitrous":
                    return True
                self._owe(t, car, e.n, -1 if car.in_pit else car.node)
            elif op == "tokens":
                self._tokens(car, e.what, e.n)
            elif op == "luck":
                car.luck = max(0, car.luck + e.n)
                self.event("luck-change", p=car.seat, luck=car.luck)
            elif op == "spin":
                car.speed = 0
                t.ended = True
                self.event("spin", p=car.seat)
            elif op == "move":
                t.extra += e.n
                self.event("extra-squares", p=car.seat, squares=e.n)
            elif op == "reshuffle":  # (the card is among the used ones when the step stands in an `if`)
                self.nitrous_deck += self.nitrous_used + ([] if card in self.nitrous_used else [card])
                self.nitrous_used = []
                self.rng.shuffle(self.nitrous_deck)
                self.event("nitrous-click", p=car.seat)
            elif self.effects(t, car, e.then if self.holds(car, e.cond) else e.orelse, where, card):  # if
                return True
        return False

    def _tokens(self, car: Car, kind: str, n: int) -> None:
        """Tokens of `kind` from the supply (within the car's limit), or back to it (n < 0)."""
        if kind not in self.supply:
            return
        if n > 0:
            n = min(n, self.supply[kind], max(0, self.decks.setup.token_hold - sum(car.tokens.values())))
        else:
            n = -min(-n, car.tokens.get(kind, 0))
        self.supply[kind] -= n
        car.tokens[kind] = car.tokens.get(kind, 0) + n
        self.event("tokens", p=car.seat, kind=kind, change=n, held=car.tokens[kind])

    def _keep_drawn(self, t: Turn) -> None:
        i, kind = t.drawn, t.drawn_kind
        t.drawn = -1
        if kind == "nitrous":
            return self._apply_nitrous(t, i)
        self._apply_hazard(t, i)
        self._move_on(t)

    def _redraw(self, t: Turn) -> None:
        car = self.cars[t.car]
        car.luck -= 1
        self.stats["luck_spent"] += 1
        i, kind = t.drawn, t.drawn_kind
        t.drawn = -1
        self.event("luck", p=t.car, left=car.luck)
        if kind == "nitrous":
            self.nitrous_used.append(i)
            return self._draw_nitrous(t)
        self.hazard_used.append(i)
        t.owed += 1
        self._move_on(t)

    # --- hazards and damage -------------------------------------------------------------------

    def _owe(self, t: Turn, car: Car, n: int, node: int) -> None:
        t.owed += n
        self.stats["hazards"] += n
        c = self.b.corner[node] if node >= 0 else -1
        key = str(c) if c >= 0 else "pit" if car.in_pit else "straight"
        self.stats["hazards_by_corner"][key] += n
        if self.record:
            self.event("hazards", p=car.seat, n=n, at=key)

    def _draw_hazard(self, t: Turn) -> bool:
        """Draw one owed hazard card; True when it waits for a keep / redraw decision."""
        car = self.cars[t.car]
        t.owed -= 1
        if not self.hazard_deck:
            self.hazard_deck, self.hazard_used = self.hazard_used, []
            self.rng.shuffle(self.hazard_deck)
            if self.hazard_deck:
                self.event("reshuffle", deck="hazards", cards=len(self.hazard_deck))
        if not self.hazard_deck:
            self.event("hazard-none", p=t.car)
            return False
        i = self.hazard_deck.pop(0)
        card = self.decks.hazards[i]
        if self.record:
            self.event("hazard", p=t.car, card=card.id)
        if car.luck > 0 and not self.insane(car, "no-luck"):
            t.drawn, t.drawn_kind = i, "hazard"
            self._ask(t, "luck", f"{self.names[t.car]} drew {card.name}: keep it or spend a luck token?",
                      {"keep": (f"keep {card.name}", self._keep_drawn),
                       "redraw": ("give up a luck token and draw again", self._redraw)})
            return True
        self._apply_hazard(t, i)
        return False

    def _apply_hazard(self, t: Turn, i: int) -> None:
        card: HazardCard = self.decks.hazards[i]
        car = self.cars[t.car]
        self.stats["hazard_cards"][card.name] += 1
        if card.insanity and card.keep:
            if self.has(car, "sane"):
                self.event("insanity-ignored", p=t.car, card=card.id)
                self.hazard_used.append(i)
            else:
                car.insanity.append(i)
                self.event("insanity", p=t.car, card=card.id)
        else:
            self.hazard_used.append(i)
        if card.effects:
            self.effects(t, car, card.effects, "hazard", i)

    def _slow(self, car: Car, kmh: int, why: str) -> None:
        car.speed = max(0, car.speed - kmh)
        self.event("speed", p=car.seat, speed=car.speed, why=why)

    def _damage(self, car: Car, dice: int, why: str) -> None:
        """Roll `dice` damage dice: each point costs 10 km/h of maximum; maximum 0 is a wreck."""
        if dice <= 0 or car.wreck:
            return
        faces = self.decks.setup.die
        rolled = [faces[self.rng.randrange(len(faces))] for _ in range(dice)]
        armour = sum(self.equip_by_id[e].armour for e in car.equipment)
        pts = rules.damage_points(rolled, armour)
        self.stats["damage"] += pts
        car.maximum = max(0, car.maximum - rules.SQUARE_KMH * pts)
        car.speed = rules.capped_speed(car.speed, car.maximum, car.nitrous)
        self.event("damage", p=car.seat, dice=rolled, points=pts, maximum=car.maximum, speed=car.speed, why=why)
        if car.maximum <= 0:
            self._wreck(car)

    def _wreck(self, car: Car) -> None:
        car.wreck, car.speed, car.nitrous = True, 0, False
        self.wrecked.append(car.seat)
        self.stats["wrecks"] += 1
        if not car.in_pit:
            self.stats["wrecks_at"][self.where(car.node)] += 1
        self.event("wreck", p=car.seat, at="pit" if car.in_pit else self.where(car.node))
        if car.in_pit:
            car.in_pit = False
            car.node = -1  # a wreck in the pit road is taken away: it blocks no square
        if not self.running():
            self.over = True

    # --- movement -----------------------------------------------------------------------------

    def step_nodes(self, car: Car) -> list[int]:
        """Squares the car may step to now (free main squares, and an open pit entry)."""
        occ = self.blocked()
        if car.reversed:
            return [x for x in self.b.back[car.node] if x not in occ]
        out = []
        for x in self.b.fwd[car.node]:
            if x >= self.m:
                if self._entry_open(car.node):
                    out.append(x)
            elif x not in occ:
                out.append(x)
        return out

    def _entry_open(self, node: int) -> bool:
        pit = self.track.pit
        if pit is None:
            return False
        name = self.where(node)
        return any(e.cell == name and (e.main or self.o_all_pits) for e in pit.entries)

    def _move_on(self, t: Turn) -> None:
        """Drive on until a decision is needed or the move is over."""
        car = self.cars[t.car]
        while True:
            if self.over or car.wreck:
                return self._end_turn(t)
            if t.owed:
                if self._draw_hazard(t):
                    return None
                continue
            if t.ended:
                return self._end_turn(t)
            if t.steps >= rules.squares(car.speed) + t.extra:
                return self._after_move(t)
            nodes = self.step_nodes(car)
            opts: dict[str, Any] = {}
            b = self.b
            for x in nodes:
                if x >= self.m:
                    opts["pit"] = ("enter the pit road", self._enter_pit, x)
                else:
                    opts[b.to_key[x]] = (b.to_text[x], self._step, x)
            if t.card.kind == "ram" and not t.rammed:
                opts.update(self._ram_options(car))
            if not nodes:
                return self._forced_bump(t, car, opts)
            if len(opts) == 1:
                _, fn, *args = next(iter(opts.values()))
                fn(t, *args, go_on=False)
                if t.opts or self.turn is not t:
                    return None
                continue
            left = rules.squares(car.speed) + t.extra - t.steps
            return self._ask(t, "step", f"{self.names[t.car]} at {car.speed} km/h, {left} squares to go: where next?", opts)

    def _ram_options(self, car: Car) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if car.in_pit:
            return out
        cars = self.targets_map(car.seat)
        if not cars:
            return out
        b, x = self.b, car.node
        direct, side = (b.behind[x], b.diag_b[x]) if car.reversed else (b.ahead[x], b.diag[x])
        found = [(y, "rear") for y in direct if y in cars] + [(y, "side") for y in side if y in cars]
        if self.o_beside:
            found += [(y, "side") for y in b.level[x] if y in cars]
        for node, how in found:
            target = self.cars[cars[node]]
            kind = "head-on" if how == "rear" and target.reversed != car.reversed else how
            out[f"ram {self.where(node)}"] = (f"{kind} ram on {self.names[target.seat]}", self._ram, target.seat, kind)
        return out

    def _step(self, t: Turn, x: int, go_on: bool = True) -> None:
        car = self.cars[t.car]
        before = car.node
        t.passed.append(before)
        car.node = x
        self._advance(car, -1 if car.reversed else 1)
        t.steps += 1
        if self.record:
            self.event("step", p=t.car, to=self.where(x))
        if not car.reversed and car.progress >= car.goal:
            return self._win(car)
        self._curve_checks(t, car, before, x)
        kind = self.on_board.pop(x, None)
        if kind is not None:
            self._token_hit(t, car, kind)
        if go_on:
            self._move_on(t)

    def _curve_checks(self, t: Turn, car: Car, before: int, x: int) -> None:
        """Curve entry, free passage, the inner-lane exception and leaving (an option)."""
        ia, ib = self.b.corner[before], self.b.corner[x]
        if ia < 0 and ib < 0:
            return
        corners = self.track.corners
        if ib >= 0 and ia != ib:
            ca, cb = (corners[ia] if ia >= 0 else None), corners[ib]
            follows = ca is not None and car.free_corner == ia and (
                (ca.last + 1) % self.n == cb.first if not car.reversed else (cb.last + 1) % self.n == ca.first)
            if not follows:
                lim = self.limit(car, x)
                n = rules.hazards_over(car.speed, lim) if lim is not None else 0
                if n:
                    self._owe(t, car, n, x)
            car.free_corner = ib
        elif ib >= 0 and self.b.lane[x] < self.b.lane[before]:
            lim = self.limit(car, x)
            if lim is not None and car.speed > lim:
                self._owe(t, car, 1, x)
        if ia >= 0 and ib < 0:
            car.free_corner = NO_CORNER
            if self.o_leaving:
                lim = self.limit(car, before)
                n = rules.hazards_over(car.speed, lim) if lim is not None else 0
                if n:
                    self._owe(t, car, n, before)
            if car.nitrous and self.o_nitrous == "curve":
                self._nitrous_off(car)

    def _advance(self, car: Car, d: int) -> None:
        """One square along (d = 1) or against (d = -1) the direction of travel. Backwards over
        the line the lap counts down, or with reverse_laps: unchanged stays (Readings 33)."""
        if d < 0 and self.o_reverse_laps == "unchanged" and car.progress % self.n == 0:
            car.progress += self.n - 1  # on the last segment of the same lap
        else:
            car.progress += d

    def _token_hit(self, t: Turn, car: Car, kind: str, lay: int = -1) -> None:
        """`kind` acts on the car where it stands; `lay`: the square the token lay on, when
        that is another (a U-turn meets its tokens on its last square, Readings 31)."""
        self.supply[kind] += 1
        tk = self.token_kinds[kind]
        immune = any(kind in self.equip_by_id[e].immune for e in car.equipment)
        if lay >= 0 and lay != car.node:
            self.event("token-hit", p=car.seat, kind=kind, at=self.where(car.node), lay=self.where(lay), immune=immune)
        else:
            self.event("token-hit", p=car.seat, kind=kind, at=self.where(car.node), immune=immune)
        if immune:
            return
        if tk.damage:
            self._damage(car, tk.damage, kind)
        if tk.slow:
            self._slow(car, tk.slow, kind)
        if tk.hazards:
            self._owe(t, car, tk.hazards, car.node)

    def _forced_bump(self, t: Turn, car: Car, rams: dict[str, Any]) -> None:
        """All squares ahead taken: bump one blocker from behind (or ram, with a Ram card)."""
        occ = self.blocked()
        ahead = [x for x in (self.b.back if car.reversed else self.b.main)[car.node] if x in occ]
        if not ahead:  # the road ends: the move is over
            return self._after_move(t)
        opts = dict(rams)
        for x in ahead:
            opts[f"bump {self.where(x)}"] = (f"bump {self.names[occ[x]]}", self._bump, occ[x])
        if len(opts) == 1:
            _, fn, *args = next(iter(opts.values()))
            fn(t, *args)
            return None
        self._ask(t, "bump", f"{self.names[t.car]} is blocked: bump a car from behind", opts)

    def _bump(self, t: Turn, q: int) -> None:
        car, other = self.cars[t.car], self.cars[q]
        mine, theirs = self.decks.setup.dice_of("forced_rear_end")
        self.stats["bumps"] += 1
        self.event("bump", p=t.car, target=q)
        self._damage(car, mine, "rear-end")
        if not other.wreck:
            self._damage(other, theirs, "rear-end")
        self._end_turn(t)

    def _ram(self, t: Turn, q: int, kind: str, go_on: bool = True) -> None:
        car, target = self.cars[t.car], self.cars[q]
        t.rammed = True
        setup = self.decks.setup
        dice = {"side": "side_ram", "rear": "rear_ram", "head-on": "head_on"}[kind]
        mine, theirs = setup.dice_of(dice)
        slide = kind == "side" and self.o_wall and target.node in self.wall_squares
        if slide:
            theirs = setup.dice_of("pit_wall")[0]
        self.stats["rams"][kind] += 1
        self.stats["rams_at"][self.where(target.node)] += 1
        self.event("ram", p=t.car, target=q, kind=kind, wall=slide)
        self._damage(car, mine, "ram")
        self._damage(target, theirs, "rammed")
        if kind == "head-on":
            car.speed = target.speed = 0
        if kind != "side":
            t.ended = True
        if go_on:
            self._move_on(t)

    def _after_move(self, t: Turn) -> None:
        car = self.cars[t.car]
        if t.card.kind == "ram" and not t.rammed and not car.wreck:
            opts = self._ram_options(car)
            if opts:
                opts = {k: (v[0], self._ram_after, *v[2:]) for k, v in opts.items()}
                return self._ask(t, "ram-after", f"{self.names[t.car]}: ram now", opts)
            self.event("ram-missed", p=t.car)
        self._sabotage(t)

    def _ram_after(self, t: Turn, q: int, kind: str) -> None:
        self._ram(t, q, kind, go_on=False)
        if self.over or self.cars[t.car].wreck:
            return self._end_turn(t)
        self._sabotage(t)

    def _sabotage(self, t: Turn) -> None:
        car = self.cars[t.car]
        if t.card.kind != "sabotage" or car.wreck or t.drops >= max(t.card.drops):
            return self._end_turn(t)
        squares = self.sabotage_squares(t, car)
        kinds = [t.dropped] if t.dropped else [k for k, v in car.tokens.items() if v > 0]
        opts: dict[str, Any] = {f"{k} {self.where(x)}": (f"drop {k} on {self.where(x)}", self._drop, k, x)
                                for k in kinds if car.tokens.get(k, 0) > 0 for x in squares}
        if t.drops >= min(t.card.drops) and opts:
            opts["done"] = ("drop no more", self._end_turn)
        if not opts or (len(opts) == 1 and "done" in opts):
            if not t.drops:
                self.event("no-action", p=t.car, card=t.card.id)
            return self._end_turn(t)
        self._ask(t, "sabotage", f"{self.names[t.car]}: drop tokens behind you", opts)

    def sabotage_squares(self, t: Turn, car: Car) -> list[int]:
        """Squares passed this turn that may take a token (Readings 10)."""
        passed = t.passed if self.o_start_square else t.passed[1:]
        occ = self.blocked()
        return [x for x in dict.fromkeys(passed) if x != car.node and x not in self.on_board and x not in occ]

    def _drop(self, t: Turn, kind: str, x: int) -> None:
        car = self.cars[t.car]
        car.tokens[kind] -= 1
        self.on_board[x] = kind
        t.dropped, t.drops = kind, t.drops + 1
        self.event("drop", p=t.car, kind=kind, at=self.where(x))
        self._sabotage(t)

    def _end_turn(self, t: Turn) -> None:
        car = self.cars[t.car]
        if t.steps and self.turn is t:
            if self.record:
                self.event("move", p=t.car, steps=t.steps, to="pit" if car.in_pit else self.where(car.node) if car.node >= 0 else "-")
        if car.nitrous and self.o_nitrous == "turn" and not car.wreck:
            self._nitrous_off(car)
        t.opts = {}
        if self.turn is t:
            self.turn = None

    def _nitrous_off(self, car: Car) -> None:
        car.nitrous = False
        if car.speed > car.maximum:
            car.speed = car.maximum
            self.event("speed", p=car.seat, speed=car.speed, why="nitrous over")

    def _win(self, car: Car) -> None:
        self.over = True
        self.winner = car.seat
        self.stats["finished"] = 1
        self.event("finish", p=car.seat, laps=self.laps)

    # --- the pit road -----------------------------------------------------------------------

    def _enter_pit(self, t: Turn, x: int, go_on: bool = True) -> None:
        car = self.cars[t.car]
        pit = self.track.pit
        assert pit is not None
        name = self.where(car.node)
        entry = next(e for e in pit.entries if e.cell == name)
        t.passed.append(car.node)
        car.in_pit, car.pit_node = True, x - self.m
        self.pit_counter += 1
        car.pit_seq = self.pit_counter
        car.free_corner = NO_CORNER
        self.stats["pit_visits"] += 1
        self.event("pit", p=t.car, entry=name)
        if entry.speed is not None:
            n = rules.hazards_over(car.speed, entry.speed)
            if n:
                self._owe(t, car, n, -1)
        t.points = self.decks.setup.points
        t.ended = True  # entering ends the move (Readings 13); hazards first, then shopping
        self._pit_hazards(t)

    def _pit_hazards(self, t: Turn) -> None:
        car = self.cars[t.car]
        while t.owed and not car.wreck:
            if self._draw_hazard(t):
                t.opts = {k: (v[0], self._pit_luck, v[1]) for k, v in t.opts.items()}
                return None
        if car.wreck or self.over:
            return self._end_turn(t)
        self._shop(t)

    def _pit_luck(self, t: Turn, fn: Any) -> None:
        # keep / redraw in the pit road: the card is applied, then back to the owed draws
        i, kind = t.drawn, t.drawn_kind
        t.drawn = -1
        if fn == self._keep_drawn:
            self._apply_hazard(t, i)
        else:
            car = self.cars[t.car]
            car.luck -= 1
            self.event("luck", p=t.car, left=car.luck)
            self.hazard_used.append(i)
            t.owed += 1
        assert kind == "hazard"
        self._pit_hazards(t)

    def shop_options(self, t: Turn, car: Car) -> dict[str, Any]:
        s = self.decks.setup
        opts: dict[str, Any] = {}
        if t.points >= s.price("repair") and car.maximum < s.cap:
            opts["repair"] = ("+10 km/h of maximum", self._buy, "repair")
        if t.points >= s.price("therapy") and car.insanity:
            opts["therapy"] = ("cure an insanity", self._buy, "therapy")
        if t.points >= s.price("equipment") and self.equip_deck:
            opts["equipment"] = ("an equipment card", self._buy, "equipment")
        if t.points >= s.price("token") and sum(car.tokens.values()) < s.token_hold:
            for k in self.token_kinds:
                if self.supply[k] > 0:
                    opts[f"token {k}"] = (f"one {k} token", self._buy, f"token {k}")
        if opts:
            opts["done"] = ("spend no more", self._shop_done)
        return opts

    def _shop(self, t: Turn) -> None:
        car = self.cars[t.car]
        opts = self.shop_options(t, car)
        if not opts:
            return self._shop_done(t)
        self._ask(t, "shop", f"{self.names[t.car]} in the pit road, {t.points} points to spend", opts)

    def _buy(self, t: Turn, what: str) -> None:
        car = self.cars[t.car]
        s = self.decks.setup
        self.event("buy", p=t.car, what=what)
        if what == "repair":
            t.points -= s.price("repair")
            car.maximum = min(s.cap, car.maximum + rules.SQUARE_KMH)
        elif what == "therapy":
            t.points -= s.price("therapy")
            self.hazard_used.append(car.insanity.pop(0))
        elif what == "equipment":
            t.points -= s.price("equipment")
            t.offer = [self.equip_deck.pop(0) for _ in range(min(s.equipment_draw, len(self.equip_deck)))]
            opts = {f"keep {e}": (f"keep {self.equip_by_id[e].name}", self._keep_equipment, e) for e in t.offer}
            return self._ask(t, "keep", f"{self.names[t.car]}: keep one equipment card", opts)
        else:
            kind = what.split()[1]
            t.points -= s.price("token")
            self.supply[kind] -= 1
            car.tokens[kind] += 1
        self._shop(t)

    def _keep_equipment(self, t: Turn, e: str) -> None:
        car = self.cars[t.car]
        offer = list(t.offer)
        offer.remove(e)
        self.equip_deck += offer  # the others go under the deck
        t.offer = []
        car.equipment.append(e)
        kept = self.equip_by_id[e].on_keep
        if kept:
            self.effects(t, car, kept, "keep", -1)
            if car.wreck:
                return self._end_turn(t)
        if len(car.equipment) > self.decks.setup.equipment_hold:
            opts = {f"return {x}": (f"put {self.equip_by_id[x].name} back", self._return_equipment, x)
                    for x in dict.fromkeys(car.equipment)}
            return self._ask(t, "return", f"{self.names[t.car]}: put one equipment card back", opts)
        self._shop(t)

    def _return_equipment(self, t: Turn, e: str) -> None:
        self.cars[t.car].equipment.remove(e)
        self.equip_deck.append(e)
        self._shop(t)

    def _shop_done(self, t: Turn) -> None:
        car = self.cars[t.car]
        car.speed, car.nitrous = 0, False
        self.event("pit-stop", p=t.car, maximum=car.maximum, lost=t.points)
        self._end_turn(t)

    def pit_exits(self, car: Car) -> list[int]:
        """The free main squares of the open exits a car in the pit road may leave onto, in
        the track's order; none while it must wait (a car that came in earlier is still in)."""
        pit = self.track.pit
        if pit is None:
            return []
        first = min((c for c in self.cars if c.in_pit), key=lambda c: c.pit_seq)
        if first.seat != car.seat:
            return []
        occ = self.blocked()
        out: list[int] = []
        for x in pit.exits:
            sp = self.track.space_named(x.cell)
            if (x.main or self.o_all_pits) and sp is not None and sp.index not in occ and sp.index not in out:
                out.append(sp.index)
        return out

    def _leave_pit(self, t: Turn) -> None:
        car = self.cars[t.car]
        if not self.pit_exits(car):
            self.event("pit-wait", p=t.car, why="blocked")
            return self._end_turn(t)
        self._offer_accelerate(t, car, t.card)

    def _exit_pit(self, t: Turn) -> None:
        car = self.cars[t.car]
        exits = self.pit_exits(car)
        if not exits:
            self.event("pit-wait", p=t.car, why="blocked")
            car.speed, car.nitrous = 0, False
            return self._end_turn(t)
        if len(exits) == 1:
            return self._pit_out(t, exits[0])
        # the player chooses the exit (Readings 34): the first square of the leaving move
        opts: dict[str, Any] = {f"to {self.where(x)}": (f"leave onto {self.where(x)}", self._pit_out, x) for x in exits}
        self._ask(t, "step", f"{self.names[t.car]} leaves the pit road: onto which exit square?", opts)

    def _pit_out(self, t: Turn, x: int) -> None:
        car = self.cars[t.car]
        old = self.track.spaces[car.node].first
        gain = (self.track.spaces[x].first - old) % self.n
        was = car.progress
        car.progress += gain
        car.in_pit, car.node = False, x
        pit = self.track.pit
        assert pit is not None
        if not pit.can_win and was < car.goal <= car.progress:
            car.goal += self.n  # the race cannot be won in the pit road (Readings 16)
            self.event("extra-lap", p=t.car)
        t.steps += 1
        self.event("pit-exit", p=t.car, to=self.where(x))
        if car.progress >= car.goal:
            return self._win(car)
        kind = self.on_board.pop(x, None)
        if kind is not None:
            self._token_hit(t, car, kind)
        self._move_on(t)

    # --- U-turn (option) ----------------------------------------------------------------------

    def u_turn_paths(self, car: Car, free: bool) -> dict[str, list[int]]:
        """The U-turns car may make, each as the squares it crosses (the last is where it ends):
        `turn` across the road to the counterpart square of the other edge lane, `skid` (40 km/h
        or more) to the next square in the reversed direction. Both only from the inner or outer
        lane (with u_turn_lanes: skid-any-lane a skid from any lane; Readings 31). `free`: every
        square crossed must be free of cars and wrecks (at the car's turn; not when choosing the
        card, Readings 32)."""
        if not self.o_uturn or car.in_pit or car.node < 0:
            return {}
        out: dict[str, list[int]] = {}
        sp = self.track.spaces[car.node]
        occ = self.blocked() if free else {}
        lanes = self.track.lanes
        edge = sp.lane == 0 or sp.lane == lanes - 1  # on a one-lane road both (a skid, no turn)
        if edge and lanes > 1:
            other = lanes - 1 - sp.lane
            step = 1 if other > sp.lane else -1
            path: list[int] = []
            for ln in range(sp.lane + step, other + step, step):
                c = self.track.space_at(ln, sp.first)
                if c is None or c.index in occ:
                    path = []
                    break
                path.append(c.index)
            if path:
                out["turn"] = path
        if car.speed >= 40 and (edge or self.o_uturn_lanes == "skid-any-lane"):
            seg = (sp.first + (1 if car.reversed else -1)) % self.n
            back = self.track.space_at(sp.lane, seg)
            if back is not None and back.index not in occ:
                out["skid"] = [back.index]
        return out

    def _u_turn(self, t: Turn, kind: str, path: list[int]) -> None:
        car = self.cars[t.car]
        curve, after = (10, 10) if kind == "turn" else (40, 0)
        node = path[-1]
        if kind == "skid":
            self._advance(car, 1 if car.reversed else -1)
        car.node = node
        car.reversed = not car.reversed
        car.free_corner = NO_CORNER
        self.event("u-turn", p=t.car, kind=kind, to=self.where(node))
        if not car.reversed and car.progress >= car.goal:
            return self._win(car)  # a skid forwards onto the line after the last lap
        n = rules.hazards_over(car.speed, curve)
        if n:
            self._owe(t, car, n, node)
        car.speed = after
        # every token on a square the turn crossed acts on its last square (Readings 31)
        for x in path:
            if car.wreck:
                break
            token = self.on_board.pop(x, None)
            if token is not None:
                self._token_hit(t, car, token, x)
        t.ended = True
        self._move_on(t)

    # --- the protocol -----------------------------------------------------------------------

    def copy(self) -> SpeedHazardGame:
        """An independent copy of the race: what deepcopy makes of it (its log and generator
        included), field by field by hand, sharing only what no play changes (the track, the
        cards, the board tables)."""
        return SpeedHazardGame(self.track, self.decks, (), 0, self.laps, {}, self.record, self, True)

    def fork(self) -> SpeedHazardGame:
        """A copy for a look-ahead's rollout: as `copy`, but with an empty log, no generator
        (the rollout deals its own) and nothing recorded."""
        return SpeedHazardGame(self.track, self.decks, (), 0, self.laps, {}, False, self, False)

    def _take(self, g: SpeedHazardGame, log: bool) -> None:
        """Every field of `g` into this game, as deepcopy would copy it: a list, dict or car
        that play changes is copied; the track, cards and tables no play changes are shared.
        A field not named here (one added later) is deep-copied."""
        self.track, self.decks, self.names, self.laps = g.track, g.decks, list(g.names), g.laps
        self.o_leaving, self.o_beside, self.o_nitrous, self.o_accel = g.o_leaving, g.o_beside, g.o_nitrous, g.o_accel
        self.o_start_square, self.o_wall, self.o_uturn = g.o_start_square, g.o_wall, g.o_uturn
        self.o_uturn_lanes, self.o_reverse_laps, self.o_all_pits = g.o_uturn_lanes, g.o_reverse_laps, g.o_all_pits
        # what deepcopy would share or map: the game to this copy (a generator may name it)
        memo: dict[int, Any] = {id(g): self, id(g.track): g.track, id(g.decks): g.decks, id(g.b): g.b}
        if log:
            self.rng = copy.deepcopy(g.rng, memo)
            self.record = g.record
            self.log = copy.deepcopy(g.log, memo)
        else:
            self.rng = None
            self.record = False
            self.log = []
        stats: dict[str, Any] = {}
        for k, v in g.stats.items():
            if isinstance(v, Counter):
                counts: Counter[Any] = Counter()
                dict.update(counts, v)  # Counter(v) is the same, through Counter.update's checks
                stats[k] = counts
            else:
                stats[k] = v if isinstance(v, int) else copy.deepcopy(v, memo)
        self.stats = stats
        self.rounds, self.capped, self.over, self.winner = g.rounds, g.capped, g.over, g.winner
        self.wrecked = list(g.wrecked)
        self.choosing = list(g.choosing)
        self._hidden = dict(g._hidden)
        self.queue = list(g.queue)
        self.pit_counter = g.pit_counter
        self._pending = g._pending  # frozen
        self.n, self.b, self.m = g.n, g.b, g.m
        self.equip_by_id, self.actions = g.equip_by_id, g.actions  # frozen cards, never changed
        self.hazard_deck, self.hazard_used = list(g.hazard_deck), list(g.hazard_used)
        self.nitrous_deck, self.nitrous_used = list(g.nitrous_deck), list(g.nitrous_used)
        self.equip_deck = list(g.equip_deck)
        self.token_kinds = g.token_kinds  # never changed
        self.supply = dict(g.supply)
        self.on_board = dict(g.on_board)
        self.wall_squares = g.wall_squares
        self.grid = list(g.grid)
        self.cars = [c.copy() for c in g.cars]
        t = g.turn
        self.turn = None if t is None else t.copy(
            {k: tuple([_rebound(x, g, self) for x in v]) for k, v in t.opts.items()})
        fields = g.__dict__ if hasattr(g, "__dict__") else type(g).__mypyc_attrs__  # type: ignore[attr-defined,unused-ignore]
        for name in fields:
            if name not in _TAKEN:
                setattr(self, name, copy.deepcopy(getattr(g, name), memo))

    def __deepcopy__(self, memo: dict[int, Any]) -> SpeedHazardGame:
        """What copy.deepcopy would make of the game's fields, also for a compiled game
        (engine/core/accel.py), which deepcopy cannot take apart itself: a game of no cars, then
        each field deep-copied into it (views.py copies the game this way too)."""
        new = SpeedHazardGame(self.track, self.decks, (), 0, self.laps, {}, self.record)
        memo[id(self)] = new
        fields = self.__dict__ if hasattr(self, "__dict__") else type(self).__mypyc_attrs__  # type: ignore[attr-defined,unused-ignore]
        for name in fields:
            setattr(new, name, copy.deepcopy(getattr(self, name), memo))
        t = new.turn
        if t is not None and t.opts:
            # what an option does is a method of this game: the copy's own (deepcopy binds a
            # method of a Python class to the copy, but keeps one of a compiled class as it is)
            t.opts = {k: tuple(_rebound(x, self, new) for x in v) for k, v in t.opts.items()}
        return new

    def standings(self) -> list[int]:
        alive = sorted((c for c in self.cars if not c.wreck and c.seat != self.winner), key=lambda c: (-c.progress, c.seat))
        head = [self.winner] if self.winner >= 0 else []
        return head + [c.seat for c in alive] + list(reversed(self.wrecked))

    def result(self) -> dict[str, Any]:
        return {"t": "result", "standings": [self.names[i] for i in self.standings()],
                "rounds": self.rounds, "capped": self.capped,
                "winner": self.names[self.winner] if self.winner >= 0 else None,
                "wrecks": [self.names[i] for i in self.wrecked]}


# the fields `SpeedHazardGame._take` copies by hand (tests/rulesets/speed_hazard check it names them all)
_TAKEN: Final = frozenset((
    "track", "decks", "names", "laps", "o_leaving", "o_beside", "o_nitrous", "o_accel", "o_start_square", "o_wall",
    "o_uturn", "o_uturn_lanes", "o_reverse_laps", "o_all_pits", "rng", "record", "log", "stats", "rounds", "capped",
    "over", "winner", "wrecked", "choosing", "_hidden", "queue", "pit_counter", "_pending", "n", "b", "m",
    "equip_by_id", "actions", "hazard_deck", "hazard_used", "nitrous_deck", "nitrous_used", "equip_deck",
    "token_kinds", "supply", "on_board", "wall_squares", "grid", "cars", "turn"))


def _rebound(x: Any, old: SpeedHazardGame, new: SpeedHazardGame) -> Any:
    """`x`, or `new`'s method of the same name when `x` is a method bound to `old`."""
    if getattr(x, "__self__", None) is old:
        return getattr(new, x.__name__)
    return x


def _deepcopy_fields(x: Any, memo: dict[int, Any]) -> Any:
    """What copy.deepcopy gives of the dataclass `x` (each field deep-copied, in a new object
    known to `memo`), also when its class is compiled (which deepcopy cannot copy itself)."""
    values = {f.name: copy.deepcopy(getattr(x, f.name), memo) for f in dataclasses.fields(x)}
    new = type(x)(**values)
    memo[id(x)] = new
    return new
