// The replay page: stored arena games rebuilt by the server from seed and actions.
// Addresses: /replay?game=N opens stored game N at its end, &ply=K at move K (the address
// follows the steps); /replay?tournament=T lists tournament T's games (the Tournaments page
// links there).
"use strict";

const PAGE = 50;
let offset = 0;
let total = 0;
let game = null;     // the stored game as last fetched
let timer = null;
let wanted = null;   // the ply last asked for: quick clicks step from there, not from the one shown
let asked = 0;       // requests made; only the latest one's answer is shown
let pending = 0;     // requests on their way
const address = new URLSearchParams(location.search);
const tournament = /^\d+$/.test(address.get("tournament") || "") ? parseInt(address.get("tournament"), 10) : null;

async function init() {
  const info = await api("GET", "/api/db");
  if (!info.db) {
    document.getElementById("status").textContent =
      "This server has no results database: start it with `boardlab serve --db results.sqlite`.";
    return;
  }
  document.getElementById("db-name").textContent = info.db;
  for (const g of await api("GET", "/api/games")) {
    document.getElementById("filter").append(el("option", { value: g.name, text: g.name }));
  }
  document.getElementById("filter").addEventListener("change", () => { offset = 0; list(); });
  document.getElementById("prev-page").addEventListener("click", () => { offset = Math.max(0, offset - PAGE); list(); });
  document.getElementById("next-page").addEventListener("click", () => { if (offset + PAGE < total) { offset += PAGE; list(); } });
  document.getElementById("first").addEventListener("click", () => go(0));
  document.getElementById("back").addEventListener("click", () => game && go(stepFrom() - 1));
  document.getElementById("forward").addEventListener("click", () => game && go(stepFrom() + 1));
  document.getElementById("last").addEventListener("click", () => game && go(game.plies));
  document.getElementById("ply").addEventListener("input", (e) => go(parseInt(e.target.value, 10)));
  document.getElementById("auto").addEventListener("click", toggleAuto);
  document.getElementById("download-moves").addEventListener("click", () => {
    if (game) location.href = `/api/db/games/${game.number}/moves.txt`;
  });
  if (tournament !== null) {
    document.getElementById("filter").disabled = true;
    document.getElementById("scope").append(`Games of tournament ${tournament} (`,
      el("a", { href: `/tournament#t${tournament}`, text: "its tables" }), "); ",
      el("a", { href: "/replay", text: "all games" }));
  }
  await list();
  const wanted = address.get("game");
  if (wanted === null) return;
  const ply = address.get("ply");
  if (!/^\d+$/.test(wanted) || (ply !== null && !/^\d+$/.test(ply))) {
    document.getElementById("status").textContent =
      `There is no stored game ${JSON.stringify(wanted)}${ply !== null ? ` at move ${JSON.stringify(ply)}` : ""}: ` +
      `stored games are numbered 0 to ${total - 1} in ${info.db}, moves from 0. Pick one in the list.`;
    return;
  }
  await open(parseInt(wanted, 10), ply === null ? null : parseInt(ply, 10));
}

async function list() {
  const filter = document.getElementById("filter").value;
  const query = `offset=${offset}&limit=${PAGE}` + (filter ? `&game=${encodeURIComponent(filter)}` : "") +
    (tournament !== null ? `&tournament=${tournament}` : "");
  const data = await api("GET", `/api/db/games?${query}`);
  total = data.total;
  const body = document.querySelector("#game-list tbody");
  body.innerHTML = "";
  for (const g of data.games) {
    // A stored game opens at its end, the result in view; step back from there.
    const row = el("tr", { "data-number": g.number, onclick: () => open(g.number, null) },
      el("td", { text: g.number }), el("td", { class: "game", text: breakable(g.game) }),
      el("td", { text: breakable(g.seats[0]) }), el("td", { text: breakable(g.seats[1]) }),
      el("td", { class: "result", text: g.result + (g.end ? ` (${g.end})` : "") }),
      el("td", { text: g.plies }));
    body.append(row);
  }
  document.getElementById("page-info").textContent =
    total ? `${offset + 1}-${Math.min(total, offset + PAGE)} of ${total}` : "no games";
}

