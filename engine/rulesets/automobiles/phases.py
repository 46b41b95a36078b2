"""Setup and the shape of a turn (RULES §2, §3): frames on the game's control stack.

Standard turn: Action → Buy → Car → Decline → End; or the Pit Stop turn (§3.3). Driver
hooks and scheduled effects run at the points named in docs/effects.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from slipstream.engine.play.decisions import Decision, opt
from slipstream.engine.rulesets.automobiles.effects import (
    Ctx,
    EffectList,
    Frame,
    playable_now,
    push_effects,
    push_later,
    swappable,
    turn_start,
)
from slipstream.engine.rulesets.automobiles.state import (
    ACTIVE,
    BAG,
    USED,
    TurnState,
)

if TYPE_CHECKING:
    from slipstream.engine.rulesets.automobiles.game import Game

HOOKS_ON_PIT: Final = {"decline", "end_before_draw", "end_draw", "end_after_draw"}
ABILITY: Final = opt("ability", "use your driver's ability")
END_ACTION: Final = opt("end", "end the Action phase")
END_BUY: Final = opt("end", "end the Buy phase")
TURN_OPTIONS: Final = (opt("standard", "standard turn"),
                opt("pit", "pit stop: remove the wear in your active pile"))


def keep_decision(g: Game, key: tuple[Any, ...], d: Decision) -> None:
    """Keep a decision that depends on nothing but `key`, for every game of the ruleset (at most
    16,384: past that, start over rather than grow)."""
    if len(g.decisions) >= 16_384:
        g.decisions.clear()
    g.decisions[key] = d


def turn_decision(g: Game, me: int) -> Decision:
    """The standard-or-pit decision of `me` (one Decision per player and game: it never changes)."""
    # (kept by player in a list of the ruleset's tables: one index, where a ("turn", me) key
    # was a tuple made and hashed at every turn)
    turns = g.tables.turns
    while len(turns) <= me:
        turns.append(Decision(len(turns), "turn", TURN_OPTIONS, "standard turn or pit stop?"))
    return turns[me]


def driver_hook(g: Game, player: int, hook: str) -> Any:
    """The effect list of the player's driver for `hook`, if usable now."""
    p = g.race.players[player]
    if p.driver is None:
        return None
    t = g.race.turn
    if t is not None and (hook in t.hooks_used or (t.pit and hook not in HOOKS_ON_PIT)):
        return None
    return g.rules.drivers[p.driver].hooks.get(hook) or None


# The decision a look-ahead rollout's copy is left at when its last turn has ended early
# (`rollout_over`): the rollout is scored there and the copy thrown away.
ROLLOUT_OVER: Final = Decision(-1, "rollout_over", (), "the rollout is over")


class RolloutOver(Frame):
    """The top of a look-ahead rollout's stack once its last turn has ended early
    (`rollout_over`): the copy stops there, at ROLLOUT_OVER, which has no option."""

    __slots__ = ()

    def blank(self) -> Frame:
        return RolloutOver()

    def run(self, g: Game) -> Decision | None:
        return ROLLOUT_OVER

    def choose(self, g: Game, key: str) -> None:
        raise ValueError("a look-ahead rollout's copy is over: it has no decision to play")


def rollout_over(g: Game, me: int) -> bool:
    """Whether `me`'s turn, at its End phase, is the last of a look-ahead rollout (Game.last_player,
    last_turns) and what the rollout would still play changes no score: then the turn ends here,
    without its clean-up and new hand, and nothing after it is played.

    A rollout is scored (lookahead.py `evaluate`) from the cars, the searching player's wear and
    whether the race is over, at the first decision after its last turn has ended. The clean-up
    and the draw only move cubes between its own piles (the wear owned stays), and the next
    turn's start only notes the turn and its positions, unless a driver's hook (End phase) or
    effects scheduled for the rest of the turn or for a player's next turn start run there, which
    may move a car or give wear: with any of those, the turn plays on as ever. The turn still
    ends (`finish_turn`), which is what ends the race, and the copy is left at ROLLOUT_OVER
    (a `RolloutOver` frame on its stack)."""
    race = g.race
    p = race.players[me]
    if p.driver is not None:
        return False
    t = race.turn
    if t is None or t.scheduled:
        return False
    turns: list[int] = race.stats["turns"]
    if turns[me] + 1 < g.last_turns:
        return False
    for q in race.players:
        mem = q.memory
        if mem is not None and mem.later:
            return False
    return True


