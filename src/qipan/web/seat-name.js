// An invited player (or anyone holding a seat that still has the default name) names it
// from the game page: the seat's token renames it while the game is not over.
import { api, el, setMyName } from "./api.js";
import { t, translateError } from "./i18n.js";

/** Called by the game page after every state it draws. */
export function renderNameForm(gameId, state, tokens) {
  const box = document.getElementById("seat-name");
  const unnamed = Object.keys(tokens).map(Number).filter((i) => /^player \d+$/.test(state.seats[i]?.name || ""));
  if (state.status === "over" || unnamed.length === 0) { box.replaceChildren(); return; }
  if (box.childElementCount) return;  // keep what is being typed
  const seat = unnamed[0];
  const input = el("input", { id: "seat-name-input", maxlength: 40, required: true });
  const error = el("p", { class: "error", role: "alert" });
  box.replaceChildren(el("form", { id: "seat-name-form", onsubmit: async (event) => {
    event.preventDefault();
    const name = input.value.trim();
    if (!name) return;
    try {
      await api("POST", `/api/games/${gameId}/join`, { name }, tokens[seat]);
      setMyName(name);
      box.replaceChildren();
    } catch (err) { error.textContent = translateError(err.message); }
  } }, el("label", {}, `${t("game.your_name")} `, input), el("button", { type: "submit", id: "seat-name-save" }, t("game.set_name")), error));
}
