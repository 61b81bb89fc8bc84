// "It is your turn": the tab's title and icon, a sound, a browser notification.
//
// The title and the icon say so while the decision stands, whatever the
// settings. The sound (a short two-note chime made with Web Audio, no file)
// plays only when the player turned it on. A notification shows only when the
// tab is hidden, the setting is on and the browser allowed it; the browser is
// asked once, when the player first sits down (a click, as browsers want).

import { setting } from "./settings.js";

const ICON = "img/chip.svg";
const TURN_ICON = "img/chip-turn.svg";
const ASKED_KEY = "pokerhouse.notifyAsked";

let audio = null;

function icon(href) {
  const link = document.querySelector("link[rel='icon']");
  if (link && link.getAttribute("href") !== href) link.setAttribute("href", href);
}

/** The tab's title and icon: `turn` marks them while the player has a decision. */
export function markTab(title, turn, t) {
  document.title = turn ? `● ${t("alert.title", { table: title })}` : `${title} · pokerhouse`;
  icon(turn ? TURN_ICON : ICON);
  document.body.dataset.turn = turn ? "1" : "";
}

/** Put the tab's icon back (the table page is left). */
export function unmarkTab() {
  icon(ICON);
  delete document.body.dataset.turn;
}

/** Let sound play later: browsers start audio only after the person has used the page. */
export function unlockSound() {
  if (audio || !window.AudioContext) return;
  try {
    audio = new AudioContext();
  } catch {
    audio = null;
  }
}

function chime() {
  if (!audio) unlockSound();
  if (!audio) return false;
  if (audio.state === "suspended") audio.resume();
  const start = audio.currentTime + 0.01;
  [660, 880].forEach((frequency, index) => {
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.type = "sine";
    tone.frequency.value = frequency;
    const at = start + index * 0.14;
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(0.2, at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.25);
    tone.connect(gain).connect(audio.destination);
    tone.start(at);
    tone.stop(at + 0.3);
  });
  return true;
}

/**
 * A new decision for the player: the chime (if on) and, when the tab is
 * hidden, a notification (if on and allowed). Returns what it did, for tests.
 */
export function yourTurn(title, t) {
  const done = { sound: false, notification: false };
  if (setting("sound")) done.sound = chime();
  if (document.hidden && setting("notify") && "Notification" in window && Notification.permission === "granted") {
    try {
      const note = new Notification(t("alert.notify_title"), { body: title, tag: "pokerhouse-turn", icon: TURN_ICON });
      note.onclick = () => {
        window.focus();
        note.close();
      };
      done.notification = true;
    } catch {
      done.notification = false;
    }
  }
  // What the page did, where a test (or a curious person) can read it.
  document.body.dataset.alerted = String(Number(document.body.dataset.alerted || 0) + 1);
  document.body.dataset.lastAlert = `${done.sound ? "sound" : ""} ${done.notification ? "notification" : ""}`.trim();
  return done;
}

/** Ask the browser for notifications, once ever (call it from a click). */
export function askForNotificationsOnce() {
  if (!("Notification" in window) || Notification.permission !== "default") return;
  if (localStorage.getItem(ASKED_KEY) === "1") return;
  localStorage.setItem(ASKED_KEY, "1");
  try {
    const asked = Notification.requestPermission();
    if (asked && asked.catch) asked.catch(() => {});
  } catch {
    // An old browser without the promise form: nothing more to do.
  }
}
