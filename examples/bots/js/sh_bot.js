#!/usr/bin/env node
// A greedy-ish Speed Hazard bot: accelerate as much as allowed, keep what luck gives, brake as
// little as it may, and step where the ruleset lists first.
"use strict";
const { run, number, best, indexOf } = require("./botlib.js");

run("js sh greedy-ish", (state, act) => {
  const opts = act.options;
  if (act.kind === "accelerate") return best(opts, (o) => (o.key.startsWith("accelerate") ? number(o.key, -1) : -1));
  if (act.kind === "brake") return best(opts, (o) => -number(o.key, 999));
  if (act.kind === "luck") return indexOf(opts, "keep");
  return 0;
});
