#!/usr/bin/env node
// A sample Battle³ bot for botarena (and for the original leomelin/battlecube
// server): a plain node http server, no dependencies.
//
//   node bot.js [PORT]      (PORT 0 or none: any free port)
//
// It prints "listening on PORT" once it listens. For every POSTed request
// ({currentPlayer, gameInfo, players, items}) it answers with
// gameInfo.numOfTasksPerTick tasks:
//   - the first task moves away (to the free neighbour cell farthest from
//     every bomb and every other bot) when a bomb or a bot is close, and
//     otherwise bombs the nearest opponent's cell;
//   - the other tasks bomb the nearest opponent's cell and then the cells
//     around it, never the bot's own cell.
// It is deterministic: the same request gives the same reply.
'use strict';
const http = require('http');

const AXES = [['+X', 0, 1], ['-X', 0, -1], ['+Y', 1, 1], ['-Y', 1, -1], ['+Z', 2, 1], ['-Z', 2, -1]];

const key = (c) => c.join(',');
const manhattan = (a, b) => Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) + Math.abs(a[2] - b[2]);
const sq = (a, b) => (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 + (a[2] - b[2]) ** 2;

function plan(req) {
  const { currentPlayer, gameInfo, players = [], items = [] } = req;
  const edge = gameInfo.edgeLength;
  const n = gameInfo.numOfTasksPerTick;
  const self = players.find((p) => p.name === currentPlayer.name);
  if (!self) return Array.from({ length: n }, () => ({ task: 'NOOP' }));
  let me = [self.x, self.y, self.z];
  const others = players.filter((p) => p.name !== self.name).map((p) => [p.x, p.y, p.z]);
  const bombs = items.filter((i) => i.type === 'BOMB').map((i) => [i.x, i.y, i.z]);
  const taken = new Set([...others, ...bombs].map(key));
  const inCube = (c) => c.every((v) => v >= 0 && v < edge);
  others.sort((a, b) => manhattan(me, a) - manhattan(me, b));

  const tasks = [];
  const danger = others.some((o) => manhattan(me, o) <= 2) || bombs.some((b) => manhattan(me, b) <= 1);
  if (danger || others.length === 0) {
    let best = null;
    let bestScore = -1;
    for (const [direction, axis, d] of AXES) {
      const c = me.slice();
      c[axis] += d;
      if (!inCube(c) || taken.has(key(c))) continue;
      const score = [...others, ...bombs].reduce((s, o) => s + sq(c, o), 0);
      if (score > bestScore) {
        best = { direction, c };
        bestScore = score;
      }
    }
    if (best) {
      tasks.push({ task: 'MOVE', direction: best.direction });
      me = best.c;
    }
  }
  // Bomb targets: the nearest opponent's cell, then its neighbours.
  const targets = [];
  if (others.length > 0) {
    const t = others[0];
    targets.push(t);
    for (const [, axis, d] of AXES) {
      const c = t.slice();
      c[axis] += d;
      targets.push(c);
    }
  }
  const placed = new Set(bombs.map(key));
  for (const c of targets) {
    if (tasks.length >= n) break;
    if (!inCube(c) || placed.has(key(c)) || key(c) === key(me)) continue;
    placed.add(key(c));
    tasks.push({ task: 'BOMB', x: c[0], y: c[1], z: c[2] });
  }
  while (tasks.length < n) tasks.push({ task: 'NOOP' });
  return tasks.slice(0, n);
}

const server = http.createServer((req, res) => {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk) => { body += chunk; });
  req.on('end', () => {
    let reply;
    try {
      reply = plan(JSON.parse(body));
    } catch (e) {
      res.writeHead(400, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: String(e) }));
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(reply));
  });
});

server.listen(Number(process.argv[2] || 0), '127.0.0.1', () => {
  console.log(`listening on ${server.address().port}`);
});
