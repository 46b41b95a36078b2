#!/usr/bin/env node
// A greedy-ish Automobiles bot: buys the highest gear it can, plays its highest gear first,
// takes standard turns, and otherwise the first option the ruleset lists. It reads the
// options' values (`buy`, `play`, `gear`, `pit`, `end`: docs/bots.md), not their keys.
"use strict";
const { run, best } = require("./botlib.js");

// the gear of a cube the option buys or plays (`verb`), else 0
const gear = (value, verb) => (verb in value ? value.gear || 0 : 0);

const choose = (state, act) => {
  const values = act.options.map((o) => o.value || {});
  const end = Math.max(0, values.findIndex((v) => v.end));
  if (act.kind === "purchase" || act.kind === "buy" || act.kind === "action") {
    const verb = act.kind === "action" ? "play" : "buy";
    const i = best(values, (v) => gear(v, verb));
    return gear(values[i], verb) ? i : end;
  }
  if (act.kind === "turn") return Math.max(0, values.findIndex((v) => v.pit === false));
  if (act.kind === "move") return Math.max(0, values.findIndex((v) => !v.end));
  return 0;
};

// run over stdin/stdout when started as a program; http_bot.js serves the same `choose`
if (require.main === module) run("js automobiles greedy-ish", choose);
module.exports = { name: "js automobiles greedy-ish", choose };
