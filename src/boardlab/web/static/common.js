// Shared by the pages: JSON requests whose errors are shown as the server's sentence.
"use strict";

async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch (e) { data = { detail: text }; }
  if (!response.ok) {
    const detail = data && data.detail ? data.detail : response.statusText;
    throw new Error(`${response.status}: ${typeof detail === "string" ? detail : JSON.stringify(detail)}`);
  }
  return data;
}

// The server's sentence where the eye is (the page puts #error just above the board): its
// first line as text, anything longer (a text board, a list of moves) folded under "more".
function showError(error) {
  const box = document.getElementById("error");
  if (!box) return;
  box.innerHTML = "";
  if (!error) return;
  const [first, ...rest] = String(error.message || error).split("\n");
  box.append(first);
  if (rest.join("").trim()) {
    const more = document.createElement("details");
    const summary = document.createElement("summary");
    summary.textContent = "more";
    const pre = document.createElement("pre");
    pre.textContent = rest.join("\n");
    more.append(summary, pre);
    box.append(more);
  }
  const where = box.getBoundingClientRect();
  if (where.top < 0 || where.bottom > window.innerHeight) box.scrollIntoView({ block: "center" });
}

// A board: the server's SVG, or its text in a <pre> for a game with no picture yet.
function showBoard(element, data) {
  if (data.renderer) {
    element.innerHTML = data.svg;
  } else {
    element.innerHTML = "";
    const pre = document.createElement("pre");
    pre.textContent = data.text;
    element.appendChild(pre);
  }
}

// A number with `digits` decimals and no negative zero: toFixed writes -0.3 as "-0".
function fixed(value, digits) {
  const text = value.toFixed(digits);
  return /^-[0.]*$/.test(text) ? text.slice(1) : text;
}

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === "onclick") node.addEventListener("click", value);
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child);
  return node;
}