class RaceFrame(Frame):
    """The root: driver choice, pre-race purchase, first draw, then turns until the race ends."""

    __slots__ = ("stage", "i")

    def __init__(self, stage: str = "drivers") -> None:
        self.stage = stage
        self.i = 0

    def blank(self) -> Frame:
        return RaceFrame(self.stage)

    def clone(self, memo: dict[int, Any]) -> Frame:
        # (the fields set directly, natively: a game copy clones the frames of its stack, and
        # the generic clone reads and sets each field by name; a subclass clones as before)
        if type(self) is not RaceFrame:
            return super().clone(memo)
        new = RaceFrame(self.stage)
        new.i = self.i
        return new

    def run(self, g: Game) -> Decision | None:
        race = g.race
        if self.stage == "turns":  # the common case first: the next turn
            if race.over:
                g.stack.pop()
                return None
            g.stack.append(TurnFrame(race.order[race.turn_pos]))
            return None
        n = len(race.players)
        if self.stage == "drivers":
            if g.drivers_draft and self.i < n:
                g.stack.append(DriverPick(race.order[self.i]))
                self.i += 1
                return None
            self.stage, self.i = "purchase", 0
        if self.stage == "purchase":
            if self.i < n:
                p = race.order[self.i]
                self.i += 1
                budget = g.grid_money(p)
                if budget > 0:
                    g.stack.append(Purchase(p, budget))
                return None
            self.stage = "draw"
        if self.stage == "draw":
            for p in race.order:
                for _ in range(g.rules.hand_size):
                    g.draw(p, ACTIVE)
            g.emit("start", order=[race.players[p].name for p in race.order])
            self.stage = "turns"
        if race.over:
            g.stack.pop()
            return None
        g.stack.append(TurnFrame(race.order[race.turn_pos]))
        return None


class DriverPick(Frame):
    __slots__ = ("player",)

    def __init__(self, player: int) -> None:
        self.player = player

    def blank(self) -> Frame:
        return DriverPick(self.player)

    def run(self, g: Game) -> Decision | None:
        taken = {p.driver for p in g.race.players}
        opts = [opt(f"driver {d.id}", d.name) for i, d in enumerate(g.rules.drivers) if i not in taken]
        if not opts or g.race.players[self.player].driver is not None:
            g.stack.pop()
            return None
        return Decision(self.player, "driver", tuple(opts), "choose your driver")

    def choose(self, g: Game, key: str) -> None:
        g.race.players[self.player].driver = g.rules.driver(key[7:])
        g.emit("driver", p=self.player, driver=key[7:])
        g.stack.pop()


class Purchase(Frame):
    """Pre-race purchase with the grid slot's money, into the bag (RULES §2.5)."""

    __slots__ = ("player", "budget")

    def __init__(self, player: int, budget: int) -> None:
        self.player = player
        self.budget = budget

    def blank(self) -> Frame:
        return Purchase(self.player, self.budget)

    def run(self, g: Game) -> Decision | None:
        opts = g.buy_options(self.budget)
        if not opts:
            g.stack.pop()
            return None
        return Decision(self.player, "purchase", tuple(opts + [opt("done")]),
                        f"pre-race purchase: ${self.budget} left")

    def choose(self, g: Game, key: str) -> None:
        if key == "done":
            g.stack.pop()
            return
        k = g.rules.kind(key[4:])
        self.budget -= g.rules.kinds[k].cost
        g.gain(self.player, k, 1, "buy", zone=BAG)


class HookAsk(Frame):
    """Offer a driver ability at a fixed point of the turn (yes / no)."""

    __slots__ = ("player", "hook")

    def __init__(self, player: int, hook: str) -> None:
        self.player = player
        self.hook = hook

    def blank(self) -> Frame:
        return HookAsk(self.player, self.hook)

    def run(self, g: Game) -> Decision | None:
        if driver_hook(g, self.player, self.hook) is None:
            g.stack.pop()
            return None
        d = g.rules.drivers[g.race.players[self.player].driver or 0]
        return Decision(self.player, "ability", (opt("yes", f"use {d.name}"), opt("no")),
                        f"use {d.name}'s ability ({self.hook})?")

    def choose(self, g: Game, key: str) -> None:
        g.stack.pop()
        if key == "yes":
            use_hook(g, self.player, self.hook)


def ask_hook(g: Game, player: int, hook: str) -> None:
    """Push the question of a driver ability at this point of the turn, if it is usable now."""
    if g.race.players[player].driver is not None and driver_hook(g, player, hook) is not None:
        g.stack.append(HookAsk(player, hook))


