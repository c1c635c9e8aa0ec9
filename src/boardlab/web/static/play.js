// The play page: set up seats, click to move, watch agents and what they think.
// No build step, no framework.
"use strict";

let games = [];        // /api/games
let agents = [];       // /api/agents
let current = null;    // the game as the server last described it
let selected = null;   // the cell clicked first, waiting for a target
let autoTimer = null;  // auto-play of agent moves
// Pause before an agent answers, so a person sees each move; `?delay=0` for tests.
const AGENT_DELAY_MS = parseInt(new URLSearchParams(location.search).get("delay") ?? "250", 10);

function setBusy(busy) { document.body.dataset.busy = busy ? "1" : "0"; }
function byId(id) { return document.getElementById(id); }

async function init() {
  [games, agents] = await Promise.all([api("GET", "/api/games"), api("GET", "/api/agents")]);
  const select = byId("game");
  for (const game of games) {
    const option = el("option", { value: game.name, text: game.loads ? game.name : `${game.name} (not available yet)` });
    if (!game.loads) option.disabled = true;
    select.append(option);
  }
  select.addEventListener("change", buildSetup);
  byId("start").addEventListener("click", start);
  byId("undo").addEventListener("click", () => command("undo"));
  byId("resign").addEventListener("click", resign);
  byId("new").addEventListener("click", () => command("new"));
  byId("step").addEventListener("click", stepAgent);
  byId("auto").addEventListener("click", toggleAuto);
  byId("move-play").addEventListener("click", playTyped);
  byId("move-text").addEventListener("keydown", (e) => { if (e.key === "Enter") playTyped(); });
  byId("board").addEventListener("click", onBoardClick);
  for (const id of ["show-heat", "show-pv", "heat-kind"]) byId(id).addEventListener("change", showThinkingLayers);
  const params = new URLSearchParams(location.search);
  if (params.get("game")) select.value = params.get("game");
  buildSetup();
}

function chosenGame() { return games.find((g) => g.name === byId("game").value); }

function buildSetup() {
  const game = chosenGame();
  const box = byId("game-params");
  box.innerHTML = "";
  const params = game && game.params ? game.params : [];
  box.append(params.length ? paramFields(params, "game-p", buildSeats) : el("span", { class: "caption", text: "none" }));
  buildSeats();
}

function buildSeats() {
  const game = chosenGame();
  const box = byId("seats");
  const before = seatSpecs();
  box.innerHTML = "";
  // A game whose player count is a parameter (num_players) gets that many seats.
  const asked = parseInt((byId("game-p-num_players") || {}).value || "", 10);
  const players = asked >= 1 ? Math.min(8, asked) : game && game.players ? game.players : 2;
  for (let seat = 0; seat < players; seat++) {
    const kind = el("select", { id: `seat-${seat}` });
    kind.append(el("option", { value: "human", text: "human" }));
    for (const agent of agents) {
      if (!agent.loads || agent.name === "human") continue;
      // A learned agent without shipped weights for this game would stop at its first move:
      // say so in the list (it still plays with weights=FILE or weights=none).
      const missing = game && agent.weights && agent.weights[game.name] === false;
      kind.append(el("option", {
        value: agent.name,
        text: missing ? `${agent.name} (no weights for ${game.name})` : agent.name,
        title: missing ? `BoardLab ships no ${agent.name} weights for ${game.name}: give weights=FILE, or train them (boardlab train)` : "",
      }));
    }
    kind.value = before[seat] ? before[seat].split(":")[0] : seat === 0 ? "human" : "random";
    const details = el("details", { id: `seat-${seat}-details` }, el("summary", { text: "parameters" }));
    const fill = () => {
      details.querySelector(".params")?.remove();
      const agent = agents.find((a) => a.name === kind.value);
      const params = agent && agent.params ? agent.params : [];
      details.hidden = params.length === 0;
      details.append(paramFields(params, `seat-${seat}-p`));
    };
    kind.addEventListener("change", fill);
    fill();
    box.append(el("div", { class: "seat-row" }, el("label", { for: `seat-${seat}`, text: `Seat ${seat}` }), kind, details));
  }
}

function seatSpecs() {
  const specs = [];
  for (let seat = 0; byId(`seat-${seat}`); seat++) {
    const name = byId(`seat-${seat}`).value;
    const params = paramText(byId(`seat-${seat}-details`));
    specs.push(params && name !== "human" ? `${name}:${params}` : name);
  }
  return specs;
}

