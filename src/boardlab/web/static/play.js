// The play page: set up seats, click to move, watch agents and what they think.
// No build step, no framework.
//
// Every game has an address, /play/<id>: the page opens the game there (a reload resumes it,
// a second tab follows it) and follows it with server-sent events (/api/games/<id>/events),
// so every page at the address shows each change within a tenth of a second. The page shows
// what the server says: a move goes out with the move number it was made on, and after any
// refusal the page takes the server's position again. While an agent thinks, no way to move
// is open (board, notation box, buttons).
//
// The analysis board shows any past position (a click in the move list), and side lines from
// it: moves tried there are played on the server's copy of that position (POST .../line),
// never in the game. A move that arrives on the live board is animated (skipped when the
// person asks for reduced motion) in an overlay, so the board's own SVG stays the server's.
"use strict";

let games = [];        // /api/games
let agents = [];       // /api/agents
let current = null;    // the game as the server last described it
let selected = null;   // the cell clicked first, waiting for a target
let autoTimer = null;  // auto-play of agent moves
let askTimer = null;   // the pause before this page asks an agent to move
let following = null;  // the EventSource that follows the game at its address
let thinkingTick = null;  // redraws the thinking time
let thinkingFrom = 0;     // performance.now() when the agent started, as this page reckons
let viewing = null;    // the analysis board: the ply shown, null while the board is the game's
let flip = false;      // the board turned round from the game's way
let clockTick = null;  // redraws the running clock
let line = null;       // a side line on the analysis board: {ply, moves: [notation], data}
let drawnLive = null;  // {id, ply} of the live board drawn last: a move onto it is animated
const MOVE_MS = 160;   // how long a move glides
const REDUCED_MOTION = window.matchMedia("(prefers-reduced-motion: reduce)");
// Pause before an agent answers, so a person sees each move; `?delay=0` for tests.
const AGENT_DELAY_MS = parseInt(new URLSearchParams(location.search).get("delay") ?? "250", 10);

function byId(id) { return document.getElementById(id); }
function setBusy(busy) { document.body.dataset.busy = busy ? "1" : "0"; updateControls(); }
function isBusy() { return document.body.dataset.busy === "1"; }

// Whether a person may move now: the server says a human is to move, no agent thinks, no
// request of this page is on its way, and the board shows the game as it stands.
function canMove() {
  return !!current && !current.over && current.to_move_kind === "human" && !current.thinking &&
    !isBusy() && viewing === null;
}

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
  byId("step").addEventListener("click", () => stepAgent(false));
  byId("auto").addEventListener("click", toggleAuto);
  byId("move-play").addEventListener("click", playTyped);
  byId("move-text").addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); playTyped(); } });
  byId("board").addEventListener("click", onBoardClick);
  byId("stop").addEventListener("click", stopThinking);
  byId("view-first").addEventListener("click", () => viewPly(0));
  byId("view-back").addEventListener("click", () => viewPly(shownPly() - 1));
  byId("view-forward").addEventListener("click", () => viewPly(shownPly() + 1));
  byId("view-live").addEventListener("click", () => viewPly(null));
  byId("flip").addEventListener("click", () => { flip = !flip; if (line) showLine(); else viewPly(viewing); });
  byId("line-start").addEventListener("click", startLine);
  byId("line-back").addEventListener("click", () => { if (line && line.moves.length) { line.moves.pop(); showLine(); } });
  byId("line-exit").addEventListener("click", () => viewPly(line ? line.ply : null));
  byId("download-moves").addEventListener("click", downloadMoves);
  byId("ask").addEventListener("click", askAbout);
  byId("time-mode").addEventListener("change", () => {
    byId("time-fields").hidden = !byId("time-mode").value;
    byId("time-increment").hidden = byId("time-mode").value !== "game";
  });
  byId("copy-position").addEventListener("click", copyPosition);
  document.addEventListener("keydown", (e) => {
    if (!current || e.target.closest("input, textarea, select")) return;
    if (e.key === "ArrowLeft") viewPly(shownPly() - 1);
    if (e.key === "ArrowRight") viewPly(shownPly() + 1);
  });
  for (const agent of agents) {
    if (agent.loads && agent.name !== "human") byId("ask-agent").append(el("option", { value: agent.name, text: agent.name }));
  }
  byId("ask-agent").value = agents.some((a) => a.name === "mcts") ? "mcts" : byId("ask-agent").value;
  for (const id of ["show-heat", "show-pv", "heat-kind"]) byId(id).addEventListener("change", showThinkingLayers);
  window.addEventListener("popstate", () => location.reload());
  const wanted = new URLSearchParams(location.search).get("game");
  if (wanted && games.some((g) => g.name === wanted)) select.value = wanted;  // ?game=NAME picks it
  buildSetup();
  const id = addressedGame();
  if (id !== null) await openGame(id);
}

