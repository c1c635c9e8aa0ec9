// The tournament page: the arena's cross table, totals and ratings for each stored tournament.
"use strict";

async function init() {
  const info = await api("GET", "/api/db");
  const status = document.getElementById("status");
  if (!info.db) {
    status.textContent = "This server has no results database: start it with `boardlab serve --db results.sqlite`.";
    return;
  }
  const tournaments = await api("GET", "/api/db/tournaments");
  status.textContent = `${info.db}: ${tournaments.length} tournament(s). Cells: the row agent's win rate / score against the column agent, then wins-draws-losses.`;
  const box = document.getElementById("tournaments");
  tournaments.forEach((t, number) => {
    const limit = t.time_per_move === null ? "no time limit" : `${t.time_per_move} s a move`;
    // Each tournament has an address (/tournament#tN) and its games one in Replay.
    box.append(el("h3", { id: `t${number}` },
      el("a", { href: `#t${number}`, class: "anchor", text: `#${number} ` }),
      `${t.game}: ${t.games_per_pair} games a pair, seed ${t.seed}, ${limit} (${t.stored_games} games stored; `,
      el("a", { href: `/replay?tournament=${number}`, class: "games", text: "replay them" }), ")"));
    const cross = el("table", { class: "results cross" });
    cross.append(el("tr", {}, el("th", { text: "" }), ...t.agents.map((a) => el("th", { text: a })), el("th", { text: "total" })));
    t.agents.forEach((agent, i) => {
      const total = t.totals.find((x) => x.agent === agent);
      cross.append(el("tr", {}, el("th", { text: agent }),
        ...t.cross[i].map((cell) => cell === null ? el("td", { class: "self", text: "" })
          : el("td", { text: `${cell.rate}\n${cell.wdl}`, title: `${cell.games} games` })),
        el("td", { text: `${total.rate}\n${total.wdl}` })));
    });
    box.append(cross);
    const pairs = el("table", { class: "results pairs" });
    pairs.append(el("tr", {}, ...["a", "b", "games", "a wins", "draws", "b wins", "a score", "forfeits a/b"].map((h) => el("th", { text: h }))));
    for (const p of t.pairs) {
      pairs.append(el("tr", {}, ...[p.a, p.b, p.games, p.a_wins, p.draws, p.b_wins, p.a_score.toFixed(3),
        `${p.forfeits.a}/${p.forfeits.b}`].map((v) => el("td", { text: String(v) }))));
    }
    box.append(pairs);
    const ratings = el("table", { class: "results ratings" });
    ratings.append(el("tr", {}, ...["agent", "Elo", "95% interval"].map((h) => el("th", { text: h }))));
    for (const r of t.ratings) {
      ratings.append(el("tr", {}, el("td", { text: r.agent }), el("td", { text: fixed(r.elo, 0) }),
        el("td", { text: `${fixed(r.ci95[0], 0)} .. ${fixed(r.ci95[1], 0)}` })));
    }
    box.append(ratings);
  });
  if (location.hash) document.getElementById(location.hash.slice(1))?.scrollIntoView();
}

init().catch(showError);
