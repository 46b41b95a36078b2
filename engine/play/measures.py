"""Game measures of many races for every ruleset, and the comparison of two batches.

Every finished race gives a list of `Measure`s: the shared ones (`shared_measures`: win rate by
grid slot and by seat, race length, completion, lead changes, last-round overtakes) and the
ruleset's own (`BatchStats.measures`: Formula Dé's finish rate, speed-hazard's hazard cards by
curve, Automobiles' wear...). A measure is either a **rate** (`value` successes out of `n`
trials, e.g. cars that finished out of cars) or a **mean** (one number per race, e.g. pit stops;
a race that does not report it counts 0).

`aggregate` turns a batch's measures into figures with 95% intervals (Wilson for rates, the
normal approximation for means); `compare` tests every measure of two batches raced on the same
seeds (two-proportion z-test for rates, Welch's t-test for means) and marks the changes that
stay clear after Holm's step-down correction over all measures compared (family-wise error
rate `alpha`). The tests treat the races of a batch as independent samples, and the cars of a
race as independent trials of a rate, which is an approximation (cars of one race share its
dice), so a change at the edge of clear deserves more races.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from slipstream.engine.play.stats import wilson

RATE = "rate"
MEAN = "mean"


@dataclass(frozen=True, slots=True)
class Measure:
    """One race's figure: `name` (stable, dotted: `win.slot1`, `eliminations.overshoot`),
    a label for people, `kind` RATE (`value` successes of `n` trials) or MEAN (`value`)."""

    name: str
    label: str
    kind: str
    value: float
    n: float = 1.0
    unit: str = ""


def orders_measures(orders: Sequence[Sequence[int]]) -> list[Measure]:
    """Lead changes and last-round overtakes from the race order at the end of every round
    (`orders`, the final standings last; see `races.play_out`)."""
    if len(orders) < 2:
        return []
    changes = sum(1 for a, b in zip(orders, orders[1:], strict=False) if a and b and a[0] != b[0])
    before, after = orders[-2], orders[-1]
    place = {p: i for i, p in enumerate(after)}
    passes = sum(1 for i, a in enumerate(before) for b in before[i + 1:]
                 if a in place and b in place and place[b] < place[a])
    return [Measure("lead_changes", "lead changes per race", MEAN, changes, unit="changes"),
            Measure("last_round_overtakes", "overtakes in the last round", MEAN, passes, unit="passes"),
            Measure("last_round_win", "races won by a car that was not leading a round before the end",
                    RATE, float(before[0] != after[0]) if before and after else 0.0)]


def shared_measures(result: Any) -> list[Measure]:
    """The measures every ruleset's race gives (its result's grid, bots, standings, rounds,
    capped and, when recorded, `orders`)."""
    winner = result.standings[0] if result.standings else -1
    out = [Measure("rounds", "race length", MEAN, float(result.rounds), unit="rounds"),
           Measure("completion", "races ended by the finish (not the round cap)", RATE,
                   0.0 if result.capped else 1.0)]
    tied = (getattr(result, "result", None) or {}).get("tied")
    if tied is not None:
        out.append(Measure("ties", "races with a tie for the win", RATE, float(bool(tied))))
    for slot, p in enumerate(result.grid):
        out.append(Measure(f"win.slot{slot + 1}", f"win rate, grid slot {slot + 1}", RATE, float(p == winner)))
    for p, bot in enumerate(result.bots):
        out.append(Measure(f"win.seat{p + 1}", f"win rate, seat {p + 1} ({bot})", RATE, float(p == winner)))
    out += orders_measures(getattr(result, "orders", None) or [])
    return out


@dataclass(slots=True)
class Figure:
    """A measure over a batch: its sums, then `as_dict` gives the estimate and 95% interval."""

    name: str
    label: str
    kind: str
    unit: str
    total: float = 0.0  # rate: successes; mean: sum of the values
    trials: float = 0.0  # rate: trials; mean: unused
    squares: float = 0.0  # mean: sum of the squared values
    least: float = 0.0  # mean: the smallest value (0 counts for the races that lack it)

    def estimate(self, races: int) -> tuple[float, float, float, float]:
        """(estimate, low, high, sample size) for a batch of `races`."""
        if self.kind == RATE:
            n = int(round(self.trials))
            p, lo, hi = wilson(int(round(self.total)), n)
            return p, lo, hi, n
        if races == 0:
            return 0.0, 0.0, 0.0, 0
        m = self.total / races
        var = max(0.0, (self.squares - races * m * m) / (races - 1)) if races > 1 else 0.0
        half = 1.96 * math.sqrt(var / races)
        # the normal interval, kept within what the values can be (counts are never negative)
        return m, max(m - half, min(self.least, 0.0)), m + half, races

    def variance(self, races: int) -> float:
        m = self.total / races if races else 0.0
        return max(0.0, (self.squares - races * m * m) / (races - 1)) if races > 1 else 0.0

    def as_dict(self, races: int) -> dict[str, Any]:
        est, lo, hi, n = self.estimate(races)
        out = {"name": self.name, "label": self.label, "kind": self.kind, "unit": self.unit,
               "value": round(est, 4), "low": round(lo, 4), "high": round(hi, 4), "n": n}
        if self.kind == RATE:
            out["successes"] = int(round(self.total))
        return out


def aggregate(per_race: Iterable[Sequence[Measure]]) -> tuple[int, dict[str, Figure]]:
    """(races, figures by name) of a batch given each race's measures."""
    figures: dict[str, Figure] = {}
    races = 0
    for ms in per_race:
        races += 1
        for m in ms:
            f = figures.get(m.name)
            if f is None:
                f = figures[m.name] = Figure(m.name, m.label, m.kind, m.unit)
            f.total += m.value
            if m.kind == RATE:
                f.trials += m.n
            else:
                f.squares += m.value * m.value
                f.least = min(f.least, m.value)
    return races, figures