async function start() {
  stopAuto();
  const name = byId("game").value;
  const params = paramText(byId("game-params"));
  const body = { game: params ? `${name}:${params}` : name, seats: seatSpecs(),
                 seed: parseInt(byId("seed").value || "0", 10) };
  await run(() => api("POST", "/api/games", body), clearGame);
}

// A refused start leaves no game on the board: the old one must not pose as the new one.
function clearGame() {
  current = null;
  byId("board").innerHTML = "";
  byId("history-list").innerHTML = "";
  byId("extra-moves").innerHTML = "";
  byId("you").textContent = "";
  byId("status").textContent = "Not started: the server refused the setup (see below).";
  byId("status").dataset.over = "0";
  showThinking(null);
  for (const id of ["undo", "resign", "new", "step", "auto", "move-play"]) byId(id).disabled = true;
}

// Every request goes through here: one at a time, errors shown, the page redrawn.
async function run(request, onError) {
  setBusy(true);
  try {
    const data = await request();
    showError(null);
    if (data) show(data);
  } catch (error) {
    showError(error);
    stopAuto();
    if (onError) onError();
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

function resign() {
  if (!current || current.over) return;
  const seat = current.humans.includes(current.to_move) ? current.to_move : current.humans[0];
  if (!confirm(`Resign this game as ${current.names[seat]} (seat ${seat})?`)) return;
  return command("resign");
}

function stepAgent() {
  if (!current || current.over || current.to_move_kind !== "agent") return;
  if (document.body.dataset.busy === "1") return;
  return run(() => api("POST", `/api/games/${current.id}/agent-move`));
}

function toggleAuto() {
  if (autoTimer) { stopAuto(); return; }
  byId("auto").textContent = "Stop";
  autoTimer = setInterval(() => {
    if (!current || current.over || current.to_move_kind !== "agent") { stopAuto(); return; }
    stepAgent();
  }, Math.max(100, AGENT_DELAY_MS * 2));
}

function stopAuto() {
  if (autoTimer) clearInterval(autoTimer);
  autoTimer = null;
  byId("auto").textContent = "Auto-play";
}

function play(action) {
  selected = null;
  return run(() => api("POST", `/api/games/${current.id}/move`, { action }));
}

function playTyped() {
  const text = byId("move-text").value.trim();
  if (!current || !text) return;
  byId("move-text").value = "";
  return run(() => api("POST", `/api/games/${current.id}/move`, { move: text }));
}

// What a person does now, from the kinds of moves on offer.
function moveHint(data) {
  if (!data.renderer) return "choose a move below.";
  if (data.legal.some((m) => m.cells.length >= 2)) return "click a piece, then its target.";
  if (data.legal.some((m) => m.cells.length === 1)) return "click a marked square.";
  return "choose one of the moves under the board.";
}

function show(data) {
  current = data;
  selected = null;
  const board = byId("board");
  showBoard(board, data);
  board.dataset.ply = data.ply;
  board.dataset.game = data.game;
  const status = byId("status");
  status.dataset.over = data.over ? "1" : "0";
  status.dataset.turn = data.to_move_kind || "";
  if (data.over) {
    status.textContent = `Game over: ${data.result.text}.`;
  } else {
    const seat = data.to_move;
    const who = `${data.names[seat]} (${data.seats[seat]}, seat ${seat})`;
    status.textContent = `Move ${data.ply + 1}: ${who} to move` +
      (data.to_move_kind === "human" ? `: ${moveHint(data)}` : ".");
  }
  const humans = data.humans.map((s) => `${data.names[s]} (seat ${s})`);
  byId("you").textContent = humans.length === 1 ? `You play ${humans[0]}.`
    : humans.length > 1 ? `People play ${humans.join(" and ")}, sharing this screen.`
    : "You are watching agents play.";
  if (data.store_error) showError(data.store_error);
  showThinking(data);
  byId("undo").disabled = !data.can_undo;
  byId("resign").disabled = data.over || data.humans.length === 0;
  byId("new").disabled = false;
  const agentTurn = !data.over && data.to_move_kind === "agent";
  byId("step").disabled = !agentTurn;
  byId("auto").disabled = !agentTurn && !autoTimer;
  byId("move-play").disabled = data.over || data.to_move_kind !== "human";
  showHistory(data);
  markMovable();
}

// An agent's report as text: numbers rounded, a move -> count table as `d3 40, c4 30`.
function infoText(value) {
  if (typeof value === "number") return String(+value.toPrecision(4));
  if (Array.isArray(value)) return value.map(infoText).join(" ");
  if (value && typeof value === "object") {
    const entries = Object.entries(value);
    return entries.length ? entries.map(([k, v]) => `${k} ${infoText(v)}`).join(", ") : "-";
  }
  return String(value);
}

function showThinking(data) {
  const info = byId("agent-info");
  const graph = byId("value-graph");
  const kinds = byId("heat-kind");
  info.innerHTML = "";
  graph.innerHTML = data && data.value_graph ? data.value_graph : "";
  const agent = data ? data.agent : null;
  kinds.innerHTML = "";
  if (!agent) {
    info.textContent = "No agent has moved yet.";
    return;
  }
  for (const kind of agent.heat_kinds) kinds.append(el("option", { value: kind, text: kind }));
  kinds.hidden = agent.heat_kinds.length < 2;
  info.append(el("div", { class: "played", text: `${agent.spec} (${agent.name}, seat ${agent.seat}) played ` +
    `${agent.move} after ${agent.seconds.toFixed(3)} s of thinking` }));
  if (typeof agent.value === "number") {
    info.append(el("div", { text: `value for ${agent.name}: ${infoText(agent.value)}` }));
  }
  if (agent.pv.length) info.append(el("div", { class: "pv-text", text: `expected line: ${agent.pv.join("  ")}` }));
  for (const [kind, moves] of Object.entries(agent.off_board || {})) {
    info.append(el("div", { text: `${kind} off the board: ${moves.join(", ")}` }));
  }
  const details = Object.entries(agent.info || {}).filter(([k]) => k !== "value" && k !== "seconds");
  if (details.length) {
    const list = el("dl", { class: "details" });
    for (const [key, value] of details) list.append(el("dt", { text: key }), el("dd", { text: infoText(value) }));
    info.append(list);
  }
  if (!data.thinking_on_board && agent.heat_kinds.length) {
    info.append(el("div", { class: "caption", text: "(the board has changed since: its heat map and line are not drawn)" }));
  }
  showThinkingLayers();
}

// The server draws every heat layer and the line; the toggles choose what is seen.
function showThinkingLayers() {
  const board = byId("board");
  const kind = byId("heat-kind").value;
  board.classList.toggle("hide-heat", !byId("show-heat").checked);
  board.classList.toggle("hide-pv", !byId("show-pv").checked);
  for (const layer of board.querySelectorAll("g.heat")) {
    layer.style.display = !kind || layer.dataset.kind === kind ? "" : "none";
  }
}

function showHistory(data) {
  const list = byId("history-list");
  list.innerHTML = "";
  for (const move of data.moves) {
    const time = move.seconds !== null && move.seconds !== undefined ? ` (${move.seconds.toFixed(2)} s)` : "";
    list.append(el("li", { class: `side-${move.mover}`, text: `${move.name}: ${move.text}${time}` }));
  }
  if (list.lastElementChild) {
    list.lastElementChild.classList.add("current");
    list.lastElementChild.scrollIntoView({ block: "nearest" });
  }
}

function cellsOf(element) { return element.querySelectorAll("g.cell"); }

// Mark the cells where a legal move starts; moves with no cells (a pass) become buttons.
function markMovable() {
  const extra = byId("extra-moves");
  extra.innerHTML = "";
  if (!current || current.over || current.to_move_kind !== "human") return;
  const starts = new Set();
  const singles = new Set();  // one-click moves: a placement, a reveal
  for (const move of current.legal) {
    if (move.cells.length > 0) starts.add(move.cells[0]);
    else extra.append(moveButton(move));
    if (move.cells.length === 1) singles.add(move.cells[0]);
  }
  for (const cell of cellsOf(byId("board"))) {
    const index = parseInt(cell.dataset.cell, 10);
    delete cell.dataset.target;
    delete cell.dataset.selected;
    if (starts.has(index)) cell.dataset.movable = "1"; else delete cell.dataset.movable;
    if (singles.has(index)) cell.dataset.place = "1"; else delete cell.dataset.place;
  }
}

function moveButton(move) {
  return el("button", { "data-action": move.id, title: move.notation, onclick: () => play(move.id), text: move.label || move.notation });
}

function select(cell) {
  selected = cell;
  const targets = new Set(current.legal.filter((m) => m.cells.length >= 2 && m.cells[0] === cell).map((m) => m.cells[1]));
  for (const node of cellsOf(byId("board"))) {
    const index = parseInt(node.dataset.cell, 10);
    if (index === cell) node.dataset.selected = "1"; else delete node.dataset.selected;
    if (targets.has(index)) node.dataset.target = "1"; else delete node.dataset.target;
  }
}

function choose(moves) {
  if (moves.length === 1) return play(moves[0].id);
  // Several moves share these cells (a promotion choice, say): let the person pick.
  const extra = byId("extra-moves");
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
