#!/usr/bin/env node
// A greedy-ish Speed Hazard bot: accelerate as much as allowed, keep what luck gives, brake as
// little as it may, and step where the ruleset lists first. It reads the options' values
// (`accelerate`, `brake`, `keep`: docs/bots.md), not their keys.
"use strict";
const { run, best } = require("./botlib.js");

const choose = (state, act) => {
  const values = act.options.map((o) => o.value || {});
  // nitrous (no `accelerate` value) only when nothing else is offered
  if (act.kind === "accelerate") return best(values, (v) => ("accelerate" in v ? v.accelerate : -1));
  if (act.kind === "brake") return best(values, (v) => -("brake" in v ? v.brake : 999));
  if (act.kind === "luck") return Math.max(0, values.findIndex((v) => v.keep));
  return 0;
};

// run over stdin/stdout when started as a program; http_bot.js serves the same `choose`
if (require.main === module) run("js sh greedy-ish", choose);
module.exports = { name: "js sh greedy-ish", choose };