def use_hook(g: Game, player: int, hook: str) -> None:
    eff = driver_hook(g, player, hook)
    if eff is None:
        return
    t = g.race.turn
    if t is not None:
        t.hooks_used = t.hooks_used | {hook}  # (replaced whole: see TurnState)
    d = g.rules.drivers[g.race.players[player].driver or 0]
    g.emit("ability", p=player, driver=d.id, hook=hook)
    g.stack.append(EffectList(eff, Ctx(player, None, d.id)))


class TurnFrame(Frame):
    """One player's turn, phase by phase."""

    __slots__ = ("player", "stage")

    def __init__(self, player: int) -> None:
        self.player = player
        self.stage = "start"

    def blank(self) -> Frame:
        return TurnFrame(self.player)

    def clone(self, memo: dict[int, Any]) -> Frame:
        if type(self) is not TurnFrame:  # (as RaceFrame.clone)
            return super().clone(memo)
        new = TurnFrame(self.player)
        new.stage = self.stage
        return new

    def run(self, g: Game) -> Decision | None:
        race, me = g.race, self.player
        st = self.stage
        if st == "start":
            race.turn = TurnState(me)
            if turn_start(g, me):  # effects scheduled for this turn's start run first
                self.stage = "ask"
                return None
            return turn_decision(g, me)
        if st == "ask":
            return turn_decision(g, me)
        self.run_stage(g)
        return None

    def run_stage(self, g: Game) -> None:
        """Run the stages from the current one, falling through to the next, until a stage puts
        a frame on the stack (the turn resumes there when that frame is done) or the turn ends."""
        me = self.player
        t = g.race.turn
        assert t is not None
        stack = g.stack
        p = g.race.players[me]
        st = self.stage
        if st == "action":
            t.stage = "action"
            t.positions_action = g.positions(False)
            # the Buy phase waits under the Action phase: it starts when that ends, with no run of
            # this frame in between (`BuyPhase.run` sets the turn's stage)
            stack.append(BuyPhase(me))
            stack.append(ActionPhase(me))
            push_later(g, me, "next_action")
            self.stage = "buy_scheduled"
            return
        if st == "buy_scheduled":
            self.stage = "car"
            if t.scheduled:
                self.push_scheduled(g, "after_buy")
                if not stack or stack[-1] is not self:
                    return
            st = "car"
        if st == "car":
            t.stage = "car"
            self.stage = "car_scheduled"
            g.car_phase(me)
            if p.driver is not None:
                ask_hook(g, me, "car")
            if not stack or stack[-1] is not self:
                return
            st = "car_scheduled"
        if st == "car_scheduled":
            self.stage = "decline"
            if t.scheduled:
                self.push_scheduled(g, "after_car_move")
                if not stack or stack[-1] is not self:
                    return
            st = "decline"
        if st == "decline":
            t.stage = "decline"
            self.stage = "end"
            g.decline_phase(me)
            if p.driver is not None:
                ask_hook(g, me, "decline")
            if not stack or stack[-1] is not self:
                return
            st = "end"
        if st == "end":
            if me == g.last_player and rollout_over(g, me):
                stack.pop()
                g.finish_turn(me)
                stack.append(RolloutOver())
                return
            t.stage = "end"
            self.stage = "end_draw"
            g.cleanup(me)
            if p.driver is not None:
                ask_hook(g, me, "end_before_draw")
            if not stack or stack[-1] is not self:
                return
            st = "end_draw"
        if st == "end_draw":
            self.stage = "end_after"
            g.draw_hand(me)
            if p.driver is not None:
                ask_hook(g, me, "end_draw")
            if not stack or stack[-1] is not self:
                return
            st = "end_after"
        if st == "end_after":
            self.stage = "after_end"
            if p.driver is not None:
                ask_hook(g, me, "end_after_draw")
                if not stack or stack[-1] is not self:
                    return
            st = "after_end"
        if st == "after_end":
            t.stage = "after_end"
            self.stage = "finish"
            if t.scheduled:
                self.push_scheduled(g, "after_end")
                if not stack or stack[-1] is not self:
                    return
        stack.pop()
        g.finish_turn(me)

    def push_scheduled(self, g: Game, at: str) -> None:
        t = g.race.turn
        assert t is not None
        if not t.scheduled:
            return
        for key, (when, eff, who) in list(t.scheduled.items()):
            if when == at:
                del t.scheduled[key]
                g.stack.append(EffectList(eff, Ctx(who, None, key)))

    def choose(self, g: Game, key: str) -> None:
        t = g.race.turn
        assert t is not None
        if g.record:  # `emit` records nothing otherwise: its arguments are not made
            g.emit("turn", p=self.player, choice=key)
        if key == "pit":
            t.pit = True
            pit_stop(g, self.player)
            self.stage = "decline"
        else:
            self.stage = "action"
        self.run_stage(g)  # what the next run of this frame (still on top) would do


