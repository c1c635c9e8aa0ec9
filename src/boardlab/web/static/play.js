// The play page: set up seats, click to move, watch agents. No build step, no framework.
"use strict";

let games = [];        // /api/games
let agents = [];       // /api/agents
let current = null;    // the game as the server last described it
let selected = null;   // the cell clicked first, waiting for a target
let autoTimer = null;  // auto-play of agent moves
// Pause before an agent answers, so a person sees each move; `?delay=0` for tests.
const AGENT_DELAY_MS = parseInt(new URLSearchParams(location.search).get("delay") ?? "250", 10);

function setBusy(busy) { document.body.dataset.busy = busy ? "1" : "0"; }

async function init() {
  [games, agents] = await Promise.all([api("GET", "/api/games"), api("GET", "/api/agents")]);
  const select = document.getElementById("game");
  for (const game of games) {
    const option = el("option", { value: game.name, text: game.loads ? game.name : `${game.name} (not available yet)` });
    if (!game.loads) option.disabled = true;
    select.append(option);
  }
  select.addEventListener("change", buildSeats);
  document.getElementById("game-params").addEventListener("change", buildSeats);
  buildSeats();
  document.getElementById("start").addEventListener("click", start);
  document.getElementById("undo").addEventListener("click", () => command("undo"));
  document.getElementById("resign").addEventListener("click", () => command("resign"));
  document.getElementById("new").addEventListener("click", () => command("new"));
  document.getElementById("step").addEventListener("click", stepAgent);
  document.getElementById("auto").addEventListener("click", toggleAuto);
  document.getElementById("move-play").addEventListener("click", playTyped);
  document.getElementById("move-text").addEventListener("keydown", (e) => { if (e.key === "Enter") playTyped(); });
  document.getElementById("board").addEventListener("click", onBoardClick);
  const params = new URLSearchParams(location.search);
  if (params.get("game")) { select.value = params.get("game"); buildSeats(); }
}

function buildSeats() {
  const game = games.find((g) => g.name === document.getElementById("game").value);
  const box = document.getElementById("seats");
  box.innerHTML = "";
  // A game whose player count is a parameter (Sequence's num_players=4) gets that many seats.
  const asked = /(?:^|,)\s*num_players\s*=\s*(\d+)/.exec(document.getElementById("game-params").value);
  const players = asked ? Math.min(8, parseInt(asked[1], 10)) : game && game.players ? game.players : 2;
  for (let seat = 0; seat < players; seat++) {
    const kind = el("select", { id: `seat-${seat}` });
    kind.append(el("option", { value: "human", text: "human" }));
    for (const agent of agents) {
      if (agent.loads && agent.name !== "human") kind.append(el("option", { value: agent.name, text: agent.name }));
    }
    kind.value = seat === 0 ? "human" : "random";
    const params = el("input", { id: `seat-${seat}-params`, placeholder: "parameters, e.g. depth=2" });
    box.append(el("div", { class: "seat-row" }, el("label", { for: `seat-${seat}`, text: `Seat ${seat}` }), kind, params));
  }
}

function seatSpecs() {
  const specs = [];
  for (let seat = 0; document.getElementById(`seat-${seat}`); seat++) {
    const name = document.getElementById(`seat-${seat}`).value;
    const params = document.getElementById(`seat-${seat}-params`).value.trim();
    specs.push(params && name !== "human" ? `${name}:${params}` : name);
  }
  return specs;
}

async function start() {
  stopAuto();
  const name = document.getElementById("game").value;
  const params = document.getElementById("game-params").value.trim();
  const body = { game: params ? `${name}:${params}` : name, seats: seatSpecs(),
                 seed: parseInt(document.getElementById("seed").value || "0", 10) };
  await run(() => api("POST", "/api/games", body));
}

// Every request goes through here: one at a time, errors shown, the page redrawn.
async function run(request) {
  setBusy(true);
  try {
    const data = await request();
    showError(null);
    if (data) show(data);
  } catch (error) {
    showError(error);
    stopAuto();
  } finally {
    setBusy(false);
  }
  if (current && !current.over && current.to_move_kind === "agent" && current.humans.length > 0) {
    // Playing against an agent: let it answer by itself, with a short pause to see it.
    setTimeout(() => stepAgent(), AGENT_DELAY_MS);
  }
}

function command(name) {
  if (!current) return;
  stopAuto();
  return run(() => api("POST", `/api/games/${current.id}/${name}`, {}));
}

function stepAgent() {
  if (!current || current.over || current.to_move_kind !== "agent") return;
  if (document.body.dataset.busy === "1") return;
  return run(() => api("POST", `/api/games/${current.id}/agent-move`));
}

function toggleAuto() {
  if (autoTimer) { stopAuto(); return; }
  document.getElementById("auto").textContent = "Stop";
  autoTimer = setInterval(() => {
    if (!current || current.over || current.to_move_kind !== "agent") { stopAuto(); return; }
    stepAgent();
  }, Math.max(100, AGENT_DELAY_MS * 2));
}

function stopAuto() {
  if (autoTimer) clearInterval(autoTimer);
  autoTimer = null;
  document.getElementById("auto").textContent = "Auto-play";
}

function play(action) {
  selected = null;
  return run(() => api("POST", `/api/games/${current.id}/move`, { action }));
}