// The game this address names: /play/<id>, or /?game=<id> (a game's name there only picks it).
function addressedGame() {
  const match = location.pathname.match(/^\/play\/([^/]+)\/?$/);
  if (match) return decodeURIComponent(match[1]);
  const wanted = new URLSearchParams(location.search).get("game");
  return wanted && !games.some((g) => g.name === wanted) ? wanted : null;
}

// A game's address, keeping the page's own options (`?delay=`).
function addressOf(id) {
  const query = new URLSearchParams(location.search);
  query.delete("game");
  const rest = query.toString();
  return `/play/${encodeURIComponent(id)}` + (rest ? `?${rest}` : "");
}

async function openGame(id) {
  let data;
  try {
    data = await api("GET", `/api/games/${encodeURIComponent(id)}`);
  } catch (error) {
    byId("status").textContent = `There is no game ${JSON.stringify(id)} on this server (games live in memory: ` +
      "a finished one is dropped after many newer ones, and all on a restart). Start a new one.";
    showError(error);
    return;
  }
  if (location.pathname + location.search !== addressOf(data.id)) history.replaceState(null, "", addressOf(data.id));
  fillSetup(data);
  show(data, true);
  follow(data.id);
}

// Follow the game at its address: every change the server publishes, whoever made it.
function follow(id) {
  if (following && following.gameId === id) return;
  if (following) following.close();
  following = new EventSource(`/api/games/${encodeURIComponent(id)}/events`);
  following.gameId = id;
  following.onmessage = (event) => {
    const data = JSON.parse(event.data);
    if (current && data.id === current.id) show(data);
  };
}

// The setup form as the game was started (so that New game and a reload agree with it).
function fillSetup(data) {
  byId("game").value = data.game;
  buildSetup();
  fillParams(byId("game-params"), specParams(data.spec));
  buildSeats();
  data.seats.forEach((spec, seat) => {
    const kind = byId(`seat-${seat}`);
    if (!kind) return;
    kind.value = spec.split(":")[0];
    kind.dispatchEvent(new Event("change"));
    fillParams(byId(`seat-${seat}-details`), specParams(spec));
  });
  byId("seed").value = data.seed;
  byId("position").value = data.position || "";
  const clocks = data.clocks;
  byId("time-mode").value = !clocks ? "" : clocks.per_move !== null ? "move" : "game";
  byId("time-base").value = !clocks ? "" : clocks.per_move !== null ? clocks.per_move : clocks.base;
  byId("time-increment").value = clocks && clocks.per_move === null ? clocks.increment : "";
  byId("time-mode").dispatchEvent(new Event("change"));
  byId("position-start").open = !!data.position;
}