def batch_measures(races: int, figures: dict[str, Figure]) -> list[dict[str, Any]]:
    """The figures of a batch as JSON-able rows (estimate with 95% interval), in name order
    with the shared measures first."""
    return [figures[k].as_dict(races) for k in sorted(figures, key=_order)]


def batch_of(stats: Any, results: Sequence[Any]) -> list[dict[str, Any]]:
    """Every measure of a batch of races (shared and the ruleset's `stats.measures`), as rows
    with a 95% interval."""
    return batch_measures(*aggregate([*shared_measures(r), *stats.measures(r)] for r in results))


def format_measures(rows: Sequence[dict[str, Any]]) -> str:
    """Measure rows as text: name, estimate and 95% interval, label."""
    def show(kind: str, v: float) -> str:
        return f"{100 * v:.1f}%" if kind == RATE else f"{v:.3g}"

    width = max([len(r["name"]) for r in rows] + [7])
    lines = ["measures (95% interval):"]
    lines += [f"  {r['name']:<{width}}  {show(r['kind'], r['value']):>7}  [{show(r['kind'], r['low'])}, "
              f"{show(r['kind'], r['high'])}]  {r['label']}" for r in rows]
    return "\n".join(lines)


def _order(name: str) -> tuple[int, str]:
    shared = ("rounds", "completion", "ties", "lead_changes", "last_round_overtakes", "last_round_win")
    if name in shared:
        return 0, f"{shared.index(name):02d}"
    if name.startswith("win."):
        head, _, tail = name.partition(".")
        digits = "".join(ch for ch in tail if ch.isdigit()) or "0"
        return 1, f"{tail.rstrip('0123456789')}{int(digits):04d}"
    return 2, name


# --- tests -------------------------------------------------------------------------------------


def normal_sf(z: float) -> float:
    """P(Z > z) of a standard normal variable."""
    return 0.5 * math.erfc(z / math.sqrt(2))


def _betacf(a: float, b: float, x: float) -> float:
    """The continued fraction of the regularised incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c if abs(1.0 + aa / c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c if abs(1.0 + aa / c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-12:
            break
    return h


def _ibeta(a: float, b: float, x: float) -> float:
    """The regularised incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def t_two_sided(t: float, df: float) -> float:
    """Two-sided p-value of Student's t statistic `t` with `df` degrees of freedom."""
    if df <= 0 or math.isnan(t):
        return 1.0
    return _ibeta(df / 2.0, 0.5, df / (df + t * t))


def two_proportions(x1: float, n1: float, x2: float, n2: float) -> float:
    """Two-sided p-value of the pooled two-proportion z-test (1.0 when it cannot tell)."""
    if n1 <= 0 or n2 <= 0:
        return 1.0
    p = (x1 + x2) / (n1 + n2)
    se = math.sqrt(p * (1 - p) * (1 / n1 + 1 / n2))
    if se == 0:
        return 1.0
    return 2 * normal_sf(abs(x1 / n1 - x2 / n2) / se)