function playTyped() {
  const text = document.getElementById("move-text").value.trim();
  if (!current || !text) return;
  document.getElementById("move-text").value = "";
  return run(() => api("POST", `/api/games/${current.id}/move`, { move: text }));
}

function show(data) {
  current = data;
  selected = null;
  const board = document.getElementById("board");
  showBoard(board, data);
  board.dataset.ply = data.ply;
  board.dataset.game = data.game;
  const status = document.getElementById("status");
  status.dataset.over = data.over ? "1" : "0";
  status.dataset.turn = data.to_move_kind || "";
  if (data.over) {
    status.textContent = `Game over: ${data.result.text}.`;
  } else {
    const who = data.seats[data.to_move];
    status.textContent = `Move ${data.ply + 1}: seat ${data.to_move} (${who}) to move` +
      (data.to_move_kind !== "human" ? "." : data.renderer
        ? ": click a piece then its target, or a square." : ": choose a move below.");
  }
  const info = document.getElementById("agent-info");
  if (data.agent) {
    const details = Object.entries(data.agent.info || {})
      .map(([k, v]) => `${k} ${typeof v === "number" ? +v.toFixed(3) : v}`).join(", ");
    info.textContent = `${data.agent.spec} (seat ${data.agent.seat}) played ${data.agent.move} ` +
      `after ${data.agent.seconds.toFixed(3)} s of thinking` + (details ? ` — ${details}` : "");
  } else {
    info.textContent = "";
  }
  document.getElementById("undo").disabled = !data.can_undo;
  document.getElementById("resign").disabled = data.over || data.humans.length === 0;
  document.getElementById("new").disabled = false;
  const agentTurn = !data.over && data.to_move_kind === "agent";
  document.getElementById("step").disabled = !agentTurn;
  document.getElementById("auto").disabled = !agentTurn && !autoTimer;
  document.getElementById("move-play").disabled = data.over || data.to_move_kind !== "human";
  showHistory(data);
  markMovable();
}

function showHistory(data) {
  const list = document.getElementById("history-list");
  list.innerHTML = "";
  const entries = [];
  for (const step of data.history) {
    if (step.mover === -1) {  // a chance outcome: shown with the move that caused it
      if (entries.length) entries[entries.length - 1].text += ` → ${step.notation}`;
      continue;
    }
    entries.push({ text: `seat ${step.mover}: ${step.notation}`, seconds: step.seconds });
  }
  for (const entry of entries) {
    const time = entry.seconds !== null && entry.seconds !== undefined ? ` (${entry.seconds.toFixed(2)} s)` : "";
    list.append(el("li", { text: entry.text + time }));
  }
  if (list.lastElementChild) list.lastElementChild.classList.add("current");
  list.parentElement.scrollTop = list.parentElement.scrollHeight;
}

function cellsOf(element) { return element.querySelectorAll("g.cell"); }

// Mark the cells where a legal move starts; moves with no cells (a pass) become buttons.
function markMovable() {
  const extra = document.getElementById("extra-moves");
  extra.innerHTML = "";
  if (!current || current.over || current.to_move_kind !== "human") return;
  const starts = new Set();
  const singles = new Set();  // one-click moves: a placement, a reveal
  for (const move of current.legal) {
    if (move.cells.length > 0) starts.add(move.cells[0]);
    else extra.append(moveButton(move));
    if (move.cells.length === 1) singles.add(move.cells[0]);
  }
  for (const cell of cellsOf(document.getElementById("board"))) {
    const index = parseInt(cell.dataset.cell, 10);
    delete cell.dataset.target;
    delete cell.dataset.selected;
    if (starts.has(index)) cell.dataset.movable = "1"; else delete cell.dataset.movable;
    if (singles.has(index)) cell.dataset.place = "1"; else delete cell.dataset.place;
  }
}

function moveButton(move) {
  return el("button", { "data-action": move.id, onclick: () => play(move.id), text: move.notation });
}

function select(cell) {
  selected = cell;
  const targets = new Set(current.legal.filter((m) => m.cells.length >= 2 && m.cells[0] === cell).map((m) => m.cells[1]));
  for (const node of cellsOf(document.getElementById("board"))) {
    const index = parseInt(node.dataset.cell, 10);
    if (index === cell) node.dataset.selected = "1"; else delete node.dataset.selected;
    if (targets.has(index)) node.dataset.target = "1"; else delete node.dataset.target;
  }
}

function choose(moves) {
  if (moves.length === 1) return play(moves[0].id);
  // Several moves share these cells (a promotion choice, say): let the person pick.
  const extra = document.getElementById("extra-moves");
  extra.innerHTML = "";
  for (const move of moves) extra.append(moveButton(move));
}

function onBoardClick(event) {
  const node = event.target.closest("g.cell");
  if (!node || !current || current.over || current.to_move_kind !== "human") return;
  if (document.body.dataset.busy === "1") return;
  const cell = parseInt(node.dataset.cell, 10);
  const single = current.legal.filter((m) => m.cells.length === 1 && m.cells[0] === cell);
  const starting = current.legal.filter((m) => m.cells.length >= 2 && m.cells[0] === cell);
  if (selected !== null) {
    const moves = current.legal.filter((m) => m.cells.length >= 2 && m.cells[0] === selected && m.cells[1] === cell);
    if (moves.length) return choose(moves);
    if (cell === selected && single.length) return choose(single);
  }
  if (starting.length) return select(cell);
  if (single.length) return choose(single);
  selected = null;
  markMovable();
}

init().catch(showError);
