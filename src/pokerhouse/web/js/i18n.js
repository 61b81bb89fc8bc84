// Strings, numbers and chips in the reader's language.
//
// Every string the client shows lives in one catalogue per language
// (i18n/en.json, i18n/ru.json); a key missing from a language falls back to
// English, then to the key itself, so a gap is visible but never breaks a page.
// A value may be a plural object ({"one": ..., "few": ..., "many": ..., "other": ...})
// chosen with Intl.PluralRules by the `count` variable.

export const LANGUAGES = ["en", "ru"];
const STORAGE_KEY = "pokerhouse.lang";

const catalogues = {};
let current = "en";
const listeners = new Set();

async function load(lang) {
  if (!catalogues[lang]) {
    const response = await fetch(`i18n/${lang}.json`);
    catalogues[lang] = await response.json();
  }
  return catalogues[lang];
}

/** The language chosen before (localStorage), else the browser's if we have it, else English. */
export function preferredLanguage() {
  const saved = localStorage.getItem(STORAGE_KEY);
  if (LANGUAGES.includes(saved)) return saved;
  const browser = (navigator.language || "en").slice(0, 2).toLowerCase();
  return LANGUAGES.includes(browser) ? browser : "en";
}

/** Load the catalogues and switch to `lang` (remembered); listeners re-render. */
export async function setLanguage(lang) {
  if (!LANGUAGES.includes(lang)) lang = "en";
  await load("en");
  await load(lang);
  current = lang;
  localStorage.setItem(STORAGE_KEY, lang);
  document.documentElement.lang = lang;
  translateStatic(document);
  for (const listener of listeners) listener(lang);
}

export function language() {
  return current;
}

/** Call `listener(lang)` after every language switch; returns the unsubscribe function. */
export function onLanguage(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function lookup(catalogue, key) {
  return catalogue ? catalogue[key] : undefined;
}

/** The string `key` in the current language, `{name}` replaced from `vars`. */
export function t(key, vars = {}) {
  let value = lookup(catalogues[current], key);
  if (value === undefined) value = lookup(catalogues.en, key);
  if (value === undefined) return key;
  if (typeof value === "object") {
    const form = new Intl.PluralRules(current).select(Number(vars.count ?? 0));
    value = value[form] ?? value.other;
  }
  return value.replace(/\{(\w+)\}/g, (whole, name) => {
    if (!(name in vars)) return whole;
    const v = vars[name];
    return typeof v === "number" ? formatNumber(v) : String(v);
  });
}

/** Whether `key` has a string in some catalogue (for optional labels such as error codes). */
export function has(key) {
  return lookup(catalogues[current], key) !== undefined || lookup(catalogues.en, key) !== undefined;
}

const numberFormats = {};
/** A number in the reader's locale (`1 234` in Russian, `1,234` in English). */
export function formatNumber(value, options = {}) {
  const id = current + JSON.stringify(options);
  numberFormats[id] ??= new Intl.NumberFormat(current, options);
  return numberFormats[id].format(value);
}

/** Chips: a whole number in the locale; `signed` adds + to a win. */
export function formatChips(value, { signed = false } = {}) {
  return formatNumber(value, signed ? { signDisplay: "exceptZero" } : {});
}

/** Fill every `data-i18n` element (and `data-i18n-label` aria-label) under `root`. */
export function translateStatic(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-label]")) {
    el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  }
}