// `name:a=1,b=2` -> {a: "1", b: "2"}
function specParams(spec) {
  const params = {};
  const rest = spec.includes(":") ? spec.slice(spec.indexOf(":") + 1) : "";
  for (const pair of rest.split(",").filter(Boolean)) {
    const [name, ...value] = pair.split("=");
    params[name.trim()] = value.join("=").trim();
  }
  return params;
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

// The seat rows. Rows already there stay as they are, their agent and typed parameters
// included: a game parameter that changes the number of seats adds or removes rows at the
// end only, so a click on a seat is never lost to a rebuilt form.
function buildSeats() {
  const game = chosenGame();
  const box = byId("seats");
  // A game whose player count is a parameter (num_players) gets that many seats.
  const asked = parseInt((byId("game-p-num_players") || {}).value || "", 10);
  const players = asked >= 1 ? Math.min(8, asked) : game && game.players ? game.players : 2;
  while (box.children.length > players) box.lastElementChild.remove();
  for (let seat = 0; seat < box.children.length; seat++) seatOptions(byId(`seat-${seat}`), game);
  for (let seat = box.children.length; seat < players; seat++) {
    const kind = el("select", { id: `seat-${seat}` });
    seatOptions(kind, game);
    kind.value = seat === 0 ? "human" : "random";
    const details = el("details", { id: `seat-${seat}-details` }, el("summary", { text: "parameters" }));
    const fill = () => {
      const typed = paramValues(details);
      details.querySelector(".params")?.remove();
      const agent = agents.find((a) => a.name === kind.value);
      const params = agent && agent.params ? agent.params : [];
      details.hidden = params.length === 0;
      details.append(paramFields(params, `seat-${seat}-p`));
      fillParams(details, typed);  // a parameter of the same name keeps what was typed
    };
    kind.addEventListener("change", fill);
    fill();
    box.append(el("div", { class: "seat-row" }, el("label", { for: `seat-${seat}`, text: `Seat ${seat}` }), kind, details));
  }
}

// A seat's choices for this game (learned agents without weights for it are marked); the
// choice made stays.
function seatOptions(kind, game) {
  const chosen = kind.value;
  kind.innerHTML = "";
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
  if (chosen) kind.value = chosen;
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
  const position = byId("position").value.trim();
  if (position) body.position = position;
  const mode = byId("time-mode").value;
  const seconds = parseFloat(byId("time-base").value || "0");
  if (mode === "move") body.clock = { per_move: seconds };
  if (mode === "game") body.clock = { base: seconds, increment: parseFloat(byId("time-increment").value || "0") };
  current = null;
  viewing = null;
  line = null;
  await run(() => api("POST", "/api/games", body), { onError: clearGame });
  if (!current) return;
  history.pushState(null, "", addressOf(current.id));
  follow(current.id);
  inView(byId("board-area"));
}

// Scroll so that `node`'s top is in the window, if it is not.
function inView(node) {
  const box = node.getBoundingClientRect();
  if (box.top < 0 || box.top > window.innerHeight - 80) node.scrollIntoView({ block: "start" });
}

// A refused start leaves no game on the board: the old one must not pose as the new one.
function clearGame() {
  current = null;
  viewing = null;
  line = null;
  if (following) following.close();
  following = null;
  byId("board").innerHTML = "";
  byId("board").dataset.ply = "";
  byId("history-list").innerHTML = "";
  byId("extra-moves").innerHTML = "";
  byId("you").textContent = "";
  byId("status").textContent = "Not started: the server refused the setup (see the message).";
  byId("status").dataset.over = "0";
  byId("status").dataset.turn = "";
  document.body.classList.remove("has-game");
  showThinking(null);
  showThinkingNow(null);
  updateControls();
  if (location.pathname !== "/") history.replaceState(null, "", "/" + location.search);
}

// Every request goes through here: one at a time, errors shown, the page redrawn. After a
// refusal the page shows the server's position again (`quiet`: a refusal not worth a word,
// such as another page at the address having asked the agent first).
async function run(request, { onError = null, quiet = false } = {}) {
  if (isBusy()) return;
  setBusy(true);
  let refused = false;
  try {
    const data = await request();
    showError(null);
    if (data) show(data);  // unless the page follows faster than the reply came
  } catch (error) {
    refused = true;
    if (!(quiet && /^409/.test(error.message))) showError(error);
    stopAuto();
    if (onError) onError();
  } finally {
    setBusy(false);
  }
  if (refused && current) await resync();
  else askAgent();
}

// Take the server's position, whatever this page thought it was.
async function resync() {
  try {
    show(await api("GET", `/api/games/${encodeURIComponent(current.id)}`), true);
  } catch (error) {
    showError(error);
  }
}

function command(name) {
  if (!current || current.thinking) return;
  stopAuto();
  viewing = null;  // the board shows the game again
  line = null;
  return run(() => api("POST", `/api/games/${current.id}/${name}`, {}));
}

function resign() {
  if (!current || current.over || current.thinking) return;
  const seat = current.humans.includes(current.to_move) ? current.to_move : current.humans[0];
  if (!confirm(`Resign this game as ${current.names[seat]} (seat ${seat})?`)) return;
  return command("resign");
}

// Against an agent, the agent answers by itself after a short pause: any page at the game's
// address asks (a reloaded page too), the server lets one agent think at a time.
function askAgent() {
  if (askTimer || !current || current.over || current.thinking) return;
  if (current.to_move_kind !== "agent" || current.humans.length === 0) return;
  askTimer = setTimeout(() => { askTimer = null; stepAgent(true); }, AGENT_DELAY_MS);
}

function stepAgent(auto) {
  if (!current || current.over || current.to_move_kind !== "agent" || current.thinking) return;
  if (isBusy()) return;
  return run(() => api("POST", `/api/games/${current.id}/agent-move`), { quiet: auto });
}

async function stopThinking() {
  if (!current || !current.thinking) return;
  byId("stop").disabled = true;
  try {
    await api("POST", `/api/games/${current.id}/stop`);
  } catch (error) {
    showError(error);
  }
}

function toggleAuto() {
  if (autoTimer) { stopAuto(); return; }
  byId("auto").textContent = "Pause";
  autoTimer = setInterval(() => {
    if (!current || current.over) { stopAuto(); return; }
    if (current.to_move_kind === "agent") stepAgent(true);
  }, Math.max(100, AGENT_DELAY_MS * 2));
  updateControls();
}

function stopAuto() {
  if (autoTimer) clearInterval(autoTimer);
  autoTimer = null;
  byId("auto").textContent = "Auto-play";
  updateControls();
}

function play(action) {
  if (!canMove()) return;
  selected = null;
  return run(() => api("POST", `/api/games/${current.id}/move`, { action, ply: current.ply }));
}

function playTyped() {
  const text = byId("move-text").value.trim();
  if (!text || !canMove()) return;  // while an agent thinks, Enter does nothing
  byId("move-text").value = "";
  return run(() => api("POST", `/api/games/${current.id}/move`, { move: text, ply: current.ply }));
}

// What a person does now, from the kinds of moves on offer.
function moveHint(data) {
  if (!data.renderer) return "choose a move below.";
  if (data.legal.length && data.legal.every((m) => m.cells.length || (m.cards || []).length) &&
      data.legal.some((m) => (m.cards || []).length)) {
    return "choose one of the moves under the board: click a marked card, or its button.";
  }
  if (data.legal.some((m) => m.cells.length >= 2)) return "click a piece, then its target.";
  if (data.legal.some((m) => m.cells.length === 1)) return "click a marked square.";
  return "choose one of the moves under the board.";
}

// Draw the game as the server describes it, once per version: a description no newer than
// the one shown is not drawn again (a reply and the followed stream bring each change twice),
// unless `force` (a re-sync after a refusal, an opened game).
function show(data, force) {
  if (!force && current && data.id === current.id && data.version <= current.version) {
    if (data.version === current.version) showThinkingNow(data.thinking);
    return;
  }
  current = data;
  selected = null;
  document.body.classList.add("has-game");
  const board = byId("board");
  board.dataset.game = data.game;
  if (viewing === null) {
    const next = drawnLive && drawnLive.id === data.id && drawnLive.ply === data.ply - 1;
    showBoard(board, data);
    board.dataset.ply = data.ply;
    board.dataset.live = "1";
    delete board.dataset.line;
    drawnLive = { id: data.id, ply: data.ply };
    if (flip) viewPly(null);  // the same position, turned round (its marks follow)
    else if (next && data.last) animateMove(data.last.cells);
  }
  byId("position-text").value = data.position_text || "(this game has no position notation)";
  byId("copy-position").disabled = !data.position_text;
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
  if (data.over) stopAuto();
  showThinking(data);
  showThinkingNow(data.thinking);
  showClocks(data);
  showHistory(data);
  if (viewing === null) markMovable();
  showViewNote();
  updateControls();
  askAgent();
}

// --- the analysis board -----------------------------------------------------------------------

function shownPly() { return viewing === null ? (current ? current.ply : 0) : viewing; }

// Show the position after `ply` decisions (null: the game as it stands); the game goes on
// meanwhile, and the page follows it in the status and the move list.
async function viewPly(ply) {
  if (!current) return;
  line = null;  // stepping through the game leaves a side line
  drawnLive = null;
  if (ply !== null) ply = Math.max(0, Math.min(current.ply, ply));
  const live = ply === null || ply === current.ply;
  if (live && !flip) {
    viewing = null;
    show(current, true);
    return;
  }
  try {
    const query = `ply=${live ? current.ply : ply}&flip=${flip ? "true" : "false"}`;
    const picture = await api("GET", `/api/games/${encodeURIComponent(current.id)}/position?${query}`);
    viewing = live && picture.live ? null : picture.ply;
    drawPicture(picture);
    if (viewing === null) markMovable();
  } catch (error) {
    showError(error);
  }
  showHistory(current);
  showViewNote();
  updateControls();
}

function drawPicture(picture) {
  const board = byId("board");
  board.innerHTML = picture.svg;
  board.dataset.ply = picture.ply;
  board.dataset.live = viewing === null ? "1" : "0";
  delete board.dataset.line;
  byId("position-text").value = picture.position_text || "(this game has no position notation)";
  byId("copy-position").disabled = !picture.position_text;
}

function showViewNote() {
  const note = byId("view-note");
  const lineNote = byId("line-note");
  lineNote.textContent = "";
  if (!current) { note.textContent = ""; return; }
  note.textContent = viewing === null ? (flip ? "the board is turned round" : "")
    : `move ${viewing} of ${current.ply}: the game goes on at move ${current.ply} (▶| goes back to it)`;
  byId("analysis-bar").dataset.viewing = viewing === null ? "0" : "1";
  byId("analysis-bar").dataset.line = line ? "1" : "0";
  if (line) {
    const moves = line.data ? line.data.moves.map((m, i) => `${i + 1}. ${m.name}: ${m.text}`).join("  ") : "";
    const end = line.data && line.data.over ? `; ${line.data.result}` : "";
    lineNote.textContent = `Side line after move ${line.ply} (not played in the game)` +
      (moves ? `: ${moves}` : ": click a piece to try a move") + end;
  }
}

// --- side lines ---------------------------------------------------------------------------------

// Try moves from the position shown, for either side, without touching the game.
function startLine() {
  if (!current) return;
  line = { ply: shownPly(), moves: [], data: null };
  showLine();
}

async function showLine(animate) {
  if (!current || !line) return;
  const wanted = line;
  try {
    const data = await api("POST", `/api/games/${encodeURIComponent(current.id)}/line`,
                           { ply: line.ply, moves: line.moves, flip });
    if (line !== wanted) return;  // left or changed meanwhile
    showError(null);
    drawLine(data, animate);
  } catch (error) {
    showError(error);
    if (line === wanted && line.moves.length) { line.moves.pop(); }
  }
}

function drawLine(data, animate) {
  line.data = data;
  viewing = line.ply;
  drawnLive = null;
  const board = byId("board");
  board.innerHTML = data.svg;
  board.dataset.ply = line.ply + data.line.length;
  board.dataset.live = "0";
  board.dataset.line = data.line.length;
  byId("position-text").value = data.position_text || "(this game has no position notation)";
  byId("copy-position").disabled = !data.position_text;
  if (animate && data.moves.length && line.lastCells) animateMove(line.lastCells);
  markMovable();
  showHistory(current);
  showViewNote();
  updateControls();
}

function lineMove(move) {
  if (!line) return;
  selected = null;
  line.moves.push(move.notation);
  line.lastCells = move.cells;
  showLine(true);
}

// The moves a click may choose now: the side line's (any side), or the game's when the person
// may move (null: none may go out now).
function activeLegal() {
  if (line) return line.data ? line.data.legal : [];
  return canMove() ? current.legal : null;
}

// The moves the board marks: as above, while a request of this page may still be on its way.
function offeredMoves() {
  if (line) return line.data ? line.data.legal : [];
  if (!current || current.over || current.to_move_kind !== "human" || viewing !== null) return [];
  return current.legal;
}

// --- the move animation ---------------------------------------------------------------------------

// Glide the piece that just moved from its first cell to its last, in an overlay over the board
// (the board's own SVG is left as the server drew it); none for a one-cell move, or when the
// person prefers reduced motion.
function animateMove(cells) {
  const board = byId("board");
  const svg = board.querySelector("svg.board");
  if (!svg || !cells || cells.length < 2) return;
  if (REDUCED_MOTION.matches) { board.dataset.animated = "reduced"; return; }
  const from = svg.querySelector(`g.cell[data-cell="${cells[0]}"] rect.bg`);
  const to = svg.querySelector(`g.cell[data-cell="${cells[cells.length - 1]}"]`);
  const piece = to && to.querySelector(".piece");
  if (!from || !piece) return;
  const a = from.getBBox();
  const b = to.querySelector("rect.bg").getBBox();
  const fx = byId("board-fx");
  const box = svg.getBoundingClientRect();
  const holder = byId("board-area");  // position: relative, the overlay's frame
  const frame = holder.getBoundingClientRect();
  fx.setAttribute("viewBox", svg.getAttribute("viewBox"));
  fx.setAttribute("font-family", svg.getAttribute("font-family") || "");
  Object.assign(fx.style, { left: `${box.left - frame.left - holder.clientLeft}px`,
    top: `${box.top - frame.top - holder.clientTop}px`, width: `${box.width}px`, height: `${box.height}px` });
  fx.innerHTML = "";
  const ghost = piece.cloneNode(true);
  fx.append(ghost);
  fx.removeAttribute("hidden");  // an <svg> has no `hidden` property: the attribute
  const hide = byId("board-fx-hide");
  hide.textContent = `#board g.cell[data-cell="${cells[cells.length - 1]}"] .piece { visibility: hidden; }`;
  board.dataset.animated = String(cells[cells.length - 1]);
  const glide = ghost.animate([{ transform: `translate(${a.x - b.x}px, ${a.y - b.y}px)` }, { transform: "translate(0px, 0px)" }],
                              { duration: MOVE_MS, easing: "ease-out" });
  const done = () => {
    if (fx.firstChild !== ghost) return;  // a later move took the overlay
    fx.innerHTML = "";
    fx.setAttribute("hidden", "");
    hide.textContent = "";
  };
  glide.onfinish = done;
  glide.oncancel = done;
}

// The game's moves in its notation with a header (seats, result, reason), as a file that
// `boardlab replay FILE` plays back.
async function downloadMoves() {
  if (!current) return;
  try {
    const response = await fetch(`/api/games/${encodeURIComponent(current.id)}/moves.txt`);
    const text = await response.text();
    if (!response.ok) {
      let detail = text;
      try { detail = JSON.parse(text).detail; } catch (e) { /* the text itself */ }
      throw new Error(`${response.status}: ${detail}`);
    }
    const name = (response.headers.get("Content-Disposition") || "").match(/filename="([^"]+)"/);
    const link = el("a", { href: URL.createObjectURL(new Blob([text], { type: "text/plain" })),
                           download: name ? name[1] : "boardlab-game.txt" });
    document.body.append(link);
    link.click();
    link.remove();
    showError(null);
  } catch (error) {
    showError(error);
  }
}

