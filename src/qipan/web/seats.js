// Who is who on the game page: each seat's name and colour (as the game declares it), "you
// are Red", and a result that names the winners and their colours.
import { t, translateError } from "./i18n.js";

/** The seat's colour { name, fill, label } (label in the page's language), or null. */
export function seatColour(state, i) {
  const seat = state.seats[i];
  if (!seat || !seat.colour) return null;
  const key = `game.colour.${seat.colour.toLowerCase()}`;
  const label = t(key);
  return { name: seat.colour, fill: seat.fill, label: label === key ? seat.colour : label };
}

/** "Ann (White)", or the name alone when seats have no colours. */
/** A seat's name in the page's language: the server's default names ("player 2", a bot's
 * "level 3", "level 8 (for ann)") are words of the page's language, not English. */
export function seatLabel(seat, i) {
  if (!seat) return t("game.player_n", { n: i + 1 });
  const player = /^player (\d+)$/.exec(seat.name || "");
  if (player && seat.kind === "human") return t("game.player_n", { n: Number(player[1]) });
  const level = /^level (\d)( \(for (.*)\))?$/.exec(seat.name || "");
  if (level && seat.kind === "bot") {
    const name = t("lobby.level", { n: Number(level[1]) });
    return level[3] ? t("game.bot_for", { bot: name, name: level[3] }) : name;
  }
  return seat.name;
}

export function seatName(state, i) {
  const seat = state.seats[i];
  const name = seatLabel(seat, i);
  const colour = seatColour(state, i);
  return colour ? t("game.name_colour", { name, colour: colour.label }) : name;
}

/** "you are White" (or "you play White and Red" on one screen, "you are seat 1"). */
export function youAre(state, seats) {
  const colours = seats.map((i) => seatColour(state, i));
  if (colours.every(Boolean)) {
    const list = colours.map((c) => c.label);
    return list.length === 1 ? t("game.you_are", { colour: list[0] }) : t("game.you_play", { colours: joined(list) });
  }
  if (state.players === 1) return "";  // a puzzle: nobody else to tell apart
  const list = seats.map((i) => t("game.seat_n", { n: i + 1 }));
  return list.length === 1 ? t("game.you_are", { colour: list[0] }) : t("game.you_play", { colours: joined(list) });
}

// "A, B and C" / 「A、B與C」
function joined(list) {
  if (list.length < 2) return list.join("");
  return list.slice(0, -1).join(t("game.list_sep")) + t("game.and") + list[list.length - 1];
}

/** The result with names and colours: "Ann (White) wins — five in a row". */
export function resultText(state) {
  const result = state.result;
  if (!result) return "";
  const reason = translateError(result.reason);
  let head;
  if (state.players === 1) head = t(result.winners.length ? "game.result.solved" : "game.result.failed");
  else if (!result.winners.length) head = t("game.result.draw");
  else {
    const names = joined(result.winners.map((i) => seatName(state, i)));
    head = t(result.winners.length === 1 ? "game.result.wins" : "game.result.win", { names });
  }
  return reason ? t("game.result.reason", { result: head, reason }) : head;
}
