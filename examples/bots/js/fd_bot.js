#!/usr/bin/env node
// A greedy-ish Formula De bot: the highest gear whose longest roll still stops inside the next
// corner (the track comes with the hello), the stop that goes farthest without braking, and no
// pit stop. The same logic as examples/bots/python/fd_bot.py.
"use strict";
const { run, number, best, indexOf } = require("./botlib.js");

// the longest roll of each gear's die (the example's own table: the bundled pack's dice)
const LONGEST = { 1: 2, 2: 4, 3: 8, 4: 12, 5: 20, 6: 30 };
const mod = (a, n) => ((a % n) + n) % n;

// Squares from `segment` to the last square of the corner it is in, else of the next one.
function room(track, segment) {
  const n = track.segments;
  let out = n;
  for (const c of track.corners || []) {
    if (mod(segment - c.first, n) <= mod(c.last - c.first, n)) return mod(c.last - segment, n);
    out = Math.min(out, mod(c.last - segment, n));
  }
  return out;
}

// Squares a move drives: its structured value, else read from its label.
function squares(option) {
  if (option.value) return option.value.squares;
  const m = /\((\d+) squares?\)/.exec(option.label);
  return m ? parseInt(m[1], 10) : 0;
}

const brakes = (option) => (option.value ? option.value.brake > 0 : option.label.includes("brake"));

run("js fd greedy-ish", (state, act) => {
  const opts = act.options;
  if (act.kind === "gear") {
    const car = (act.cars || []).find((c) => c.seat === act.seat);
    const limit = car ? room(state.hello.track, car.cell[1]) : 8;
    const gears = opts.map((o, i) => ({ gear: number(o.key), costs: o.label.includes("costs"), i }));
    const safe = gears.filter((g) => (LONGEST[g.gear] || 99) <= Math.max(limit, 2));
    if (safe.length === 0) return gears.reduce((a, b) => (b.gear < a.gear ? b : a)).i;
    // the highest safe gear, one that costs no wear if there is one (the first of equals)
    let pick = safe[0];
    for (const g of safe) {
      if ((!g.costs && pick.costs) || (g.costs === pick.costs && g.gear > pick.gear)) pick = g;
    }
    return pick.i;
  }
  if (act.kind === "move") return best(opts, (o) => squares(o) - 3 * brakes(o));
  if (act.kind === "pit") return indexOf(opts, "stay out");
  return 0;
});
