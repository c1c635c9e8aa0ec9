// Parameter forms generated from a Settings dataclass as /api/games and /api/agents list it
// (name, type, default, doc): the same source as `boardlab agents`.
"use strict";

// One labelled field per parameter, ids `${prefix}-${name}`; empty means the default.
function paramFields(params, prefix, onchange) {
  const box = el("div", { class: "params" });
  for (const param of params) {
    const id = `${prefix}-${param.name}`;
    let field;
    if (param.type === "bool") {
      field = el("select", { id, "data-default": param.default });
      field.append(el("option", { value: "", text: `default (${param.default.toLowerCase()})` }),
                   el("option", { value: "true", text: "true" }),
                   el("option", { value: "false", text: "false" }));
    } else {
      const numeric = param.type === "int" || param.type === "float";
      // Text defaults come quoted (`'random'`); an empty one means "the game's own choice".
      const bare = param.default.replace(/^'(.*)'$/, "$1");
      const shown = bare === "" ? "(default)" : bare;
      field = el("input", { id, type: numeric ? "number" : "text", placeholder: shown,
                            step: param.type === "float" ? "any" : "1" });
    }
    field.dataset.param = param.name;
    if (onchange) field.addEventListener("change", onchange);
    const label = el("label", { for: id, title: param.doc, text: param.name });
    const row = el("div", { class: "param", title: param.doc }, label, field);
    if (param.doc) row.append(el("div", { class: "doc", text: param.doc }));
    box.append(row);
  }
  return box;
}

// `name=value,...` of the fields filled in (a spec's parameter part), "" when all default.
function paramText(box) {
  const parts = [];
  for (const field of box.querySelectorAll("[data-param]")) {
    const value = field.value.trim();
    if (value !== "") parts.push(`${field.dataset.param}=${value}`);
  }
  return parts.join(",");
}

// {name: value} of the fields filled in.
function paramValues(box) {
  const values = {};
  for (const field of box.querySelectorAll("[data-param]")) {
    if (field.value.trim() !== "") values[field.dataset.param] = field.value.trim();
  }
  return values;
}

// Fill the fields named in `values` that the form has (others are left as they are).
function fillParams(box, values) {
  for (const field of box.querySelectorAll("[data-param]")) {
    const value = values[field.dataset.param];
    if (value === undefined) continue;
    if (field.tagName === "SELECT" && ![...field.options].some((o) => o.value === value)) continue;
    field.value = value;
  }
}
