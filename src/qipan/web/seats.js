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
export function seatName(state, i) {
  const seat = state.seats[i];
  const name = seat ? seat.name : t("game.player_n", { n: i + 1 });
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