// What an agent thinks of the position shown (the server allows it once a game with a person
// is over, or in a game of agents).
async function askAbout() {
  if (!current) return;
  const params = byId("ask-params").value.trim();
  const spec = params ? `${byId("ask-agent").value}:${params}` : byId("ask-agent").value;
  const ply = shownPly();
  byId("ask").disabled = true;
  try {
    const picture = await api("POST", `/api/games/${encodeURIComponent(current.id)}/analyse`,
                              { ply, agent: spec, flip, line: line ? line.moves : [] });
    showError(null);
    viewing = picture.ply;
    if (line) drawLine(picture); else drawPicture(picture);
    showThinking({ agent: picture.agent, value_graph: current.value_graph, thinking_on_board: true }, true);
    showHistory(current);
    showViewNote();
    updateControls();
  } catch (error) {
    showError(error);
  } finally {
    byId("ask").disabled = false;
  }
}

async function copyPosition() {
  const text = byId("position-text").value;
  byId("position-box").open = true;
  byId("position-text").select();
  try { await navigator.clipboard.writeText(text); } catch (e) { document.execCommand("copy"); }
}

// The buttons, from the game shown and whether this page waits for the server.
function updateControls() {
  const data = current;
  const waiting = isBusy() || !!(data && data.thinking);
  const ids = ["undo", "resign", "new", "step", "auto", "move-play", "view-first", "view-back",
               "view-forward", "view-live", "flip", "ask", "line-start", "line-back", "download-moves"];
  if (!data) {
    for (const id of ids) byId(id).disabled = true;
    return;
  }
  byId("view-first").disabled = byId("view-back").disabled = shownPly() === 0;
  byId("view-forward").disabled = byId("view-live").disabled = viewing === null && !line;
  byId("flip").disabled = false;
  byId("ask").disabled = false;
  byId("line-start").disabled = false;
  byId("line-back").disabled = !line || line.moves.length === 0;
  byId("line-exit").hidden = !line;
  byId("download-moves").disabled = false;
  const agentTurn = !data.over && data.to_move_kind === "agent";
  byId("undo").disabled = waiting || !data.can_undo;
  byId("resign").disabled = waiting || data.over || data.humans.length === 0;
  byId("new").disabled = waiting;
  byId("step").disabled = waiting || !agentTurn || !!autoTimer;
  byId("auto").disabled = data.over || (!autoTimer && (waiting || !agentTurn));  // Pause stays open
  byId("move-play").disabled = !canMove();
  byId("move-text").dataset.closed = canMove() ? "0" : "1";
  for (const button of byId("extra-moves").querySelectorAll("button")) button.disabled = !activeLegal();
}

