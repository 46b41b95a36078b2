// A few lines that speak Slipstream's bot protocol (docs/bots.md) over stdin and stdout.
//
// run(name, choose) answers `hello` with `ready`, every `act` with {"choose": INDEX} (the index
// choose(state, act) returns) and stops at `end` or when its input closes. `state.hello` is the
// hello message and `state.random()` a generator seeded by the seat's seed. Node only, no packages.
"use strict";
const readline = require("readline");

function seeded(seed) {
  // mulberry32 over the low 32 bits of the seed
  let a = Number(BigInt.asUintN(32, BigInt(Math.trunc(seed)))) >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function run(name, choose) {
  const state = {};
  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  rl.on("line", (line) => {
    const msg = JSON.parse(line);
    let reply = null;
    if (msg.t === "act") reply = { choose: choose(state, msg) };
    else if (msg.t === "hello") {
      state.hello = msg;
      state.random = seeded(msg.seed || 0);
      reply = { t: "ready", name: name };
    } else if (msg.t === "end") { rl.close(); return; }
    if (reply !== null) process.stdout.write(JSON.stringify(reply) + "\n");
  });
}

// The first whole number in a text ("gear 4" -> 4), or `dflt`.
function number(text, dflt = 0) {
  const m = /\d+/.exec(text);
  return m ? parseInt(m[0], 10) : dflt;
}

// The index of the option with the highest score (the first of equals).
function best(options, score) {
  let top = 0;
  for (let i = 1; i < options.length; i++) if (score(options[i]) > score(options[top])) top = i;
  return top;
}

function indexOf(options, key, dflt = 0) {
  const i = options.findIndex((o) => o.key === key);
  return i >= 0 ? i : dflt;
}

module.exports = { run, number, best, indexOf };