// A spec may break after its : , = and _ (a zero-width space), so the table fits its panel.
function breakable(text) { return String(text).replace(/([:,=_])/g, "$1\u200b"); }

async function open(number, ply) {
  stopAuto();
  wanted = null;
  await fetchFrame(number, ply);
}

function stepFrom() { return wanted === null ? game.ply : wanted; }

async function fetchFrame(number, ply) {
  document.body.dataset.busy = "1";
  pending += 1;
  try {
    const query = ply === null || ply === undefined ? "" : `?ply=${ply}`;
    const request = ++asked;
    const frame = await api("GET", `/api/db/games/${number}${query}`);
    if (request !== asked) return;  // a later step is on its way
    game = frame;
    wanted = null;
    showError(null);
    show();
  } catch (error) {
    showError(error);
    if (!game) document.getElementById("status").textContent = `Stored game ${number} cannot be shown: see the message.`;
    stopAuto();
  } finally {
    pending -= 1;
    if (pending === 0) document.body.dataset.busy = "0";
  }
}

function go(ply) {
  if (!game) return;
  ply = Math.max(0, Math.min(game.plies, ply));
  wanted = ply;
  if (ply !== game.ply || pending > 0) return fetchFrame(game.number, ply);
}

function show() {
  // The address names what is shown, so that a reload or a link opens it again.
  const here = new URLSearchParams();
  if (tournament !== null) here.set("tournament", tournament);
  here.set("game", game.number);
  if (game.ply !== game.plies) here.set("ply", game.ply);
  history.replaceState(null, "", `/replay?${here}`);
  document.body.classList.add("has-game");
  document.getElementById("download-moves").disabled = false;
  for (const row of document.querySelectorAll("#game-list tbody tr")) {
    row.classList.toggle("open", row.dataset.number === String(game.number));
  }
  const board = document.getElementById("board");
  showBoard(board, game);
  board.dataset.ply = game.ply;
  const status = document.getElementById("status");
  status.dataset.ply = game.ply;
  const seats = game.seats.map((spec, seat) => `${game.names[seat]} ${spec}`).join(" vs ");
  status.textContent = `Game ${game.number}: ${game.game}, ${seats} (seed ${game.seed}) — ` +
    `move ${game.ply} of ${game.plies}` + (game.ply === game.plies ? `; ${game.result}` : "");
  const slider = document.getElementById("ply");
  slider.max = game.plies;
  slider.value = game.ply;
  const list = document.getElementById("history-list");
  list.innerHTML = "";
  game.moves.forEach((move, index) => {
    const time = move.seconds !== null && move.seconds !== undefined ? ` (${move.seconds.toFixed(2)} s)` : "";
    const item = el("li", { class: `side-${move.mover}`, onclick: () => go(index + 1), text: `${move.name}: ${move.text}${time}` });
    if (index + 1 === game.ply) item.classList.add("current");
    list.append(item);
  });
  // The list scrolls inside its panel: the page, and the board, stay where they are.
  const now = list.querySelector("li.current");
  if (now && (now.offsetTop < list.scrollTop || now.offsetTop > list.scrollTop + list.clientHeight - 20)) {
    list.scrollTop = now.offsetTop - list.clientHeight / 2;
  }
}

function toggleAuto() {
  if (timer) { stopAuto(); return; }
  document.getElementById("auto").textContent = "Pause";
  timer = setInterval(() => {
    if (!game || game.ply >= game.plies) { stopAuto(); return; }
    if (document.body.dataset.busy === "0") go(game.ply + 1);
  }, 500);
}

function stopAuto() {
  if (timer) clearInterval(timer);
  timer = null;
  document.getElementById("auto").textContent = "Play";
}

init().catch(showError);
