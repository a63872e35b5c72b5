// botarena viewer: plain JavaScript, no build step. It lists the games,
// starts live matches between built-in agents and trained policies, opens
// replays (recordings, replay folders, league match data) and shows league
// tables. A live match or a replay sends its rounds as server-sent events;
// each round's canonical native state is drawn on a canvas, with the
// game's key, the last round's actions (and short trails), what each
// policy seat makes of the state, and an event log. Two matches on the
// same seed can play side by side ("panes").
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
const TRAIL = 6;  // rounds of a trail
const LOG = 300;  // lines of an event log
const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);

const app = {
  catalog: null,
  panes: [],        // the matches shown: one, or two side by side
  playing: false,
  seat: -1,         // the seat whose view is shown beside pane 0's board
  views: new Map(), // "round/seat" -> view of pane 0, fetched while paused
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

function swatch(color) {
  const sw = el("span", undefined, "swatch");
  sw.style.background = color;
  return sw;
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
  $("compare").checked = params.has("compare");
  seatPickers();
}

function gameInfo(name) {
  return app.catalog && app.catalog.games.find((g) => g.name === name);
}

// pickers fills box with one agent picker per seat of g, each set to
// want(seat) when it names an agent (added, marked, when the game's list
// lacks it: a replay's agent), else to the game's default.
function pickers(box, g, want) {
  box.textContent = "";
  if (!g) return;
  for (let s = 0; s < g.seats; s++) {
    const l = document.createElement("label");
    const sel = document.createElement("select");
    sel.dataset.seat = s;
    for (const a of g.agents) sel.add(new Option(a, a));
    const w = want(s);
    if (w && !g.agents.includes(w)) sel.add(new Option(w + " (replay)", w));
    sel.value = w || g.default;
    l.append(swatch(seatColor(s)), "seat " + s + " ", sel);
    box.appendChild(l);
  }
}

function seatPickers(agentsA, agentsB) {
  const g = gameInfo($("game").value);
  pickers($("seats"), g, (s) => (agentsA ? agentsA[s] : params.get("agent" + s) || params.get("agents")));
  pickers($("seatsB"), g, (s) => (agentsB ? agentsB[s] : params.get("b" + s) || params.get("agents")));
  $("seatsB").hidden = !$("compare").checked;
}

const chosenAgents = (box) => [...box.querySelectorAll("select")].map((s) => s.value);

// describe sets the start form to what is shown: the game, its seed and
// each seat's agent (a replay's or a league game's), so that Start plays
// it again.
function describe(game, seed, agentsA, agentsB) {
  if (gameInfo(game)) $("game").value = game;
  if (seed !== undefined && seed !== null) $("seed").value = String(seed);
  if (agentsB) $("compare").checked = true;
  seatPickers(agentsA, agentsB);
}

// seedText returns the seed box's seed: a string of decimal digits (64-bit
// seeds do not fit a JavaScript number), or null.
function seedText() {
  const v = $("seed").value.trim() || "0";
  return /^\d{1,20}$/.test(v) ? v : null;
}

async function startMatch(req) {
  stop();
  let reqs;
  if (req) {
    reqs = [req];
    describe(req.game, req.seed, req.agents);
    $("compare").checked = false;
    $("seatsB").hidden = true;
  } else {
    const seed = seedText();
    if (seed === null) return status(`seed ${JSON.stringify($("seed").value)}: want a whole number from 0 to 18446744073709551615`, true);
    reqs = [{ game: $("game").value, agents: chosenAgents($("seats")), seed }];
    if ($("compare").checked) reqs.push({ game: $("game").value, agents: chosenAgents($("seatsB")), seed });
  }
  try {
    const ms = [];
    for (const r of reqs) ms.push(await post("/api/matches", r));
    tab("watch");
    panes(ms.map((m) => ({ id: m.id, game: m.game, seats: m.seats, agents: m.agents, seed: m.seed })));
    status(ms.map((m) => `match ${m.id}: ${m.game}, ${m.agents.join(" vs ")}, seed ${m.seed}`).join("  |  "));
    play();
  } catch (e) {
    status(e.message, true);
  }
}

// ---- panes: the matches or replays shown ----

// panes shows the live matches or replays ms ({id, game, seats, rounds?,
// agents?, seed?}), one pane each, from their first round.
function panes(ms) {
  const box = $("boards");
  box.textContent = "";
  app.panes = ms.map((m, i) => {
    const node = $("panetpl").content.firstElementChild.cloneNode(true);
    box.appendChild(node);
    const q = (cls) => node.querySelector("." + cls);
    const p = { i, m, node, canvas: q("full"), view: q("view"), viewfig: q("viewfig"), frames: [], cur: -1, source: null, log: [], logged: -1 };
    q("title").textContent = ms.length > 1 ? `${"AB"[i]}: ${(m.agents || []).join(" vs ")}` : "";
    p.viewfig.hidden = true;
    if (i > 0) p.viewfig.remove();
    dragToRotate(p.canvas);
    if (i === 0) dragToRotate(p.view);
    legend(p);
    return p;
  });
  box.classList.toggle("two", ms.length > 1);
  app.views.clear();
  const m = ms[0];
  const seat = $("seat");
  seat.length = 1;
  const n = m ? m.seats : 0;
  for (let s = 0; s < n; s++) seat.add(new Option("seat " + s, s));
  app.seat = -1;
  const want = Number(params.get("seat"));
  if (params.has("seat") && want >= 0 && want < n) app.seat = want;
  seat.value = app.seat;
  const rec = $("record");
  rec.hidden = !m;
  if (m) rec.href = `/api/matches/${m.id}/record`;
  const seek = $("seek");
  seek.hidden = !(m && m.rounds >= 0);
  if (m && m.rounds >= 0) { seek.max = m.rounds; seek.value = 0; }
  $("round").textContent = "";
  layout();
}

// legend lists the game's key (env.Kit.Legend: the marks of its picture)
// and the seats' colours with their agents.
function legend(p) {
  const ul = p.node.querySelector(".legend");
  ul.textContent = "";
  const g = gameInfo(p.m.game);
  for (let s = 0; s < p.m.seats; s++) {
    const li = el("li");
    li.append(swatch(seatColor(s)), `seat ${s}` + (p.m.agents && p.m.agents[s] ? `: ${p.m.agents[s]}` : ""));
    ul.appendChild(li);
  }
  for (const item of (g && g.legend) || []) {
    const li = el("li");
    const mark = el("span", undefined, "mark " + item.mark);
    mark.style.setProperty("--c", item.colour);
    li.append(mark, item.meaning);
    ul.appendChild(li);
  }
}

// ASPECT is each game's board height per width, its status lines
// included: Battleships' two maps side by side are wide.
const ASPECT = { battleships: 0.58, battlecube: 0.9 };

// layout sizes the canvases to the window: each pane gets its share of the
// width beside its side panel, and the board as much of the height below
// the controls as its aspect allows.
function layout() {
  const dpr = window.devicePixelRatio || 1;
  for (const p of app.panes) {
    const figs = p.i === 0 && app.seat >= 0 ? 2 : 1;
    const side = p.node.querySelector(".side");
    const paneW = p.node.clientWidth || document.body.clientWidth / app.panes.length;
    const sideW = paneW - 320 * (app.panes.length > 1 ? 0 : 1) > 480 * figs ? side.offsetWidth || 300 : 0;
    const availW = Math.max(240, (paneW - sideW - 16 * figs) / figs);
    const top = p.canvas.getBoundingClientRect().top + window.scrollY;
    const availH = Math.max(300, window.innerHeight - top - 28);
    const aspect = ASPECT[p.m.game.split("/")[0]] || 1.1;
    const w = Math.floor(Math.min(availW, availH / aspect)), h = Math.floor(w * aspect);
    for (const c of p.i === 0 ? [p.canvas, p.view] : [p.canvas]) {
      c.width = w * dpr; c.height = h * dpr;
      c.style.width = w + "px"; c.style.height = h + "px";
    }
  }
}

// ---- playing: the server streams the rounds, paced by the speed ----

function speed() { return Number($("speed").value) || 10; }

function play() {
  if (app.playing || app.panes.length === 0) return;
  app.playing = true;
  $("play").textContent = "Pause";
  for (const p of app.panes) playPane(p);
}

function playPane(p) {
  const last = p.frames[p.cur];
  if (last && last.done) return;
  const q = new URLSearchParams({ from: p.cur + 1, speed: speed() });
  if (p.i === 0 && app.seat >= 0) q.set("seat", app.seat);
  const es = new EventSource(`/api/matches/${p.m.id}/events?${q}`);
  p.source = es;
  es.onmessage = (ev) => {
    const f = JSON.parse(ev.data);
    p.frames[f.round] = f;
    // Only the recent rounds stay in the page: a 12-player Bomberman
    // state is about 200 KB; the whole match is in its record.
    delete p.frames[f.round - KEEP];
    show(p, f.round);
    // ?until=ROUND pauses there (for screenshots and links to a moment).
    if (params.has("until") && f.round >= Number(params.get("until"))) stopPane(p);
  };
  es.addEventListener("end", (ev) => {
    const d = JSON.parse(ev.data);
    status(`${p.m.replay ? "replay" : "match"} ${p.m.id}: ${d.reason} at round ${d.round}`);
    stopPane(p);
  });
  es.addEventListener("failure", (ev) => { status(JSON.parse(ev.data).error, true); stopPane(p); });
  es.onerror = () => { if (p.source === es) { status("the stream broke; press Play to resume", true); stopPane(p); } };
}

function stopPane(p) {
  if (p.source) { p.source.close(); p.source = null; }
  if (!app.panes.some((q) => q.source)) stop();
}

function stop() {
  app.playing = false;
  $("play").textContent = "Play";
  for (const p of app.panes) if (p.source) { p.source.close(); p.source = null; }
}

// fetchFrame shows round of pane p, fetched alone.
async function fetchFrame(p, round) {
  try {
    const q = new URLSearchParams({ round });
    if (p.i === 0 && app.seat >= 0) q.set("seat", app.seat);
    const f = await api(`/api/matches/${p.m.id}/frame?${q}`);
    if (f.view !== undefined) app.views.set(f.round + "/" + f.seat, f.view);
    p.frames[f.round] = f;
    show(p, f.round);
  } catch (e) {
    status(e.message, true);
  }
}

async function step() {
  stop();
  for (const p of app.panes) {
    const next = p.cur + 1;
    if (p.frames[next]) { show(p, next); continue; }
    const last = p.frames[p.cur];
    if (last && last.done) continue;
    await fetchFrame(p, next);
  }
}

function seek() {
  const round = Number($("seek").value);
  const wasPlaying = app.playing;
  stop();
  for (const p of app.panes) {
    if (p.frames[round]) show(p, round);
    else fetchFrame(p, round).then(() => { if (wasPlaying && p.i === 0) play(); });
  }
}

// seatView returns the view of the shown round for the chosen seat, asking
// the server for it when it is not at hand.
function seatView(p, f) {
  if (app.seat < 0) return undefined;
  if (f.seat === app.seat && f.view !== undefined) return f.view;
  const key = f.round + "/" + app.seat;
  if (app.views.has(key)) return app.views.get(key);
  if (app.views.size > KEEP) app.views.clear();
  if (!app.playing) {
    app.views.set(key, null);
    api(`/api/matches/${p.m.id}/frame?round=${f.round}&seat=${app.seat}`)
      .then((g) => { app.views.set(key, g.view); if (p.cur === f.round) show(p, f.round); })
      .catch((e) => status(e.message, true));
  }
  return null;
}

function show(p, round) {
  const f = p.frames[round];
  if (!f) return;
  p.cur = round;
  if (p.i === 0) {
    // One round counter: the frames' round, which every board's label
    // also shows.
    const total = p.m.rounds >= 0 ? ` of ${p.m.rounds}` : "";
    $("round").textContent = `round ${f.round}${total}${f.done ? " (over)" : ""}`;
    if (!$("seek").hidden) $("seek").value = f.round;
  }
  draw(p, p.canvas, f, f.state, -1);
  if (p.i === 0) {
    p.viewfig.hidden = app.seat < 0;
    if (app.seat >= 0) {
      const v = seatView(p, f);
      p.node.querySelector(".viewcap").textContent = `seat ${app.seat}'s view`;
      if (v) draw(p, p.view, f, v, app.seat);
    }
  }
  scores(p, f);
  lastActions(p, f);
  policies(p, f);
  eventLog(p, f);
}

function scores(p, f) {
  const t = p.node.querySelector(".scores");
  t.textContent = "";
  const head = t.insertRow();
  for (const h of ["#", "seat", "name", "score"]) head.appendChild(el("th", h));
  // The result is play --json's (docs/recording-format.md).
  const r = f.result || {};
  for (const s of r.leaderboard || []) {
    const seat = el("span");
    seat.append(swatch(seatColor(s.seat)), String(s.seat));
    const tr = row(t, [s.rank, seat, s.name, s.score]);
    if (!s.alive) tr.cells[2].className = "dead";
  }
  const tr = t.insertRow();
  const c = tr.insertCell();
  c.colSpan = 4;
  const forfeit = r.forfeit ? ` (seat ${r.forfeit.seat} forfeited)` : "";
  c.textContent = f.done ? (r.draw ? "draw" : r.winner != null ? `seat ${r.winner} wins${forfeit}` : "no winner") : "";
  if (!f.done) return;
  // The rounds each external bot lost to its faults, where it lost any.
  for (const x of r.faults || []) {
    const kinds = [["timed_out", "timed out"], ["crashed", "crashed"], ["invalid", "invalid"]]
      .filter(([k]) => x[k] > 0).map(([k, name]) => `${x[k]} ${name}`);
    if (kinds.length === 0) continue;
    const fc = t.insertRow().insertCell();
    fc.colSpan = 4;
    fc.className = "faults";
    fc.textContent = `seat ${x.seat} lost rounds: ${kinds.join(", ")}`;
  }
}

// actionText is an action as the page shows it: its native command, and
// its name where that says more; the name alone for a long command (a
// Battle³ task array).
function actionText(a) {
  const cmd = a.command || String(a.action);
  if (a.name && cmd.length > 16) return a.name;
  return a.name && a.name !== cmd ? `${cmd} (${a.name})` : cmd;
}

// lastActions lists the actions of the round that led to the shown state.
function lastActions(p, f) {
  const ul = p.node.querySelector(".actions");
  ul.textContent = "";
  p.node.querySelector(".actionsbox").hidden = !(f.actions && f.actions.length);
  (f.actions || []).forEach((a, s) => {
    const li = el("li");
    li.append(swatch(seatColor(s)), `seat ${s}: ${actionText(a)}`);
    if (a.invalid) li.append(el("span", " invalid", "bad"));
    if (a.reward) li.append(el("span", ` reward ${a.reward > 0 ? "+" : ""}${a.reward}`, "muted"));
    ul.appendChild(li);
  });
}

// policies shows what each policy seat makes of the shown state: its value
// estimate, the action it plays and its most probable actions.
function policies(p, f) {
  const box = p.node.querySelector(".policies");
  box.textContent = "";
  for (const st of f.policies || []) {
    const div = el("div", undefined, "policy");
    const h = el("div");
    h.append(swatch(seatColor(st.seat)), el("b", `seat ${st.seat}`), ` ${st.agent}`);
    div.appendChild(h);
    div.appendChild(el("div", `value ${st.value >= 0 ? "+" : ""}${st.value.toFixed(3)}   plays ${actionText(st.chosen)}  p=${st.chosen.p.toFixed(3)}`, "value"));
    div.appendChild(valueTrace(p, f, st.seat));
    const t = el("table", undefined, "top");
    for (const a of st.top.slice(0, 8)) {
      const bar = el("span", undefined, "bar");
      bar.style.width = Math.max(1, Math.round(a.p * 100)) + "%";
      bar.style.background = seatColor(st.seat);
      const cell = el("span", undefined, "barbox");
      cell.appendChild(bar);
      const tr = row(t, [actionText(a), a.p.toFixed(3), cell]);
      if (a.action === st.chosen.action) tr.className = "chosen";
    }
    div.appendChild(t);
    div.appendChild(el("div", `${st.legal} legal actions`, "muted"));
    box.appendChild(div);
  }
  p.node.querySelector(".policiesbox").hidden = !(f.policies && f.policies.length);
}

// valueTrace draws seat's value estimates over the rounds the page holds
// up to f (at most 100), with the zero line, the current round's at the
// right end.
function valueTrace(p, f, seat) {
  const c = el("canvas", undefined, "trace");
  const W = 280, H = 44, dpr = window.devicePixelRatio || 1;
  c.width = W * dpr; c.height = H * dpr;
  c.style.width = W + "px"; c.style.height = H + "px";
  const ctx = c.getContext("2d");
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  const pts = [];
  for (let r = Math.max(0, f.round - 99); r <= f.round; r++) {
    const st = p.frames[r] && (p.frames[r].policies || []).find((x) => x.seat === seat);
    if (st) pts.push([r, st.value]);
  }
  ctx.fillStyle = C.floor;
  ctx.fillRect(0, 0, W, H);
  if (pts.length === 0) return c;
  let lo = Math.min(0, ...pts.map((q) => q[1])), hi = Math.max(0, ...pts.map((q) => q[1]));
  if (hi - lo < 1e-9) { lo -= 1; hi += 1; }
  const x = (r) => 4 + ((r - Math.max(0, f.round - 99)) / 99) * (W - 8);
  const y = (v) => H - 4 - ((v - lo) / (hi - lo)) * (H - 8);
  ctx.strokeStyle = C.grid;
  ctx.beginPath(); ctx.moveTo(0, y(0)); ctx.lineTo(W, y(0)); ctx.stroke();
  ctx.strokeStyle = seatColor(seat);
  ctx.lineWidth = 2;
  ctx.beginPath();
  pts.forEach(([r, v], i) => (i ? ctx.lineTo(x(r), y(v)) : ctx.moveTo(x(r), y(v))));
  ctx.stroke();
  label(ctx, `${hi.toFixed(2)}`, W - 4, 8, C.wall, 9, "right");
  label(ctx, `${lo.toFixed(2)}`, W - 4, H - 8, C.wall, 9, "right");
  return c;
}

// eventLog adds the events of frames that follow the last one logged:
// each seat's action (its native command), invalid actions, rewards,
// seats dying or forfeiting and the end.
function eventLog(p, f) {
  if (f.round <= p.logged) {
    if (f.round === 0) { p.log = []; p.logged = -1; } else return;
  }
  if (f.round !== p.logged + 1) {
    p.log.push([`… (rounds ${p.logged + 1}-${f.round - 1} not shown)`, "muted"]);
  }
  const prev = p.frames[f.round - 1];
  (f.actions || []).forEach((a, s) => {
    if (a.action === 0 && !a.invalid && !a.reward) return;
    p.log.push([`r${f.round - 1} seat ${s}: ${actionText(a)}${a.invalid ? " — invalid" : ""}${a.reward ? ` — reward ${a.reward}` : ""}`, a.invalid ? "bad" : "", s]);
  });
  if (prev) {
    const alive = new Map(((prev.result && prev.result.leaderboard) || []).map((s) => [s.seat, s.alive]));
    for (const s of (f.result && f.result.leaderboard) || []) {
      if (alive.get(s.seat) && !s.alive) p.log.push([`r${f.round} seat ${s.seat} (${s.name}) is out`, "bad", s.seat]);
    }
  }
  const forfeit = f.result && f.result.forfeit;
  if (forfeit) p.log.push([`r${f.round} seat ${forfeit.seat} forfeited`, "bad", forfeit.seat]);
  if (f.done) {
    const r = f.result || {};
    p.log.push([`r${f.round} over: ${r.draw ? "draw" : r.winner != null ? `seat ${r.winner} wins` : "no winner"}`, "end"]);
  }
  p.logged = f.round;
  if (p.log.length > LOG) p.log.splice(0, p.log.length - LOG);
  const ol = p.node.querySelector(".log");
  ol.textContent = "";
  for (const [text, cls, s] of p.log) {
    const li = el("li", undefined, cls);
    if (s !== undefined) li.appendChild(swatch(seatColor(s)));
    li.append(text);
    ol.appendChild(li);
  }
  ol.scrollTop = ol.scrollHeight;
}

// ---- replays ----

// opened shows a replay the server opened: answer of POST /api/replays.
function opened(r) {
  stop();
  tab("watch");
  const info = r.replay || {};
  describe(r.game, info.seed, info.agents);
  panes([{ id: r.id, game: r.game, seats: r.seats, rounds: r.rounds, replay: true, agents: info.agents, seed: info.seed }]);
  const how = r.mode === "replayed" ? "replayed from its actions" : "its recorded states (views and results as they hold them)";
  status(`replay ${info.path || ""}: ${r.game}, ${r.rounds} rounds, ${how}${r.note ? "; " + r.note : ""}`, r.warning);
  if (params.get("autoplay")) play(); else fetchFrame(app.panes[0], 0);
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

// loadList fills the table of the list id from the API path, fill writing
// its rows and the note beside it (noteId); without the server folder it
// lists (missing is the note saying so) it only writes the note.
async function loadList(id, noteId, missing, path, fill) {
  const tbody = $(id).querySelector("tbody");
  tbody.textContent = "";
  if (missing) {
    $(noteId).textContent = missing;
    return;
  }
  try {
    fill(tbody, $(noteId), await api(path));
  } catch (e) {
    status(e.message, true);
  }
}

function loadReplays() {
  const missing = !app.catalog.replays && "This server has no replays folder (botarena serve --replays-dir DIR). You can still open a recording file.";
  return loadList("replaylist", "replaynote", missing, "/api/replays", (tbody, note, list) => {
    note.textContent = list.replays.length ? (list.truncated ? "The list is cut short." : "") : "No replays in the replays folder yet.";
    for (const r of list.replays) {
      const size = !r.size ? "" : r.size < 1 << 20 ? Math.ceil(r.size / 1024) + " KiB" : (r.size / 1048576).toFixed(1) + " MiB";
      row(tbody, [r.path, r.kind, r.game || "", r.seed ?? "", size, new Date(r.modified).toLocaleString(),
        button("Open", () => openReplay({ path: r.path }))]);
    }
  });
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

function loadLeagues() {
  const missing = !app.catalog.leagues && "This server has no leagues folder (botarena serve --leagues-dir DIR).";
  return loadList("leaguelist", "leaguenote", missing, "/api/leagues", (tbody, note, list) => {
    note.textContent = list.leagues.length ? "" : "No leagues in the leagues folder yet (botarena league init DIR/NAME ...).";
    for (const l of list.leagues) {
      row(tbody, [l.name, l.game || "", l.agents, l.games, l.busy ? "running" : l.error || "",
        button("Show", () => showLeague(l.name))]);
    }
  });
}

// meanActions formats a league row's mean actions per game by kind (an
// object from kind to mean, in the game's order), the kinds chosen only.
function meanActions(m) {
  return Object.entries(m || {}).filter(([, n]) => n > 0).map(([k, n]) => `${k} ${n.toFixed(1)}`).join(", ");
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
        `${r.wins}/${r.draws}/${r.losses}`, (100 * r.win_rate).toFixed(1) + "%", meanActions(r.mean_actions), r.tag || ""]);
    }
    ratingsChart($("chart"), p);
    const games = $("recent").querySelector("tbody");
    games.textContent = "";
    for (const g of p.recent || []) {
      const seats = g.seats.map((s) => s.agent).join(" vs ");
      const winner = g.draw ? "draw" : g.winner != null ? g.seats[g.winner].agent : "none";
      row(games, [g.index, g.seed, seats, g.rounds, winner, g.watch ? button("Watch", () => startMatch(g.watch)) : "not built in"]);
    }
    $("recentbox").hidden = !(p.recent && p.recent.length);
    // ?league=NAME&watch=INDEX watches one of the last games again.
    if (params.has("watch") && !app.watched) {
      app.watched = true;
      const g = (p.recent || []).find((r) => String(r.index) === params.get("watch"));
      if (g && g.watch) startMatch(g.watch);
      else status(`game ${params.get("watch")} is not among the last games of ${p.name} that can be watched`, true);
    }
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

// draw draws state (frame f's, or a seat's view of it) on canvas of pane
// p. A drawer records where each seat's piece is (d.pos, in the game's
// cells) on the full board, for the trails of the next rounds.
function draw(p, canvas, f, state, seat) {
  const ctx = canvas.getContext("2d");
  const dpr = canvas.width / (parseFloat(canvas.style.width) || canvas.width);
  const base = f.game.split("/")[0];
  const names = {};
  for (const s of (f.result && f.result.leaderboard) || []) names[s.name] = s.seat;
  const d = { ctx, f, p, state, seat, names, w: canvas.width / dpr, h: canvas.height / dpr, pos: {} };
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.fillStyle = C.floor;
  ctx.fillRect(0, 0, d.w, d.h);
  $("slicebox").hidden = base !== "battlecube";
  try {
    (DRAW[base] || drawText)(d);
    if (seat < 0) f._pos = d.pos;
  } catch (e) {
    drawText({ ...d, state: "cannot draw: " + e.message });
  }
}

// trails draws, on the full board, each seat's way over the last TRAIL
// rounds (the positions the earlier frames recorded) as a fading line in
// its colour, ending where it is now; center maps a position to pixels.
function trails(d, center) {
  if (d.seat >= 0) return;
  const { ctx, f, p } = d;
  for (const [seat, now] of Object.entries(d.pos)) {
    let last = center(...now);
    for (let k = 1; k <= TRAIL; k++) {
      const g = p.frames[f.round - k];
      const at = g && g._pos && g._pos[seat];
      if (!at) break;
      const pt = center(...at);
      ctx.globalAlpha = 0.75 * (1 - (k - 1) / TRAIL);
      ctx.strokeStyle = seatColor(Number(seat));
      ctx.lineWidth = 3;
      ctx.beginPath(); ctx.moveTo(last[0], last[1]); ctx.lineTo(pt[0], pt[1]); ctx.stroke();
      disc(ctx, pt[0], pt[1], 3, seatColor(Number(seat)));
      last = pt;
    }
  }
  ctx.globalAlpha = 1;
}

// lastAction returns seat's action of the round that led to the frame, or
// undefined.
function lastAction(d, seat) {
  return d.f.actions && d.f.actions[seat];
}

// tag writes text in a small box of seat's colour above (x, y): the last
// action of a piece.
function tag(ctx, text, x, y, seat) {
  ctx.font = "bold 11px sans-serif";
  const w = ctx.measureText(text).width + 6;
  ctx.fillStyle = "rgba(16,16,16,0.8)";
  ctx.fillRect(x - w / 2, y - 8, w, 15);
  ctx.strokeStyle = seatColor(seat);
  ctx.lineWidth = 1;
  ctx.strokeRect(x - w / 2 + 0.5, y - 7.5, w - 1, 14);
  label(ctx, text, x, y, C.text, 11, "center");
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
      if (b.PowerUp && (b.PowerUp.$type || "").includes("Super")) {
        disc(ctx, x + c / 2, y + c / 2, c * 0.36, C.coin);
      } else if (b.PowerUp) {
        const t = b.PowerUp.$type || "";
        ctx.fillStyle = C.power;
        ctx.beginPath();
        ctx.moveTo(x + c / 2, y + 2); ctx.lineTo(x + c - 2, y + c / 2); ctx.lineTo(x + c / 2, y + c - 2); ctx.lineTo(x + 2, y + c / 2);
        ctx.fill();
        label(ctx, t.includes("Bag") ? "B" : "R", x + c / 2, y + c / 2, C.bomb, Math.max(7, c * 0.5), "center");
      }
      if (b.Bomb) {
        disc(ctx, x + c / 2, y + c / 2, c * 0.38, C.bomb, b.Bomb.Owner ? seatColor(b.Bomb.Owner.Key.charCodeAt(0) - 65) : null);
        label(ctx, String(b.Bomb.BombTimer), x + c / 2, y + c / 2, C.fire, Math.max(7, c * 0.45), "center");
      }
    }
  }
  const items = [];
  for (const p of s.RegisteredPlayerEntities) {
    if (!p.Killed) d.pos[p.Key.charCodeAt(0) - 65] = [p.Location.X - 1, p.Location.Y - 1];
  }
  trails(d, (x, y) => { const [px, py] = g.at(x, y); return [px + c / 2, py + c / 2]; });
  for (const p of s.RegisteredPlayerEntities) {
    const seat = p.Key.charCodeAt(0) - 65;
    items.push([p.Killed ? C.dead : seatColor(seat), `${p.Key} ${p.Points}`]);
    if (p.Killed) continue;
    const [x, y] = g.at(p.Location.X - 1, p.Location.Y - 1);
    disc(ctx, x + c / 2, y + c / 2, c * 0.42, seatColor(seat), C.text);
    label(ctx, p.Key, x + c / 2, y + c / 2, C.bomb, Math.max(7, c * 0.5), "center");
  }
  const y0 = g.oy + H * c + 14;
  label(ctx, `round ${d.f.round}   bounty ${s.PlayerBounty}`, 8, y0, C.text, 13);
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
    disc(ctx, x, y, c * 0.22, C.bomb, m.dead ? C.dead : seatColor(who[m.by]));
  }
  const DIRS = { N: [0, -1], NE: [1, -1], E: [1, 0], SE: [1, 1], S: [0, 1], SW: [-1, 1], W: [-1, 0], NW: [-1, -1] };
  const bots = [];
  rows.forEach((row, y) => [...row].forEach((ch, x) => {
    if (ch === "Y" || ch === "X") { bots.push([ch, x, y]); d.pos[who[ch]] = [x, y]; }
  }));
  trails(d, center);
  for (const [ch, x, y] of bots) {
    const [px, py] = center(x, y);
    const alive = (info.hp[ch] ?? 1) > 0;
    // While an EMP paralyses the movement phases, both bots in a cyan
    // halo, as the game's picture has them.
    if (info.paralysed > 0) disc(ctx, px, py, c * 0.49, C.power);
    disc(ctx, px, py, c * 0.41, alive ? seatColor(who[ch]) : C.dead, alive ? null : seatColor(who[ch]));
    label(ctx, String(info.hp[ch] ?? ""), px, py, C.text, c * 0.4, "center");
  }
  for (const p of info.shots) {
    const [x, y] = center(p.x, p.y);
    const [dx, dy] = DIRS[p.dir] || [0, 0];
    const color = p.k === "M" ? C.fire : C.text;
    ctx.strokeStyle = color;
    ctx.lineWidth = p.k === "M" ? 5 : 3;
    ctx.beginPath();
    ctx.moveTo(x - dx * c * 0.35, y - dy * c * 0.35);
    ctx.lineTo(x + dx * c * 0.35, y + dy * c * 0.35);
    ctx.stroke();
    disc(ctx, x + dx * c * 0.35, y + dy * c * 0.35, p.k === "M" ? c * 0.14 : c * 0.09, color);
  }
  // Each bot's last action (its native command: a move, a shot, a mine,
  // P for the EMP) above it.
  if (d.seat < 0) {
    for (const [ch, x, y] of bots) {
      const a = lastAction(d, who[ch]);
      if (!a || a.action === 0) continue;
      const [px, py] = center(x, y);
      tag(ctx, a.command || a.name, px, py - c * 0.62, who[ch]);
    }
  }
  const yb = g.oy + (side + 2) * c + 14;
  label(ctx, `round ${d.f.round}${info.paralysed ? `   EMP: movement paralysed ${info.paralysed}` : ""}`, 8, yb, info.paralysed ? C.power : C.text, 13);
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
  const ox = Math.max(10, Math.floor((d.w - 2 * dim * cell - 20) / 2));
  boards.forEach((b, i) => {
    b.marks = shipsMarks(d, b.seat);
    drawShipsBoard(d, b, dim, cell, ox + i * (dim * cell + 20), 40);
  });
  label(d.ctx, `round ${d.f.round}   phase ${s.Phase}`, ox, dim * cell + 60, C.text, 13);
}

