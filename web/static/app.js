// botarena viewer: plain JavaScript, no build step. It lists the games,
// starts live matches between built-in agents, opens replays (recordings,
// replay folders, league match data) and shows league tables. A live match
// or a replay sends its rounds as server-sent events; each round's
// canonical native state is drawn on a canvas.
"use strict";

// The palette of env/picture.go, so that the viewer looks like the Go pictures.
const C = {
  floor: "#20242b", grid: "#2c313a", wall: "#9aa0a8", soft: "#8b5e3c", danger: "#5a2a2a",
  fire: "#ff9f1c", bomb: "#101010", power: "#4cc9f0", coin: "#ffd166", hidden: "#14161a",
  text: "#f0f0f0", dead: "#555555",
};
// env.SeatColor.
const SEAT = ["#e63946", "#457bff", "#2a9d8f", "#e9c46a", "#b565d8", "#f4a261",
  "#8ac926", "#ff70a6", "#00b4d8", "#c0c0c0", "#9c6644", "#6a4c93"];
const seatColor = (s) => (s < 0 ? C.text : SEAT[s % SEAT.length]);

const KEEP = 200; // rounds kept in the page
const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);

const app = {
  catalog: null,
  match: null,      // {id, game, seats, rounds?} of the live match or replay shown
  frames: [],       // frames by round
  cur: -1,          // the round shown
  playing: false,
  source: null,     // the EventSource of the stream
  seat: -1,         // the seat whose view is shown beside the full board
  views: new Map(), // "round/seat" -> view, fetched while paused
  cube: { yaw: -0.6, pitch: 0.5, slice: -1 },
  league: null,     // the league page shown
  leagueTimer: null,
};

function status(msg, error) {
  const el = $("status");
  el.textContent = el.title = msg;
  el.className = error ? "error" : "";
}

async function api(path, init) {
  const resp = await fetch(path, init);
  const body = await resp.json().catch(() => ({}));
  if (!resp.ok) throw new Error(body.error || resp.status + " " + resp.statusText);
  return body;
}

