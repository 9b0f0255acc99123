// Creating a game from any page (the lobby, the computer form, the position editor): keep this
// browser's seats and invitations, then open the game's page. No side effects on import.
import { api, rememberSeat } from "./api.js";

/** Create a game, keep this browser's seats and invitations, and open its page. */
export async function createAndGo(body) {
  const created = await api("POST", "/api/games", body);
  const mine = created.seats.filter((s) => s.joined);
  const invites = created.seats.filter((s) => !s.joined).map((s) => ({ seat: s.seat, invite: s.invite }));
  const first = mine[0];
  rememberSeat(created.id, first ? first.seat : null, first ? first.token : null,
    { invites, seats: mine.map((s) => ({ seat: s.seat, token: s.token })), title: created.state.title });
  location.href = `/g/${created.id}`;
}