// Each seat's clock; the running one counts down here between the server's words (the server
// keeps the time: a flag falls there, and the page shows it).
function showClocks(data) {
  const box = byId("clocks");
  if (clockTick) clearInterval(clockTick);
  clockTick = null;
  box.hidden = !data.clocks;
  if (!data.clocks) return;
  const clocks = data.clocks;
  const received = performance.now();
  box.innerHTML = "";
  box.title = `clocks: ${clocks.text}`;
  const faces = clocks.left.map((left, seat) => {
    const face = el("span", { class: `clock side-${seat}`, "data-seat": seat,
      "data-running": clocks.running === seat ? "1" : "0", "data-flagged": clocks.flagged === seat ? "1" : "0" });
    box.append(face);
    return face;
  });
  const draw = () => {
    clocks.left.forEach((left, seat) => {
      const now = clocks.running === seat ? Math.max(0, left - (performance.now() - received) / 1000) : left;
      faces[seat].textContent = `${data.names[seat]} ${clockText(now)}`;
      faces[seat].dataset.low = now < 10 ? "1" : "0";
    });
  };
  draw();
  if (clocks.running !== null && clocks.running !== undefined) clockTick = setInterval(draw, 100);
}

function clockText(seconds) {
  const minutes = Math.floor(seconds / 60);
  const rest = seconds - 60 * minutes;
  return `${minutes}:${rest < 10 ? "0" : ""}${rest.toFixed(1)}`;
}

