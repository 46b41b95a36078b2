#!/usr/bin/env node
// A bot for any ruleset: a random legal option at every decision (seeded by the seat).
"use strict";
const { run } = require("./botlib.js");

run("js random", (state, act) => Math.floor(state.random() * act.options.length));
