#!/usr/bin/env node
// A greedy-ish Automobiles bot: buys the highest gear it can, plays its highest gear first,
// takes standard turns, and otherwise the first option the ruleset lists.
"use strict";
const { run, number, best, indexOf } = require("./botlib.js");

const gear = (key, verb) => (key.startsWith(verb + " gear-") ? number(key, 0) : 0);

run("js automobiles greedy-ish", (state, act) => {
  const opts = act.options;
  if (act.kind === "purchase" || act.kind === "buy") {
    const i = best(opts, (o) => gear(o.key, "buy"));
    if (gear(opts[i].key, "buy")) return i;
    const end = opts.findIndex((o) => o.key === "end" || o.key === "done");
    return end >= 0 ? end : 0;
  }
  if (act.kind === "action") {
    const i = best(opts, (o) => gear(o.key, "play"));
    return gear(opts[i].key, "play") ? i : indexOf(opts, "end");
  }
  if (act.kind === "turn") return indexOf(opts, "standard");
  if (act.kind === "move") {
    const i = opts.findIndex((o) => o.key !== "stop");
    return i >= 0 ? i : 0;
  }
  return 0;
});