// "black (mcts) is thinking… 1.2 s" with a Stop button, while an agent searches.
function showThinkingNow(thinking) {
  const box = byId("thinking-now");
  if (!thinking) {
    box.hidden = true;
    if (thinkingTick) clearInterval(thinkingTick);
    thinkingTick = null;
    return;
  }
  thinkingFrom = performance.now() - 1000 * thinking.elapsed;
  const tick = () => {
    const seconds = (performance.now() - thinkingFrom) / 1000;
    byId("thinking-text").textContent = `${thinking.name} (${thinking.spec}) is thinking… ${seconds.toFixed(1)} s`;
  };
  tick();
  if (box.hidden) byId("stop").disabled = false;
  box.hidden = false;
  if (!thinkingTick) thinkingTick = setInterval(tick, 100);
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

function showThinking(data, asked) {
  const info = byId("agent-info");
  const graph = byId("value-graph");
  const kinds = byId("heat-kind");
  info.innerHTML = "";
  graph.innerHTML = data && data.value_graph ? data.value_graph : "";
  const agent = data ? data.agent : null;
  kinds.innerHTML = "";
  kinds.hidden = true;
  if (!agent) {
    info.textContent = "No agent has moved yet.";
    return;
  }
  for (const kind of agent.heat_kinds) kinds.append(el("option", { value: kind, text: kind }));
  kinds.hidden = agent.heat_kinds.length < 2;
  info.append(el("div", { class: "played", text: asked
    ? `${agent.spec}, asked about move ${viewing}${line && line.moves.length ? ` and ${line.moves.length} side-line moves` : ""} for ${agent.name} (seat ${agent.seat}), would play ${agent.move} after ${agent.seconds.toFixed(3)} s of thinking`
    : `${agent.spec} (${agent.name}, seat ${agent.seat}) played ${agent.move} after ${agent.seconds.toFixed(3)} s of thinking` }));
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
  for (const layer of board.querySelectorAll("g.heat, .heat-tint")) {
    layer.style.display = !kind || layer.dataset.kind === kind ? "" : "none";
  }
}

function showHistory(data) {
  const list = byId("history-list");
  list.innerHTML = "";
  data.moves.forEach((move, index) => {
    const time = move.seconds !== null && move.seconds !== undefined ? ` (${move.seconds.toFixed(2)} s)` : "";
    // A click shows the position after that move (the analysis board).
    list.append(el("li", { class: `side-${move.mover}`, "data-ply": index + 1, title: "show the position after this move",
                           onclick: () => viewPly(index + 1), text: `${move.name}: ${move.text}${time}` }));
  });
  const shown = viewing === null ? list.lastElementChild : list.children[viewing - 1];
  if (shown) {
    shown.classList.add("current");
    if (viewing === null) list.scrollTop = list.scrollHeight;  // the list scrolls, never the page
    else if (shown.offsetTop < list.scrollTop || shown.offsetTop > list.scrollTop + list.clientHeight - 20) {
      list.scrollTop = shown.offsetTop - list.clientHeight / 2;
    }
  }
}

function cellsOf(element) { return element.querySelectorAll("g.cell"); }

// Mark the cells where a legal move starts, and the cards under the board a move picks (a
// draft); moves with neither (a pass) become buttons. On a side line, the line's moves.
function markMovable() {
  const extra = byId("extra-moves");
  extra.innerHTML = "";
  delete extra.dataset.choice;
  const legal = offeredMoves();
  const starts = new Set();
  const singles = new Set();  // one-click moves: a placement, a reveal
  const picks = new Set();    // cards to click
  for (const move of legal) {
    if (move.cells.length > 0) starts.add(move.cells[0]);
    for (const card of move.cards || []) picks.add(card);
    if (move.cells.length === 0) extra.append(moveButton(move));  // a card's too: keyboards
    if (move.cells.length === 1) singles.add(move.cells[0]);
  }
  const board = byId("board");
  for (const cell of cellsOf(board)) {
    const index = parseInt(cell.dataset.cell, 10);
    delete cell.dataset.target;
    delete cell.dataset.selected;
    if (starts.has(index)) cell.dataset.movable = "1"; else delete cell.dataset.movable;
    if (singles.has(index)) cell.dataset.place = "1"; else delete cell.dataset.place;
  }
  for (const card of board.querySelectorAll("g.card[data-pick]")) {
    if (picks.has(card.dataset.pick)) card.dataset.movable = "1"; else delete card.dataset.movable;
  }
  updateControls();
}

function moveButton(move) {
  return el("button", { "data-action": move.id, title: move.notation, onclick: () => playMove(move), text: move.label || move.notation });
}

// A chosen move: into the side line, or to the server.
function playMove(move) {
  if (line) return lineMove(move);
  return play(move.id);
}

function select(cell) {
  selected = cell;
  const legal = offeredMoves();
  const targets = new Set(legal.filter((m) => m.cells.length >= 2 && m.cells[0] === cell).map((m) => m.cells[1]));
  for (const node of cellsOf(byId("board"))) {
    const index = parseInt(node.dataset.cell, 10);
    if (index === cell) node.dataset.selected = "1"; else delete node.dataset.selected;
    if (targets.has(index)) node.dataset.target = "1"; else delete node.dataset.target;
  }
}

function choose(moves) {
  if (moves.length === 1) return playMove(moves[0]);
  // Several moves share these cells or this card (a promotion, a draft or a trade): let the
  // person pick.
  const extra = byId("extra-moves");
  extra.innerHTML = "";
  extra.dataset.choice = "1";  // the buttons are this click's moves only
  for (const move of moves) extra.append(moveButton(move));
  updateControls();
}

function onBoardClick(event) {
  const legal = activeLegal();
  if (!legal) return;  // while an agent thinks, a click does nothing
  const card = event.target.closest("g.card[data-pick]");
  if (card) {
    const moves = legal.filter((m) => (m.cards || []).includes(card.dataset.pick));
    if (moves.length) choose(moves);
    return;
  }
  const node = event.target.closest("g.cell");
  if (!node) return;
  const cell = parseInt(node.dataset.cell, 10);
  const single = legal.filter((m) => m.cells.length === 1 && m.cells[0] === cell);
  const starting = legal.filter((m) => m.cells.length >= 2 && m.cells[0] === cell);
  if (selected !== null) {
    const moves = legal.filter((m) => m.cells.length >= 2 && m.cells[0] === selected && m.cells[1] === cell);
    if (moves.length) return choose(moves);
    if (cell === selected && single.length) return choose(single);
  }
  if (starting.length) return select(cell);
  if (single.length) return choose(single);
  selected = null;
  markMovable();
}

init().catch(showError);
