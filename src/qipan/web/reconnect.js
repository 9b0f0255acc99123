// A banner while the server cannot be reached, and reconnecting by itself: the WebSocket
// is opened again after 1, 2, 4 ... 15 s (the banner counts down), and any request that
// fails to reach the server shows the banner too (api.js's "qipan:reachable" event).
import { t } from "./i18n.js";

const LONGEST = 15;

export class Reconnect {
  constructor(banner, reopen) {
    Object.assign(this, { banner, reopen, delay: 1, timer: null, countdown: null });
    window.addEventListener("qipan:reachable", (e) => { if (e.detail) this.hide(); else this.showDown(); });
  }

  connected() {
    this.delay = 1;
    this.hide();
  }

  lost() {
    const wait = this.delay;
    this.delay = Math.min(LONGEST, this.delay * 2);
    let left = wait;
    this.showDown(left);
    clearInterval(this.countdown);
    this.countdown = setInterval(() => { left -= 1; if (left > 0) this.showDown(left); }, 1000);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => { clearInterval(this.countdown); this.showDown(0); this.reopen(); }, wait * 1000);
  }

  showDown(seconds = null) {
    this.banner.hidden = false;
    this.banner.dataset.state = "down";
    this.banner.textContent = seconds ? t("game.reconnecting_in", { seconds }) : t("game.unreachable");
  }

  hide() {
    clearInterval(this.countdown);
    this.banner.hidden = true;
    this.banner.dataset.state = "up";
    this.banner.textContent = "";
  }
}
