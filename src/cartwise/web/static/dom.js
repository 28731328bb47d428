// A tiny element builder: text always goes in as text nodes, so nothing a server or shopper
// wrote is ever parsed as HTML.

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") el.className = value;
    else if (name === "dataset") Object.assign(el.dataset, value);
    else if (name.startsWith("on") && typeof value === "function") el.addEventListener(name.slice(2), value);
    else if (value === true) el.setAttribute(name, "");
    else el.setAttribute(name, String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

/** Announce a short status to screen readers (and show it as a toast). */
export function toast(message, { kind = "info", timeout = 4000 } = {}) {
  const region = document.getElementById("toasts");
  if (!region) return;
  // Two panels failing for the same reason (a store outage) should say it once.
  if ([...region.children].some((el) => el.textContent === message)) return;
  const item = h("div", { class: `toast toast-${kind}`, role: kind === "error" ? "alert" : "status" }, message);
  region.append(item);
  setTimeout(() => item.remove(), timeout);
}

const PLATFORM_NAMES = {
  taobao: ["淘宝", "Taobao"],
  tmall: ["天猫", "Tmall"],
  jd: ["京东", "JD"],
  pdd: ["拼多多", "Pinduoduo"],
  pinduoduo: ["拼多多", "Pinduoduo"],
  amazon: ["亚马逊", "Amazon"],
  ebay: ["eBay", "eBay"],
  shopee: ["Shopee", "Shopee"],
  lazada: ["Lazada", "Lazada"],
  aliexpress: ["速卖通", "AliExpress"],
  walmart: ["沃尔玛", "Walmart"],
  temu: ["Temu", "Temu"],
};

export function platformName(platform, language) {
  const known = PLATFORM_NAMES[String(platform).toLowerCase()];
  if (known) return language === "zh" ? known[0] : known[1];
  return String(platform)
    .replace(/[_-]+/g, " ")
    .replace(/\b\w/g, (c) => c.toUpperCase());
}

// Stable hue per platform so a platform keeps its colour across turns.
export function platformHue(platform) {
  let hash = 0;
  for (const ch of String(platform)) hash = (hash * 31 + ch.charCodeAt(0)) % 360;
  return hash;
}

/** An image source: a path on this site (the app draws product pictograms under /images/)
 * or what `webUrl` accepts; never a protocol-relative `//host` or another scheme. */
export function imageUrl(url) {
  if (typeof url === "string" && /^\/(?![\/\\])[\w\-./]*$/.test(url.trim())) return url.trim();
  return webUrl(url);
}

/** `url` when it is an absolute http(s) URL, else null: a `javascript:` (or any other
 * scheme) from a catalog never becomes a link or an image source. */
export function webUrl(url) {
  if (typeof url !== "string") return null;
  const trimmed = url.trim();
  if (!/^https?:\/\/[^\s/?#]+\S*$/i.test(trimmed)) return null;
  try {
    const parsed = new URL(trimmed);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.href : null;
  } catch {
    return null;
  }
}
