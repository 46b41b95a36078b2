#!/usr/bin/env node
// The example bots behind an HTTP address (docs/bots.md, `--bots http://HOST:PORT`).
//
//     http_bot.js [--host HOST] [--port PORT] [--random]
//
// Serves POST /start (hello: answers ready), /move (act: answers {"choose": INDEX}) and /end,
// one game per `game` id of the messages, several at a time. Each game plays the greedy-ish
// example bot of its ruleset (fd_bot, sh_bot, automobiles_bot; random_bot for another
// ruleset), or random_bot with --random. Prints `listening on http://HOST:PORT` when ready
// (port 0: any free port). Node only, no packages.
"use strict";
const http = require("http");
const { seeded } = require("./botlib.js");
const bots = {
  "formula-de": require("./fd_bot.js"),
  "speed-hazard": require("./sh_bot.js"),
  automobiles: require("./automobiles_bot.js"),
};
const randomBot = require("./random_bot.js");

const args = process.argv.slice(2);
const arg = (flag, dflt) => (args.includes(flag) ? args[args.indexOf(flag) + 1] : dflt);
const host = arg("--host", "127.0.0.1");
const port = Number(arg("--port", "8765"));
const onlyRandom = args.includes("--random");
const games = new Map(); // game id -> { state, bot }

function answer(msg, path) {
  const game = msg.game || "";
  if (path.endsWith("/start")) {
    const bot = onlyRandom ? randomBot : bots[msg.ruleset] || randomBot;
    games.set(game, { state: { hello: msg, random: seeded(msg.seed || 0) }, bot });
    return { t: "ready", name: bot.name.replace(/^js /, "js http ") };
  }
  if (path.endsWith("/move")) {
    const g = games.get(game);
    return g ? { choose: g.bot.choose(g.state, msg) } : { choose: 0 };
  }
  if (path.endsWith("/end")) games.delete(game);
  return {};
}

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    let status = 200;
    let reply = {};
    try {
      reply = answer(JSON.parse(Buffer.concat(chunks).toString("utf8")), req.url || "");
    } catch (e) {
      status = 400;
      reply = { error: String(e) };
    }
    const body = JSON.stringify(reply);
    res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) });
    res.end(body);
  });
});
server.keepAliveTimeout = 60000;
server.listen(port, host, () => {
  console.log(`listening on http://${host}:${server.address().port}`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
