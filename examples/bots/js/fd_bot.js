#!/usr/bin/env node
// A greedy-ish Formula De bot: a high gear (a lower one with worn tyres or in a corner), the
// stop that goes farthest without braking, and no pit stop.
"use strict";
const { run, number, best, indexOf } = require("./botlib.js");

function squares(label) {
  const m = /\((\d+) squares?\)/.exec(label);
  return m ? parseInt(m[1], 10) : 0;
}

run("js fd greedy-ish", (state, act) => {
  const opts = act.options, view = act.view;
  if (act.kind === "gear") {
    const cornering = (view["stops in this corner"] || "-") !== "-";
    const cap = cornering || number(view.tyres || "9", 9) <= 1 ? 4 : 6;
    let pick = -1;
    opts.forEach((o, i) => {
      const g = number(o.key);
      if (g <= cap && (pick < 0 || g > number(opts[pick].key))) pick = i;
    });
    return pick < 0 ? 0 : pick;
  }
  if (act.kind === "move") {
    return best(opts, (o) => squares(o.label) - 3 * o.label.includes("brake")
      - 10 * o.label.includes("tyre") - 100 * o.label.includes("out"));
  }
  if (act.kind === "pit") return indexOf(opts, "stay out");
  return 0;
});
