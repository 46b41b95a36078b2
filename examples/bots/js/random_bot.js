#!/usr/bin/env node
// A bot for any ruleset: a random legal option at every decision (seeded by the seat).
"use strict";
const { run } = require("./botlib.js");

const choose = (state, act) => Math.floor(state.random() * act.options.length);

// run over stdin/stdout when started as a program; http_bot.js serves the same `choose`
if (require.main === module) run("js random", choose);
module.exports = { name: "js random", choose };