@swappable
def pit_stop(g: Game, me: int) -> None:
    """The pit stop chosen at `me`'s turn (RULES §3.3): a function looked up by name, so that a
    test can replace what a pit stop does (frames are native classes when compiled)."""
    g.pit_stop(me)


def _kept(kept: list[dict[int, Decision]], me: int, ability: bool) -> dict[int, Decision]:
    """The decisions kept for player `me` with or without the driver's ability (the Action and
    Buy decisions' tables, `RulesTables.actions` and `.buys`), made on first use."""
    slot = 2 * me + 1 if ability else 2 * me
    while len(kept) <= slot:
        kept.append({})
    return kept[slot]


ACTION_ROW: Final = 1024  # Action decisions kept by index: the patterns of up to 10 kinds


def _row(rows: list[list[Decision | None]], me: int, ability: bool) -> list[Decision | None]:
    """The row of Action decisions by pattern of player `me` with or without the driver's
    ability (`RulesTables.action_rows`), made on first use."""
    slot = 2 * me + 1 if ability else 2 * me
    while len(rows) <= slot:
        rows.append([None] * ACTION_ROW)
    return rows[slot]


class ActionPhase(Frame):
    """Play cubes one at a time, or use the Action-phase driver ability (RULES §3.1)."""

    __slots__ = ("player",)

    def __init__(self, player: int) -> None:
        self.player = player

    def blank(self) -> Frame:
        return ActionPhase(self.player)

    def clone(self, memo: dict[int, Any]) -> Frame:
        if type(self) is not ActionPhase:  # (as RaceFrame.clone)
            return super().clone(memo)
        return ActionPhase(self.player)

    def run(self, g: Game) -> Decision | None:
        me = self.player
        p = g.race.players[me]
        active = p.zones[ACTIVE]
        rs = g.rules
        strict = rs.options.strict_play
        ability = p.driver is not None and driver_hook(g, me, "action") is not None
        # the decision depends on the ability and which kinds of the active pile have cubes only
        # (unless strict play): one decision per such pattern, not per hand
        # (one bit per kind with cubes, bit k for kind k: a loop, native code when compiled)
        held = 0
        bit = 1
        for n in active:
            if n:
                held |= bit
            bit += bit  # (not `<<= 1`: compiled, a shift is a call, a sum is inline)
        # kept by player and ability, then by the pattern: at its index in a row of patterns
        # (no int boxed, hashed and compared, as a dict key is), or past the row's end by an
        # int key in a dict
        d: Decision | None = None
        row: list[Decision | None] | None = None
        memo: dict[int, Decision] | None = None
        if not strict:
            if held < ACTION_ROW:
                row = _row(g.tables.action_rows, me, ability)
                d = row[held]
            else:
                memo = _kept(g.tables.actions, me, ability)
                d = memo.get(held)
        if d is None:
            po = g.play_option
            if strict or not rs.options.wear_card_playable:
                opts = [po[k] for k in rs.with_effect if active[k] and (
                    rs.options.wear_card_playable or rs.kinds[k].role != "wear")
                    and not (strict and not g.playable(me, k))]
            else:
                opts = [po[k] for k in rs.with_effect if active[k]]
            if ability:
                opts.append(ABILITY)
            opts.append(END_ACTION)
            d = Decision(me, "action", tuple(opts), "play a cube or end the Action phase")
            if row is not None:
                row[held] = d
            elif memo is not None:
                if len(memo) >= 4096:  # many patterns: start over rather than grow
                    memo.clear()
                memo[held] = d
        if g.tables.play_if:  # cards with a play condition (`play_if`): offered only when it holds
            return without_unplayable(g, me, d)
        return d

    def choose(self, g: Game, key: str) -> None:
        me = self.player
        k = g.play_kind.get(key)  # a play first: the common case
        if k is None:
            if key == "end":
                g.stack.pop()
            elif key == "ability":
                use_hook(g, me, "action")
            return
        race = g.race
        zones = race.players[me].zones
        # (not `-=` and `+=` on the items: compiled, those are generic operations on objects)
        active, used = zones[ACTIVE], zones[USED]
        active[k] = active[k] - 1
        used[k] = used[k] + 1
        kind = g.rules.kinds[k]
        if g.record:
            g.emit("play", p=me, kind=kind.id)
        plays_of: list[list[int]] = race.stats["plays"]  # (typed: compiled, the row is read natively)
        plays = plays_of[me]
        plays[k] = plays[k] + 1
        if kind.effect:  # `run_effects`, written out: this runs for every cube played
            push_effects(g, kind.effect, Ctx(me, k, kind.card))


