// The time controls the site offers (quick pairing, seeks, tournaments) and their names.
import { t } from "./i18n.js";

export const TIME_CONTROLS = [
  { label: "1+0", clock: { initial: 60, increment: 0 } },
  { label: "3+2", clock: { initial: 180, increment: 2 } },
  { label: "5+3", clock: { initial: 300, increment: 3 } },
  { label: "10+0", clock: { initial: 600, increment: 0 } },
  { label: "15+10", clock: { initial: 900, increment: 10 } },
  { label: "30+0", clock: { initial: 1800, increment: 0 } },
  { label: "1d", days: 1 },
  { label: "3d", days: 3 },
  { label: "7d", days: 7 },
  { label: "14d", days: 14 },
];

/** A time control's short name: "5+3", or "3 days" in the page's language. */
export function controlLabel(tc) { return tc.days ? t("lobby.days", { n: tc.days }) : tc.label; }