def welch(m1: float, v1: float, n1: int, m2: float, v2: float, n2: int) -> float:
    """Two-sided p-value of Welch's t-test of two means (1.0 when it cannot tell)."""
    if n1 < 2 or n2 < 2:
        return 1.0
    a, b = v1 / n1, v2 / n2
    se2 = a + b
    if se2 == 0:
        return 1.0 if m1 == m2 else 0.0
    df = se2 * se2 / (a * a / (n1 - 1) + b * b / (n2 - 1))
    return t_two_sided((m1 - m2) / math.sqrt(se2), df)


def holm(pvalues: Sequence[float], alpha: float = 0.05) -> tuple[list[float], list[bool]]:
    """Holm's step-down correction: adjusted p-values and which hypotheses are rejected at
    family-wise error rate `alpha`."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    adjusted = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        adjusted[i] = running
    return adjusted, [adjusted[i] <= alpha for i in range(m)]


def compare(a: tuple[int, dict[str, Figure]], b: tuple[int, dict[str, Figure]],
            alpha: float = 0.05) -> list[dict[str, Any]]:
    """Every measure of batch A beside batch B: both estimates with 95% intervals, the change,
    the test's p-value, Holm's adjusted p-value and whether the change is clear."""
    races_a, fa = a
    races_b, fb = b
    names = sorted(set(fa) | set(fb), key=_order)
    rows: list[dict[str, Any]] = []
    pvals: list[float] = []
    for name in names:
        one = fa.get(name) or _empty_like(fb[name])
        two = fb.get(name) or _empty_like(fa[name])
        if one.kind == RATE:
            if not one.trials or not two.trials:  # a rate that one side never measured: not tested
                p = 1.0
            else:
                p = two_proportions(one.total, one.trials, two.total, two.trials)
            test = "two-proportion z"
        else:
            ea, eb = one.estimate(races_a)[0], two.estimate(races_b)[0]
            p = welch(ea, one.variance(races_a), races_a, eb, two.variance(races_b), races_b)
            test = "Welch t"
        da, db = one.as_dict(races_a), two.as_dict(races_b)
        rows.append({"name": name, "label": one.label, "kind": one.kind, "unit": one.unit, "test": test,
                     "a": _strip(da), "b": _strip(db), "change": round(db["value"] - da["value"], 4),
                     "p": p})
        pvals.append(p)
    adjusted, clear = holm(pvals, alpha)
    for row, adj, c in zip(rows, adjusted, clear, strict=True):
        row["p"] = round(row["p"], 6)
        row["p_holm"] = round(adj, 6)
        row["clear"] = c
    return rows


def _empty_like(f: Figure) -> Figure:
    return Figure(f.name, f.label, f.kind, f.unit)


def _strip(d: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in d.items() if k not in ("name", "label", "kind", "unit")}


def matches(name: str, pattern: str) -> bool:
    """Whether measure `name` is what `pattern` names: the name itself, or a dotted prefix
    (`eliminations` names `eliminations.overshoot`, `win` every win rate)."""
    return name == pattern or name.startswith(pattern + ".")


_CORNERS: dict[tuple[str, str], list[str]] = {}


def corner_names(result: Any) -> list[str]:
    """The corner names of the race's track, in order ([] when the track cannot be read);
    kept per pack and track, so a batch reads them once a process."""
    spec = getattr(result, "spec", None)
    key = (str(getattr(spec, "pack", "")), str(getattr(spec, "track", "")))
    if key not in _CORNERS:
        names: list[str] = []
        try:
            from slipstream.engine.play.registry import load_pack

            track = load_pack(key[0]).tracks.get(key[1])
            names = [str(c.name) for c in track.corners] if track is not None else []
        except (ValueError, RuntimeError, OSError, AttributeError):
            names = []
        _CORNERS[key] = names
    return _CORNERS[key]


def corner_label(names: Sequence[str], key: str) -> str:
    """A corner key of a race's stats (its index as text, or a word such as `pit`) by name."""
    if key.isdigit():
        i = int(key)
        return names[i] if i < len(names) and names[i] else f"corner {i + 1}"
    return key