// shipsMarks returns what is marked on the board of seat: the cells the
// other seat's last command aimed at ("code,x,y", code > 0) and, for a
// policy playing the other seat, its probability of aiming at each cell
// (its most probable actions, summed over weapons) and the cell it plays;
// on a seat's own board, the ship its placement command puts ("Ship x y
// dir"). Battleships' native commands are "code,x,y" and "Ship x y dir".
function shipsMarks(d, seat) {
  const marks = { shots: [], probs: new Map(), chosen: null, by: 1 - seat };
  const shot = (cmd) => { const m = /^(\d+),(-?\d+),(-?\d+)$/.exec(cmd || ""); return m && m[1] !== "0" ? [+m[2], +m[3]] : null; };
  const place = (cmd) => { const m = /^\w+ (\d+) (\d+) \w+$/.exec(cmd || ""); return m ? [+m[1], +m[2]] : null; };
  const other = lastAction(d, 1 - seat), own = lastAction(d, seat);
  const hit = other && shot(other.command), put = own && place(own.command);
  if (hit) marks.shots.push([...hit, 1 - seat]);
  if (put) marks.shots.push([...put, seat]);
  for (const st of d.f.policies || []) {
    const target = st.seat === seat ? place : (st.seat === 1 - seat ? shot : null);
    if (!target) continue;
    for (const a of st.top) {
      const c = target(a.command);
      if (c) { const k = c.join(","); marks.probs.set(k, (marks.probs.get(k) || 0) + a.p); }
    }
    marks.chosen = target(st.chosen.command);
    marks.by = st.seat;
  }
  return marks;
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
    // As the game's picture (and its key) draws them: a hit as a fire
    // disc, a miss as a grey dot.
    if (hit) {
      disc(ctx, x + c / 2, y + c / 2, c * 0.3, C.fire);
    } else if (miss) {
      disc(ctx, x + c / 2, y + c / 2, Math.max(2, c * 0.15), C.wall);
    }
    if (cl.ShieldHit) disc(ctx, x + c / 2, y + c / 2, c * 0.3, "rgba(0,0,0,0)", C.power);
  }
  // A policy's probabilities of aiming at each cell, then the cell it
  // plays (a white frame) and the last command's cell (a ring).
  const mk = b.marks || { shots: [], probs: new Map() };
  const top = Math.max(0, ...mk.probs.values());
  for (const [k, p] of mk.probs) {
    const [cx, cy] = k.split(",").map(Number);
    if (p < 0.005 || cx < 0 || cy < 0 || cx >= dim || cy >= dim) continue;
    const [x, y] = cellAt(cx, cy);
    ctx.globalAlpha = 0.15 + 0.6 * (p / top);
    ctx.fillStyle = seatColor(mk.by);
    ctx.fillRect(x + 1, y + 1, c - 2, c - 2);
    ctx.globalAlpha = 1;
    if (c >= 26) label(ctx, (100 * p).toFixed(0) + "%", x + c / 2, y + c - 8, C.text, 10, "center");
  }
  if (mk.chosen) {
    const [x, y] = cellAt(...mk.chosen);
    ctx.strokeStyle = C.text;
    ctx.lineWidth = 3;
    ctx.strokeRect(x + 2, y + 2, c - 4, c - 4);
  }
  for (const [cx, cy, by] of mk.shots) {
    if (cx < 0 || cy < 0 || cx >= dim || cy >= dim) continue;
    const [x, y] = cellAt(cx, cy);
    disc(ctx, x + c / 2, y + c / 2, c * 0.42, "rgba(0,0,0,0)", seatColor(by));
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
  for (const [seat, p] of players) if (p && p.alive && p.x >= 0) d.pos[seat] = [p.x, p.y];
  trails(d, (x, y) => { const [px, py] = g.at(x, y); return [px + c / 2, py + c / 2]; });
  for (const [seat, p] of players) {
    if (!p) continue;
    items.push([p.alive ? seatColor(seat) : C.dead, `seat ${seat}: ${p.coins} coins, bombs ${p.bombCount} range ${p.bombRange} pierce ${p.bombPierce}`]);
    if (!p.alive || p.x < 0) continue;
    const [x, y] = g.at(p.x, p.y);
    disc(ctx, x + c / 2, y + c / 2, c * 0.4, seatColor(seat), C.text);
    const [dx, dy] = [[0, -1], [1, 0], [0, 1], [-1, 0]][p.orientation] || [0, 0];
    disc(ctx, x + c / 2 + dx * c * 0.28, y + c / 2 + dy * c * 0.28, c * 0.1, C.text);
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
  for (const t of things) if (t.kind === "player") d.pos[t.seat] = [t.x, t.y, t.z];
  trails(d, (x, y, z) => { const q = proj(x, y, z); return [q.x, q.y]; });
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

function redraw() { for (const p of app.panes) if (p.cur >= 0) show(p, p.cur); }

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
  $("game").addEventListener("change", () => seatPickers());
  $("compare").addEventListener("change", () => { $("seatsB").hidden = !$("compare").checked; });
  $("start").addEventListener("submit", (e) => { e.preventDefault(); startMatch(); });
  $("play").addEventListener("click", () => (app.playing ? stop() : play()));
  $("step").addEventListener("click", step);
  $("seek").addEventListener("change", seek);
  $("speed").addEventListener("change", () => { if (app.playing) { stop(); play(); } });
  $("seat").addEventListener("change", () => {
    app.seat = Number($("seat").value);
    if (app.playing) { stop(); play(); }
    layout();
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
  let resizing = null;
  window.addEventListener("resize", () => {
    clearTimeout(resizing);
    resizing = setTimeout(() => { layout(); redraw(); }, 100);
  });
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