function post(path, body) {
  return api(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
}

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

function row(tbody, cells) {
  const tr = tbody.insertRow();
  for (const c of cells) {
    const td = tr.insertCell();
    if (c instanceof Node) td.appendChild(c); else td.textContent = c ?? "";
  }
  return tr;
}

function button(text, onclick) {
  const b = el("button", text);
  b.type = "button";
  b.addEventListener("click", onclick);
  return b;
}

// ---- tabs ----

function tab(name) {
  for (const t of ["watch", "replays", "leagues"]) {
    $(t).hidden = t !== name;
    document.querySelector(`nav [data-tab=${t}]`).classList.toggle("current", t === name);
  }
  if (name !== "leagues" && app.leagueTimer) { clearInterval(app.leagueTimer); app.leagueTimer = null; }
}

// ---- the games list and the start form ----

async function loadCatalog() {
  app.catalog = await api("/api/catalog");
  const tbody = $("gamelist").querySelector("tbody");
  const sel = $("game");
  for (const g of app.catalog.games) {
    row(tbody, [g.name, g.seats, g.formats.join(", "), (g.agents || []).join(", ")]);
    const o = document.createElement("option");
    o.value = o.textContent = g.name;
    sel.appendChild(o);
  }
  const l = app.catalog.limits;
  $("limits").textContent = `At most ${l.max_matches} live matches and ${l.max_replays} open replays at once, each at most ${l.max_rounds} rounds and ${Math.round(l.max_duration_s / 60)} minutes.`;
  if (params.get("game")) sel.value = params.get("game");
  if (params.get("seed")) $("seed").value = params.get("seed");
  seatPickers();
}

function gameInfo(name) {
  return app.catalog && app.catalog.games.find((g) => g.name === name);
}

function seatPickers() {
  const g = gameInfo($("game").value);
  const box = $("seats");
  box.textContent = "";
  if (!g) return;
  for (let s = 0; s < g.seats; s++) {
    const l = document.createElement("label");
    const sw = el("span", undefined, "swatch");
    sw.style.background = seatColor(s);
    const sel = document.createElement("select");
    sel.dataset.seat = s;
    for (const a of g.agents) {
      const o = document.createElement("option");
      o.value = o.textContent = a;
      sel.appendChild(o);
    }
    sel.value = params.get("agent" + s) || params.get("agents") || g.default;
    l.append(sw, "seat " + s + " ", sel);
    box.appendChild(l);
  }
}

async function startMatch(req) {
  stop();
  if (!req) {
    req = {
      game: $("game").value,
      agents: [...$("seats").querySelectorAll("select")].map((s) => s.value),
      seed: Number($("seed").value) || 0,
    };
  }
  try {
    const m = await post("/api/matches", req);
    tab("watch");
    reset({ id: m.id, game: m.game, seats: m.seats });
    status(`match ${m.id}: ${m.game}, ${m.agents.join(" vs ")}, seed ${m.seed}`);
    play();
  } catch (e) {
    status(e.message, true);
  }
}

// reset shows a new live match or replay, m, from its first round.
function reset(m) {
  app.match = m;
  if (m && gameInfo(m.game) && $("game").value !== m.game) { $("game").value = m.game; seatPickers(); }
  app.frames = [];
  app.cur = -1;
  app.views.clear();
  const seat = $("seat");
  seat.length = 1;
  const n = m ? m.seats : 0;
  for (let s = 0; s < n; s++) seat.add(new Option("seat " + s, s));
  app.seat = -1;
  const want = Number(params.get("seat"));
  if (params.has("seat") && want >= 0 && want < n) app.seat = want;
  seat.value = app.seat;
  $("viewfig").hidden = app.seat < 0;
  const rec = $("record");
  rec.hidden = !m;
  if (m) rec.href = `/api/matches/${m.id}/record`;
  const seek = $("seek");
  seek.hidden = !(m && m.rounds >= 0);
  if (m && m.rounds >= 0) { seek.max = m.rounds; seek.value = 0; }
}

// ---- playing: the server streams the rounds, paced by the speed ----

function speed() { return Number($("speed").value) || 10; }

function play() {
  if (app.playing || !app.match) return;
  const last = app.frames[app.cur];
  if (last && last.done) return;
  app.playing = true;
  $("play").textContent = "Pause";
  const q = new URLSearchParams({ from: app.cur + 1, speed: speed() });
  if (app.seat >= 0) q.set("seat", app.seat);
  const es = new EventSource(`/api/matches/${app.match.id}/events?${q}`);
  app.source = es;
  es.onmessage = (ev) => {
    const f = JSON.parse(ev.data);
    app.frames[f.round] = f;
    // Only the recent rounds stay in the page: a 12-player Bomberman
    // state is about 200 KB; the whole match is in its record.
    delete app.frames[f.round - KEEP];
    show(f.round);
    // ?until=ROUND pauses there (for screenshots and links to a moment).
    if (params.has("until") && f.round >= Number(params.get("until"))) stop();
  };
  es.addEventListener("end", (ev) => {
    const d = JSON.parse(ev.data);
    status(`${app.match.replay ? "replay" : "match"} ${app.match.id}: ${d.reason} at round ${d.round}`);
    stop();
  });
  es.addEventListener("failure", (ev) => { status(JSON.parse(ev.data).error, true); stop(); });
  es.onerror = () => { if (app.source === es) { status("the stream broke; press Play to resume", true); stop(); } };
}

function stop() {
  app.playing = false;
  $("play").textContent = "Play";
  if (app.source) { app.source.close(); app.source = null; }
}

// fetchFrame shows round of the shown match or replay, fetched alone.
async function fetchFrame(round) {
  if (!app.match) return;
  try {
    const q = new URLSearchParams({ round });
    if (app.seat >= 0) q.set("seat", app.seat);
    const f = await api(`/api/matches/${app.match.id}/frame?${q}`);
    if (f.view !== undefined) app.views.set(f.round + "/" + f.seat, f.view);
    app.frames[f.round] = f;
    show(f.round);
  } catch (e) {
    status(e.message, true);
  }
}

async function step() {
  stop();
  const next = app.cur + 1;
  if (app.frames[next]) return show(next);
  const last = app.frames[app.cur];
  if (last && last.done) return;
  await fetchFrame(next);
}

function seek() {
  const round = Number($("seek").value);
  const wasPlaying = app.playing;
  stop();
  if (app.frames[round]) show(round);
  else fetchFrame(round).then(() => { if (wasPlaying) play(); });
}

// seatView returns the view of the shown round for the chosen seat, asking
// the server for it when it is not at hand.
function seatView(f) {
  if (app.seat < 0) return undefined;
  if (f.seat === app.seat && f.view !== undefined) return f.view;
  const key = f.round + "/" + app.seat;
  if (app.views.has(key)) return app.views.get(key);
  if (app.views.size > KEEP) app.views.clear();
  if (app.match && !app.playing) {
    app.views.set(key, null);
    api(`/api/matches/${app.match.id}/frame?round=${f.round}&seat=${app.seat}`)
      .then((g) => { app.views.set(key, g.view); if (app.cur === f.round) show(f.round); })
      .catch((e) => status(e.message, true));
  }
  return null;
}

function show(round) {
  const f = app.frames[round];
  if (!f) return;
  app.cur = round;
  const total = app.match && app.match.rounds >= 0 ? ` of ${app.match.rounds}` : "";
  $("round").textContent = `round ${f.round}${total}${f.done ? " (over)" : ""}`;
  if (!$("seek").hidden) $("seek").value = f.round;
  draw($("full"), f, f.state, -1);
  $("viewfig").hidden = app.seat < 0;
  if (app.seat >= 0) {
    const v = seatView(f);
    $("viewcap").textContent = `seat ${app.seat}'s view`;
    if (v) draw($("view"), f, v, app.seat);
  }
  scores(f);
}

function scores(f) {
  const t = $("scores");
  t.textContent = "";
  const head = t.insertRow();
  for (const h of ["#", "seat", "name", "score"]) head.appendChild(el("th", h));
  const r = f.result || {};
  for (const s of r.Standings || []) {
    const sw = el("span", undefined, "swatch");
    sw.style.background = seatColor(s.Seat);
    const seat = el("span");
    seat.append(sw, String(s.Seat));
    const tr = row(t, [s.Rank, seat, s.Name, s.Score]);
    if (!s.Alive) tr.cells[2].className = "dead";
  }
  const tr = t.insertRow();
  const c = tr.insertCell();
  c.colSpan = 4;
  const forfeit = f.forfeit !== undefined ? ` (seat ${f.forfeit} forfeited)` : "";
  c.textContent = f.done ? (r.Draw ? "draw" : r.Winner >= 0 ? `seat ${r.Winner} wins${forfeit}` : "no winner") : "";
  if (!f.done) return;
  // The rounds each external bot lost to its faults, where it lost any.
  for (const x of f.faults || []) {
    const kinds = [["timed_out", "timed out"], ["crashed", "crashed"], ["invalid", "invalid"]]
      .filter(([k]) => x[k] > 0).map(([k, name]) => `${x[k]} ${name}`);
    if (kinds.length === 0) continue;
    const fc = t.insertRow().insertCell();
    fc.colSpan = 4;
    fc.className = "faults";
    fc.textContent = `seat ${x.seat} lost rounds: ${kinds.join(", ")}`;
  }
}

// ---- replays ----

// opened shows a replay the server opened: answer of POST /api/replays.
function opened(r) {
  stop();
  tab("watch");
  reset({ id: r.id, game: r.game, seats: r.seats, rounds: r.rounds, replay: true });
  const how = r.mode === "replayed" ? "replayed from its actions" : "its recorded states (views and results as they hold them)";
  status(`replay ${r.replay.path || ""}: ${r.game}, ${r.rounds} rounds, ${how}${r.note ? "; " + r.note : ""}`, r.warning);
  if (params.get("autoplay")) play(); else fetchFrame(0);
}

async function openReplay(req) {
  try {
    const r = await post("/api/replays", req);
    if (r.games) return pickGame(req.path, r.games);
    opened(r);
  } catch (e) {
    status(e.message, true);
  }
}

// pickGame lists the games of a match data file to open one.
function pickGame(path, games) {
  tab("replays");
  const box = $("mdgames");
  box.hidden = false;
  $("mdpath").textContent = path;
  const tbody = box.querySelector("tbody");
  tbody.textContent = "";
  for (const g of games) {
    row(tbody, [g.index, g.seed, g.steps, g.agents.join(" vs "), button("Open", () => openReplay({ path, index: g.index }))]);
  }
}

async function loadReplays() {
  const tbody = $("replaylist").querySelector("tbody");
  tbody.textContent = "";
  if (!app.catalog.replays) {
    $("replaynote").textContent = "This server has no replays folder (botarena serve --replays-dir DIR). You can still open a recording file.";
    return;
  }
  try {
    const list = await api("/api/replays");
    $("replaynote").textContent = list.replays.length ? (list.truncated ? "The list is cut short." : "") : "No replays in the replays folder yet.";
    for (const r of list.replays) {
      const size = !r.size ? "" : r.size < 1 << 20 ? Math.ceil(r.size / 1024) + " KiB" : (r.size / 1048576).toFixed(1) + " MiB";
      row(tbody, [r.path, r.kind, r.game || "", r.seed ?? "", size, new Date(r.modified).toLocaleString(),
        button("Open", () => openReplay({ path: r.path }))]);
    }
  } catch (e) {
    status(e.message, true);
  }
}

// upload sends a recording file to the server, which opens it.
async function upload(file) {
  stop();
  try {
    const r = await api("/api/replays/upload?name=" + encodeURIComponent(file.name),
      { method: "POST", headers: { "Content-Type": "application/x-ndjson" }, body: file });
    opened(r);
  } catch (e) {
    status(file.name + ": " + e.message, true);
  }
}

// ---- leagues ----

async function loadLeagues() {
  const tbody = $("leaguelist").querySelector("tbody");
  tbody.textContent = "";
  if (!app.catalog.leagues) {
    $("leaguenote").textContent = "This server has no leagues folder (botarena serve --leagues-dir DIR).";
    return;
  }
  try {
    const list = await api("/api/leagues");
    $("leaguenote").textContent = list.leagues.length ? "" : "No leagues in the leagues folder yet (botarena league init DIR/NAME ...).";
    for (const l of list.leagues) {
      row(tbody, [l.name, l.game || "", l.agents, l.games, l.busy ? "running" : l.error || "",
        button("Show", () => showLeague(l.name))]);
    }
  } catch (e) {
    status(e.message, true);
  }
}

async function showLeague(name) {
  tab("leagues");
  try {
    const p = await api("/api/leagues/table?name=" + encodeURIComponent(name));
    app.league = p;
    $("leaguepage").hidden = false;
    $("leaguename").textContent = `${p.name}: ${p.settings.game}, ${p.games} games`;
    $("leaguewhen").textContent = p.live ? `a league run holds it: its table as of ${new Date(p.time).toLocaleTimeString()}` : `read at ${new Date(p.time).toLocaleTimeString()}`;
    const tbody = $("leaguetable").querySelector("tbody");
    tbody.textContent = "";
    for (const r of p.rows) {
      row(tbody, [r.rank, r.agent, Math.round(r.rating), "± " + Math.round(2 * r.rd), Math.round(r.elo), r.games,
        `${r.wins}/${r.draws}/${r.losses}`, (100 * r.win_rate).toFixed(1) + "%", r.tag || ""]);
    }
    ratingsChart($("chart"), p);
    const games = $("recent").querySelector("tbody");
    games.textContent = "";
    for (const g of p.recent || []) {
      const seats = g.seats.map((s) => s.agent).join(" vs ");
      const winner = g.draw ? "draw" : g.winner >= 0 ? g.seats[g.winner].agent : "none";
      row(games, [g.index, g.seed, seats, g.rounds, winner, g.watch ? button("Watch", () => startMatch(g.watch)) : "not built in"]);
    }
    $("recentbox").hidden = !(p.recent && p.recent.length);
    if (!app.leagueTimer) app.leagueTimer = setInterval(() => { if (!$("leagues").hidden && app.league) showLeague(app.league.name); }, 10000);
  } catch (e) {
    status(e.message, true);
  }
}

// ratingsChart draws each agent's Glicko-2 rating with its ±2·RD interval,
// best first, over the initial rating's dashed line, as league run's
// ratings.png does.
function ratingsChart(canvas, p) {
  const ctx = canvas.getContext("2d");
  const W = canvas.width, H = canvas.height;
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.fillStyle = C.floor;
  ctx.fillRect(0, 0, W, H);
  const rows = p.rows;
  if (!rows.length) return label(ctx, "no agents yet", 20, 20, C.text, 13);
  let lo = p.initial_rating, hi = p.initial_rating;
  for (const r of rows) { lo = Math.min(lo, r.rating - 2 * r.rd); hi = Math.max(hi, r.rating + 2 * r.rd); }
  const pad = (hi - lo) * 0.08 + 1;
  lo -= pad; hi += pad;
  const left = 56, right = W - 12, top = 28, bottom = H - 48;
  const y = (v) => bottom - ((v - lo) / (hi - lo)) * (bottom - top);
  const x = (i) => left + ((i + 0.5) * (right - left)) / rows.length;
  label(ctx, "Glicko-2 rating ± 2·RD", left, 12, C.text, 13);
  ctx.font = "11px sans-serif";
  for (let k = 0; k <= 5; k++) {
    const v = lo + ((hi - lo) * k) / 5;
    ctx.strokeStyle = C.grid;
    ctx.lineWidth = 1;
    ctx.beginPath(); ctx.moveTo(left, y(v)); ctx.lineTo(right, y(v)); ctx.stroke();
    label(ctx, String(Math.round(v)), left - 6, y(v), C.wall, 11, "right");
  }
  ctx.strokeStyle = C.wall;
  ctx.setLineDash([6, 5]);
  ctx.beginPath(); ctx.moveTo(left, y(p.initial_rating)); ctx.lineTo(right, y(p.initial_rating)); ctx.stroke();
  ctx.setLineDash([]);
  rows.forEach((r, i) => {
    const cx = x(i), color = seatColor(i);
    ctx.strokeStyle = color;
    ctx.lineWidth = 3;
    ctx.beginPath();
    ctx.moveTo(cx, y(r.rating - 2 * r.rd)); ctx.lineTo(cx, y(r.rating + 2 * r.rd));
    for (const v of [r.rating - 2 * r.rd, r.rating + 2 * r.rd]) { ctx.moveTo(cx - 10, y(v)); ctx.lineTo(cx + 10, y(v)); }
    ctx.stroke();
    disc(ctx, cx, y(r.rating), 6, color, C.text);
    label(ctx, r.agent.length > 14 ? r.agent.slice(0, 13) + "…" : r.agent, cx, bottom + 16, C.text, 12, "center");
    label(ctx, String(Math.round(r.rating)), cx, bottom + 32, C.wall, 11, "center");
  });
}

// ---- drawing ----

function draw(canvas, f, state, seat) {
  const ctx = canvas.getContext("2d");
  const base = f.game.split("/")[0];
  const names = {};
  for (const s of (f.result && f.result.Standings) || []) names[s.Name] = s.Seat;
  const d = { ctx, f, state, seat, names, w: canvas.width, h: canvas.height };
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.fillStyle = C.floor;
  ctx.fillRect(0, 0, d.w, d.h);
  $("slicebox").hidden = base !== "battlecube";
  try {
    (DRAW[base] || drawText)(d);
  } catch (e) {
    drawText({ ...d, state: "cannot draw: " + e.message });
  }
}

function drawText(d) {
  const { ctx } = d;
  ctx.fillStyle = C.text;
  ctx.font = "12px monospace";
  const text = typeof d.state === "string" ? d.state : JSON.stringify(d.state, null, 1);
  text.split("\n").slice(0, 50).forEach((l, i) => ctx.fillText(l.slice(0, 90), 8, 16 + 13 * i));
}

function label(ctx, text, x, y, color, size, align) {
  ctx.fillStyle = color || C.text;
  ctx.font = `bold ${size || 12}px sans-serif`;
  ctx.textAlign = align || "left";
  ctx.textBaseline = "middle";
  ctx.fillText(text, x, y);
  ctx.textAlign = "left";
}

function disc(ctx, x, y, r, fill, stroke) {
  ctx.beginPath();
  ctx.arc(x, y, r, 0, 2 * Math.PI);
  ctx.fillStyle = fill;
  ctx.fill();
  if (stroke) { ctx.strokeStyle = stroke; ctx.lineWidth = 2; ctx.stroke(); }
}

// grid fits cols×rows cells into the canvas above a strip of strip pixels.
function grid(d, cols, rows, strip) {
  const cell = Math.max(4, Math.floor(Math.min(d.w / cols, (d.h - strip) / rows)));
  const ox = Math.floor((d.w - cell * cols) / 2);
  return { cell, ox, oy: 4, at: (x, y) => [ox + x * cell, 4 + y * cell] };
}

function strip(d, y, items) {
  let x = 8;
  for (const [color, text] of items) {
    disc(d.ctx, x + 6, y, 6, color);
    label(d.ctx, text, x + 16, y, C.text, 13);
    x += 26 + d.ctx.measureText(text).width;
    if (x > d.w - 80) { x = 8; y += 18; }
  }
}

// Bomberman: state.json, GameBlocks[x][y] with 1-based locations.
function drawBomberman(d) {
  const s = d.state, { ctx } = d;
  const W = s.MapWidth, H = s.MapHeight;
  const g = grid(d, W, H, 70);
  const c = g.cell;
  for (const col of s.GameBlocks) {
    for (const b of col) {
      const [x, y] = g.at(b.Location.X - 1, b.Location.Y - 1);
      const type = (b.Entity && b.Entity.$type) || "";
      ctx.fillStyle = b.Exploding ? C.fire : type.includes("Indestructible") ? C.wall : type.includes("Destructible") ? C.soft : C.floor;
      ctx.fillRect(x, y, c, c);
      ctx.strokeStyle = C.grid;
      ctx.lineWidth = 1;
      ctx.strokeRect(x + 0.5, y + 0.5, c - 1, c - 1);
      if (b.PowerUp) {
        const t = b.PowerUp.$type || "";
        ctx.fillStyle = C.power;
        ctx.beginPath();
        ctx.moveTo(x + c / 2, y + 2); ctx.lineTo(x + c - 2, y + c / 2); ctx.lineTo(x + c / 2, y + c - 2); ctx.lineTo(x + 2, y + c / 2);
        ctx.fill();
        label(ctx, t.includes("Super") ? "S" : t.includes("Bag") ? "B" : "R", x + c / 2, y + c / 2, C.bomb, Math.max(7, c * 0.5), "center");
      }
      if (b.Bomb) {
        disc(ctx, x + c / 2, y + c / 2, c * 0.38, C.bomb, b.Bomb.Owner ? seatColor(b.Bomb.Owner.Key.charCodeAt(0) - 65) : null);
        label(ctx, String(b.Bomb.BombTimer), x + c / 2, y + c / 2, C.fire, Math.max(7, c * 0.45), "center");
      }
    }
  }
  const items = [];
  for (const p of s.RegisteredPlayerEntities) {
    const seat = p.Key.charCodeAt(0) - 65;
    items.push([p.Killed ? C.dead : seatColor(seat), `${p.Key} ${p.Points}`]);
    if (p.Killed) continue;
    const [x, y] = g.at(p.Location.X - 1, p.Location.Y - 1);
    disc(ctx, x + c / 2, y + c / 2, c * 0.42, seatColor(seat), C.text);
    label(ctx, p.Key, x + c / 2, y + c / 2, C.bomb, Math.max(7, c * 0.5), "center");
  }
  const y0 = g.oy + H * c + 14;
  label(ctx, `round ${s.CurrentRound}   bounty ${s.PlayerBounty}`, 8, y0, C.text, 13);
  strip(d, y0 + 20, items);
}

// BattleBots: the arena.txt text: a 10×10 grid (Y: the receiving bot, X:
// the enemy), then "Y hp=", "X hp=", projectile, mine, paralysis and round lines.
function drawBattlebots(d) {
  const { ctx } = d;
  const lines = d.state.split("\n");
  const rows = [];
  while (rows.length < lines.length && /^[.YXBML]+$/.test(lines[rows.length])) rows.push(lines[rows.length]);
  const side = rows.length;
  const me = d.seat < 0 ? 0 : d.seat; // Y is seat 0 in the referee view
  const who = { Y: me, X: 1 - me };
  const info = { hp: {}, shots: [], mines: [], paralysed: 0, round: null };
  for (const l of lines.slice(side)) {
    let m;
    if ((m = /^([YX]) hp=(-?\d+)/.exec(l))) info.hp[m[1]] = Number(m[2]);
    else if ((m = /^([BM]) x=(\d+) y=(\d+) dir=(\w+)/.exec(l))) info.shots.push({ k: m[1], x: +m[2], y: +m[3], dir: m[4] });
    else if ((m = /^L x=(\d+) y=(\d+) by=([YX])( dead)?/.exec(l))) info.mines.push({ x: +m[1], y: +m[2], by: m[3], dead: !!m[4] });
    else if ((m = /^P paralysed=(\d+)/.exec(l))) info.paralysed = Number(m[1]);
    else if ((m = /^R round=(\d+)/.exec(l))) info.round = Number(m[1]);
  }
  const g = grid(d, side + 2, side + 2, 70);
  const c = g.cell;
  for (let y = 0; y < side + 2; y++) {
    for (let x = 0; x < side + 2; x++) {
      const [px, py] = g.at(x, y);
      const wall = x === 0 || y === 0 || x === side + 1 || y === side + 1;
      ctx.fillStyle = wall ? C.wall : C.floor;
      ctx.fillRect(px, py, c, c);
      ctx.strokeStyle = C.grid;
      ctx.strokeRect(px + 0.5, py + 0.5, c - 1, c - 1);
    }
  }
  const center = (x, y) => { const [px, py] = g.at(x + 1, y + 1); return [px + c / 2, py + c / 2]; };
  for (const m of info.mines) {
    const [x, y] = center(m.x, m.y);
    ctx.strokeStyle = m.dead ? C.dead : seatColor(who[m.by]);
    ctx.lineWidth = 3;
    ctx.beginPath();
    ctx.moveTo(x - c * 0.25, y - c * 0.25); ctx.lineTo(x + c * 0.25, y + c * 0.25);
    ctx.moveTo(x + c * 0.25, y - c * 0.25); ctx.lineTo(x - c * 0.25, y + c * 0.25);
    ctx.stroke();
  }
  const DIRS = { N: [0, -1], NE: [1, -1], E: [1, 0], SE: [1, 1], S: [0, 1], SW: [-1, 1], W: [-1, 0], NW: [-1, -1] };
  rows.forEach((row, y) => [...row].forEach((ch, x) => {
    if (ch !== "Y" && ch !== "X") return;
    const [px, py] = center(x, y);
    ctx.fillStyle = seatColor(who[ch]);
    ctx.fillRect(px - c * 0.38, py - c * 0.38, c * 0.76, c * 0.76);
    label(ctx, String(info.hp[ch] ?? ""), px, py, C.bomb, c * 0.4, "center");
  }));
  for (const p of info.shots) {
    const [x, y] = center(p.x, p.y);
    const [dx, dy] = DIRS[p.dir] || [0, 0];
    ctx.strokeStyle = p.k === "M" ? C.fire : C.coin;
    ctx.lineWidth = p.k === "M" ? 5 : 3;
    ctx.beginPath();
    ctx.moveTo(x - dx * c * 0.35, y - dy * c * 0.35);
    ctx.lineTo(x + dx * c * 0.35, y + dy * c * 0.35);
    ctx.stroke();
    disc(ctx, x + dx * c * 0.35, y + dy * c * 0.35, p.k === "M" ? c * 0.14 : c * 0.09, p.k === "M" ? C.fire : C.coin);
  }
  if (info.paralysed > 0) {
    const [x0, y0] = g.at(1, 1);
    ctx.strokeStyle = C.power;
    ctx.lineWidth = 4;
    ctx.setLineDash([8, 6]);
    ctx.strokeRect(x0, y0, side * c, side * c);
    ctx.setLineDash([]);
  }
  const yb = g.oy + (side + 2) * c + 14;
  label(ctx, `round ${info.round ?? d.f.round}${info.paralysed ? `   EMP: movement paralysed ${info.paralysed}` : ""}`, 8, yb, info.paralysed ? C.power : C.text, 13);
  strip(d, yb + 20, ["Y", "X"].map((k) => [seatColor(who[k]), `seat ${who[k]} hp ${info.hp[k] ?? "?"}`]));
}

// Battleships: state.json; the full view has Player1Map and Player2Map, a
// seat's view its own PlayerMap and what it knows of the OpponentMap.
function drawBattleships(d) {
  const s = d.state;
  const boards = [];
  if (s.Player1Map) {
    boards.push({ map: s.Player1Map, seat: 0, own: true }, { map: s.Player2Map, seat: 1, own: true });
  } else {
    const me = Math.max(0, d.seat);
    boards.push({ map: s.PlayerMap, seat: me, own: true }, { map: s.OpponentMap, seat: 1 - me, own: false });
  }
  const dim = s.MapDimension;
  const cell = Math.floor(Math.min((d.w - 40) / (2 * dim), (d.h - 90) / dim));
  boards.forEach((b, i) => drawShipsBoard(d, b, dim, cell, 10 + i * (dim * cell + 20), 40));
  label(d.ctx, `round ${s.Round}   phase ${s.Phase}`, 10, dim * cell + 60, C.text, 13);
}

function drawShipsBoard(d, b, dim, c, ox, oy) {
  const { ctx } = d;
  const m = b.map || {};
  const owner = b.own ? m.Owner || {} : m;
  const name = owner.Name || "";
  label(ctx, `${name} (seat ${b.seat})  ${owner.Points ?? 0} pts` + (b.own ? `  energy ${owner.Energy ?? "?"}` : ""), ox, oy - 24, seatColor(b.seat), 13);
  const ships = (owner.Ships || []).map((sh) => `${sh.ShipType}${sh.Destroyed ? " ✗" : ""}`).join(" ");
  label(ctx, b.own ? ships : ships || "opponent's board as seen", ox, oy - 9, C.wall, 10);
  const cellAt = (X, Y) => [ox + X * c, oy + (dim - 1 - Y) * c];
  for (const cl of m.Cells || []) {
    const [x, y] = cellAt(cl.X, cl.Y);
    ctx.fillStyle = cl.Shielded ? "#1d3a48" : b.own ? "#1b2a3a" : C.hidden;
    ctx.fillRect(x, y, c, c);
    ctx.strokeStyle = C.grid;
    ctx.lineWidth = 1;
    ctx.strokeRect(x + 0.5, y + 0.5, c - 1, c - 1);
    if (cl.Occupied) {
      ctx.fillStyle = C.wall;
      ctx.fillRect(x + 3, y + 3, c - 6, c - 6);
      ctx.strokeStyle = seatColor(b.seat);
      ctx.lineWidth = 2;
      ctx.strokeRect(x + 3, y + 3, c - 6, c - 6);
    }
    const hit = (cl.Hit && cl.Occupied) || cl.Damaged;
    const miss = (cl.Hit && !cl.Occupied) || cl.Missed;
    if (hit) {
      ctx.strokeStyle = C.fire;
      ctx.lineWidth = 3;
      ctx.beginPath();
      ctx.moveTo(x + 5, y + 5); ctx.lineTo(x + c - 5, y + c - 5);
      ctx.moveTo(x + c - 5, y + 5); ctx.lineTo(x + 5, y + c - 5);
      ctx.stroke();
    } else if (miss) {
      disc(ctx, x + c / 2, y + c / 2, Math.max(2, c * 0.12), C.text);
    }
    if (cl.ShieldHit) disc(ctx, x + c / 2, y + c / 2, c * 0.3, "rgba(0,0,0,0)", C.power);
  }
  const sh = owner.Shield;
  if (b.own && sh && sh.Active && sh.CenterPoint) {
    const [cx, cy] = sh.CenterPoint.split(",").map(Number);
    const [x, y] = cellAt(cx, cy);
    ctx.strokeStyle = C.power;
    ctx.lineWidth = 3;
    const r = sh.CurrentRadius;
    ctx.strokeRect(x - r * c, y - r * c, (2 * r + 1) * c, (2 * r + 1) * c);
  }
}

// Portal Bomberman: the UPE state.json: flat hard and soft block boards
// (row-major, boardSize²), bombs, trails (fire, "-1" for the apocalypse)
// and portals keyed "x,y", and the two players (player: the view's own).
function drawPortalbomber(d) {
  const s = d.state, { ctx } = d;
  const n = s.boardSize;
  const g = grid(d, n, n, 70);
  const c = g.cell;
  const me = s.playerIndex ?? 0;
  for (let i = 0; i < n * n; i++) {
    const [x, y] = g.at(i % n, Math.floor(i / n));
    const hard = s.hardBlockBoard[i], soft = s.softBlockBoard[i];
    ctx.fillStyle = hard ? C.wall : soft ? C.soft : C.floor;
    ctx.fillRect(x, y, c, c);
    ctx.strokeStyle = C.grid;
    ctx.lineWidth = 1;
    ctx.strokeRect(x + 0.5, y + 0.5, c - 1, c - 1);
    if (soft > 1) label(ctx, String(soft), x + c / 2, y + c / 2, C.coin, c * 0.35, "center");
  }
  const key = (k) => k.split(",").map(Number);
  let apocalypse = false;
  for (const [k, owners] of Object.entries(s.trailMap || {})) {
    const [x, y] = g.at(...key(k));
    for (const [o, t] of Object.entries(owners)) {
      if (o === "-1") apocalypse = true;
      ctx.fillStyle = o === "-1" ? "#b0203a" : C.fire;
      if (t.type === "h") ctx.fillRect(x, y + c * 0.3, c, c * 0.4);
      else if (t.type === "v") ctx.fillRect(x + c * 0.3, y, c * 0.4, c);
      else ctx.fillRect(x + 1, y + 1, c - 2, c - 2);
    }
  }
  for (const [k, b] of Object.entries(s.bombMap || {})) {
    const [x, y] = g.at(...key(k));
    disc(ctx, x + c / 2, y + c / 2, c * 0.36, C.bomb, seatColor(b.owner));
    label(ctx, String(b.tick), x + c / 2, y + c / 2, C.fire, c * 0.4, "center");
  }
  for (const [k, ports] of Object.entries(s.portalMap || {})) {
    const [x, y] = g.at(...key(k));
    for (const [dir, p] of Object.entries(ports)) {
      // direction: 0 up, 1 right, 2 down, 3 left: the side of the cell the portal faces
      const w = c * 0.22;
      ctx.fillStyle = p.portalColor === "blue" ? "#2f6bff" : "#ff7a1a";
      const rect = [[x, y, c, w], [x + c - w, y, w, c], [x, y + c - w, c, w], [x, y, w, c]][Number(dir)] || [x, y, c, w];
      ctx.fillRect(...rect);
      ctx.strokeStyle = seatColor(p.owner);
      ctx.lineWidth = 2;
      ctx.strokeRect(...rect);
    }
  }
  const players = [[me, s.player], [1 - me, s.opponent]];
  const items = [];
  for (const [seat, p] of players) {
    if (!p) continue;
    items.push([p.alive ? seatColor(seat) : C.dead, `seat ${seat}: ${p.coins} coins, bombs ${p.bombCount} range ${p.bombRange} pierce ${p.bombPierce}`]);
    if (!p.alive || p.x < 0) continue;
    const [x, y] = g.at(p.x, p.y);
    disc(ctx, x + c / 2, y + c / 2, c * 0.4, seatColor(seat), C.text);
    const [dx, dy] = [[0, -1], [1, 0], [0, 1], [-1, 0]][p.orientation] || [0, 0];
    disc(ctx, x + c / 2 + dx * c * 0.28, y + c / 2 + dy * c * 0.28, c * 0.1, C.bomb);
  }
  const y0 = g.oy + n * c + 14;
  label(ctx, `move ${s.moveNumber}   ${s.state}${apocalypse ? "   APOCALYPSE" : ""}`, 8, y0, apocalypse ? "#ff5a6a" : C.text, 13);
  strip(d, y0 + 20, items);
}

// Battle³: the request JSON: an edgeLength cube, players and items (bombs)
// at integer (x, y, z), drawn in perspective, rotated by dragging; the
// z-slice slider shows one layer's grid and fades what is outside it.
function drawBattlecube(d) {
  const s = d.state, { ctx } = d;
  const n = s.gameInfo.edgeLength;
  const cube = app.cube;
  $("slice").max = n - 1;
  const { yaw, pitch } = cube;
  const scale = Math.min(d.w, d.h - 60) * 0.5;
  const cx = d.w / 2, cy = (d.h - 60) / 2 + 10;
  const proj = (x, y, z) => {
    // centre the cube at the origin, unit size
    let px = (x - (n - 1) / 2) / n, py = (y - (n - 1) / 2) / n, pz = (z - (n - 1) / 2) / n;
    const x1 = px * Math.cos(yaw) - py * Math.sin(yaw);
    const y1 = px * Math.sin(yaw) + py * Math.cos(yaw);
    const y2 = y1 * Math.cos(pitch) - pz * Math.sin(pitch);
    const z2 = y1 * Math.sin(pitch) + pz * Math.cos(pitch);
    const k = 2.2 / (2.2 + y2);
    return { x: cx + x1 * scale * k, y: cy - z2 * scale * k, depth: y2, k };
  };
  const lo = -0.5, hi = n - 0.5;
  const corners = [];
  for (const x of [lo, hi]) for (const y of [lo, hi]) for (const z of [lo, hi]) corners.push([x, y, z]);
  ctx.strokeStyle = C.wall;
  ctx.lineWidth = 1.5;
  for (let i = 0; i < 8; i++) for (let j = i + 1; j < 8; j++) {
    const a = corners[i], b = corners[j];
    if ((a[0] !== b[0]) + (a[1] !== b[1]) + (a[2] !== b[2]) !== 1) continue;
    const p = proj(...a), q = proj(...b);
    ctx.beginPath(); ctx.moveTo(p.x, p.y); ctx.lineTo(q.x, q.y); ctx.stroke();
  }
  // the floor grid (z = lo) or the chosen slice
  const zg = cube.slice >= 0 ? cube.slice : lo;
  ctx.strokeStyle = cube.slice >= 0 ? "#3d6b80" : C.grid;
  ctx.lineWidth = 1;
  for (let i = 0; i <= n; i++) {
    const t = lo + i;
    for (const [a, b] of [[[t, lo, zg], [t, hi, zg]], [[lo, t, zg], [hi, t, zg]]]) {
      const p = proj(...a), q = proj(...b);
      ctx.beginPath(); ctx.moveTo(p.x, p.y); ctx.lineTo(q.x, q.y); ctx.stroke();
    }
  }
  const things = [];
  for (const it of s.items || []) things.push({ ...it, kind: "item" });
  for (const p of s.players || []) things.push({ ...p, kind: "player", seat: d.names[p.name] ?? (Number(/\d+/.exec(p.name)) - 1) });
  for (const t of things) t.p = proj(t.x, t.y, t.z);
  things.sort((a, b) => b.p.depth - a.p.depth);
  for (const t of things) {
    const outside = cube.slice >= 0 && t.z !== cube.slice;
    ctx.globalAlpha = outside ? 0.18 : 1;
    const r = (scale / n) * 0.35 * t.p.k;
    if (t.kind === "player") {
      disc(ctx, t.p.x, t.p.y, r * 1.2, seatColor(t.seat), C.text);
      label(ctx, String(t.seat), t.p.x, t.p.y, C.bomb, r, "center");
    } else {
      disc(ctx, t.p.x, t.p.y, r * 0.8, C.bomb, C.fire);
    }
  }
  ctx.globalAlpha = 1;
  const y0 = d.h - 40;
  const slice = cube.slice >= 0 ? `   z = ${cube.slice}` : "";
  label(ctx, `tick ${s.gameInfo.currentTick}   ${s.players.length} in play   ${(s.items || []).length} bombs${slice}   (drag to rotate)`, 8, y0, C.text, 13);
  strip(d, y0 + 20, (s.players || []).map((p) => { const seat = d.names[p.name] ?? 0; return [seatColor(seat), `${p.name} (${p.x},${p.y},${p.z})`]; }));
}

const DRAW = {
  bomberman: drawBomberman, battlebots: drawBattlebots, battleships: drawBattleships,
  portalbomber: drawPortalbomber, battlecube: drawBattlecube,
};

// ---- wiring ----

function redraw() { if (app.cur >= 0) show(app.cur); }

function dragToRotate(canvas) {
  let last = null;
  canvas.addEventListener("pointerdown", (e) => { last = [e.clientX, e.clientY]; canvas.setPointerCapture(e.pointerId); });
  canvas.addEventListener("pointerup", () => { last = null; });
  canvas.addEventListener("pointermove", (e) => {
    if (!last) return;
    app.cube.yaw += (e.clientX - last[0]) * 0.01;
    app.cube.pitch = Math.max(-1.5, Math.min(1.5, app.cube.pitch + (e.clientY - last[1]) * 0.01));
    last = [e.clientX, e.clientY];
    redraw();
  });
}

function init() {
  for (const a of document.querySelectorAll("nav [data-tab]")) {
    a.addEventListener("click", (e) => {
      e.preventDefault();
      tab(a.dataset.tab);
      if (a.dataset.tab === "replays") loadReplays();
      if (a.dataset.tab === "leagues") loadLeagues();
    });
  }
  $("game").addEventListener("change", seatPickers);
  $("start").addEventListener("submit", (e) => { e.preventDefault(); startMatch(); });
  $("play").addEventListener("click", () => (app.playing ? stop() : play()));
  $("step").addEventListener("click", step);
  $("seek").addEventListener("change", seek);
  $("speed").addEventListener("change", () => { if (app.playing) { stop(); play(); } });
  $("seat").addEventListener("change", () => {
    app.seat = Number($("seat").value);
    if (app.playing) { stop(); play(); }
    redraw();
  });
  $("slice").addEventListener("input", () => {
    app.cube.slice = Number($("slice").value);
    $("sliceval").textContent = app.cube.slice < 0 ? "all" : String(app.cube.slice);
    redraw();
  });
  for (const id of ["file", "file2"]) {
    $(id).addEventListener("change", (e) => { if (e.target.files[0]) upload(e.target.files[0]); });
  }
  dragToRotate($("full"));
  dragToRotate($("view"));
  if (params.get("speed")) $("speed").value = params.get("speed");
  loadCatalog().then(() => {
    // ?replay=PATH (&index=N for match data, &game=NAME for a folder),
    // ?league=NAME, ?tab=replays|leagues, or ?autoplay=1 for a live match.
    if (params.has("replay")) {
      const req = { path: params.get("replay") };
      if (params.has("index")) req.index = Number(params.get("index"));
      if (params.has("game")) req.game = params.get("game");
      openReplay(req);
    } else if (params.has("league")) {
      showLeague(params.get("league"));
    } else if (params.get("tab") === "replays") {
      tab("replays"); loadReplays();
    } else if (params.get("tab") === "leagues") {
      tab("leagues"); loadLeagues();
    } else if (params.get("autoplay")) {
      startMatch();
    }
  }).catch((e) => status(e.message, true));
}

init();