class BuyPhase(Frame):
    """Money = value of the active pile; buy into the used pile (RULES §3.2)."""

    __slots__ = ("player",)

    def __init__(self, player: int) -> None:
        self.player = player

    def blank(self) -> Frame:
        return BuyPhase(self.player)

    def clone(self, memo: dict[int, Any]) -> Frame:
        if type(self) is not BuyPhase:  # (as RaceFrame.clone)
            return super().clone(memo)
        return BuyPhase(self.player)

    def run(self, g: Game) -> Decision | None:
        me = self.player
        money = g.money(me)
        race = g.race
        t = race.turn
        if t is not None:
            t.stage = "buy"  # the phase starts at its first run (it waited under the Action phase)
        ability = race.players[me].driver is not None and driver_hook(g, me, "buy") is not None
        key: tuple[Any, ...] | None = None
        memo: dict[int, Decision] | None = None
        ikey = 0
        if t is not None and (t.prices is not None or t.buy_limit is not None):
            opts = modified_buy_options(g, t, money)
        else:
            # the decision depends on the money, the ability and which kinds are sold out only:
            # made once per key (as ActionPhase's), kept by player and ability, then by an int
            # key of the sold-out kinds (one bit each) and the money: no tuple made and hashed
            stock = race.stock
            if 0 <= money < 65_536:  # (always, in practice)
                out = 0
                bit = 1
                for n in stock:  # (a loop: native code when compiled)
                    if not n:
                        out |= bit
                    bit <<= 1
                memo = _kept(g.tables.buys, me, ability)
                ikey = (out << 16) | money
                d = memo.get(ikey)
            else:
                key = ("buy", me, money, ability, (*map(bool, stock),))
                d = g.decisions.get(key)
            if d is not None:
                return d
            opts = g.buy_options(money)
        if ability:
            opts.append(ABILITY)
        opts.append(END_BUY)
        d = Decision(me, "buy", tuple(opts), f"buy cubes: ${money} to spend")
        if memo is not None:
            if len(memo) >= 4096:  # many keys: start over rather than grow
                memo.clear()
            memo[ikey] = d
        elif key is not None:
            keep_decision(g, key, d)
        return d

    def choose(self, g: Game, key: str) -> None:
        me = self.player
        if key == "end":
            g.stack.pop()
            return
        if key == "ability":
            use_hook(g, me, "buy")
            return
        k = g.buy_kind[key]
        t = g.race.turn
        assert t is not None
        t.spent += g.rules.kinds[k].cost if t.prices is None else buy_price(g, t, k)
        t.bought += 1
        g.gain(me, k, 1, "buy")


@swappable
def buy_price(g: Game, t: TurnState, k: int) -> int:
    """This turn's Buy-phase price of kind k: its cost changed by `modify_turn.prices`, never
    below 0."""
    cost = g.rules.kinds[k].cost
    if t.prices is None:
        return cost
    price = max(0, cost + t.prices.get(k, 0))
    floors = t.extra.get("floors") if t.extra is not None else None
    if floors and k in floors:  # a price floor stops reductions, it never raises a price
        price = max(price, min(cost, floors[k]))
    return price


def without_unplayable(g: Game, me: int, d: Decision) -> Decision:
    """The Action decision without the plays whose card's `play_if` does not hold now."""
    conds = g.tables.play_if
    kind_of = g.play_kind
    keep = []
    for o in d.options:
        k = kind_of.get(o.key)
        if k is None or k not in conds or playable_now(g, me, k, conds[k]):
            keep.append(o)
    return d if len(keep) == len(d.options) else Decision(me, d.kind, tuple(keep), d.text)


def modified_buy_options(g: Game, t: TurnState, money: int) -> list[Any]:
    """Buy options under this turn's price changes and purchase limit (docs/effects.md)."""
    if t.buy_limit is not None and t.bought >= t.buy_limit:
        return []
    stock = g.race.stock
    out = []
    for k, _cost in g.rules.for_sale:
        price = buy_price(g, t, k)
        if stock[k] > 0 and price <= money:
            o = g.buy_option[k]
            out.append(o if price == g.rules.kinds[k].cost else
                       opt(o.key, f"buy {g.rules.kinds[k].name} for ${price}"))
    return out


def run_effects(g: Game, effects: Any, ctx: Ctx) -> None:
    """Run an effect list next: its only effect starts now (what its EffectList would do first)."""
    if effects:
        push_effects(g, effects, ctx)
