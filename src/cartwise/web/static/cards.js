// Product cards grouped by platform, the price-compare table, and the personalization badge,
// all rendered from the turn's STATE_SNAPSHOT / CUSTOM events.
import { h, imageUrl, platformHue, platformName, webUrl } from "./dom.js";
import { formatMoney, lang, preferenceWord, rejectionReason, t, tn } from "./i18n.js";

const BAG_ICON =
  "M6 7V6a6 6 0 0 1 12 0v1h2.2a1 1 0 0 1 1 .9l1.2 13A2 2 0 0 1 20.4 23H3.6a2 2 0 0 1-2-2.1l1.2-13A1 1 0 0 1 3.8 7H6Zm2 0h8V6a4 4 0 0 0-8 0v1Z";

function placeholder(product) {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
  path.setAttribute("d", BAG_ICON);
  svg.append(path);
  return h(
    "div",
    { class: "card-image placeholder", role: "img", "aria-label": t("cards.imageMissing"), style: `--hue:${platformHue(product.platform)}` },
    svg,
    h("span", { class: "placeholder-brand" }, product.brand || platformName(product.platform, lang())),
  );
}

function productImage(product) {
  const src = imageUrl(product.image_url);
  if (!src) return placeholder(product);
  const img = h("img", { class: "card-image", src, alt: product.title, loading: "lazy" });
  // A broken link gets the same placeholder as a missing one instead of a torn-image icon.
  img.addEventListener("error", () => img.replaceWith(placeholder(product)), { once: true });
  return img;
}

function stars(rating) {
  if (rating === null || rating === undefined) return h("span", { class: "rating muted" }, t("cards.noRating"));
  const value = Math.max(0, Math.min(5, Number(rating)));
  return h(
    "span",
    { class: "rating", "aria-label": t("cards.rating", { r: value.toFixed(1) }) },
    h("span", { class: "stars", style: `--fill:${(value / 5) * 100}%`, "aria-hidden": "true" }, "★★★★★"),
    h("span", { class: "rating-value", "aria-hidden": "true" }, value.toFixed(1)),
  );
}

/** An offer's price in the shopper's currency — the one the reply quotes — and "≈" when
 * converted; `null` when it is listed in it (or the turn named no currency). */
function shopperPrice(offer, currency) {
  if (!currency || !offer.currency || offer.currency === currency.code || offer.price_base == null) return null;
  return t("cards.approx", { price: formatMoney(Math.round((offer.price_base / currency.to_base) * 100) / 100, currency.code) });
}

function priceBlock(product, currency) {
  const listed = formatMoney(product.price, product.currency);
  const converted = shopperPrice(product, currency);
  return h(
    "div",
    { class: "price", "data-currency": converted ? currency.code : product.currency },
    h("span", { class: "price-listed" }, converted || listed),
    converted ? h("span", { class: "price-base" }, t("cards.listed", { price: listed })) : null,
  );
}

export function productCard(product, currency) {
  const platform = platformName(product.platform, lang());
  return h(
    "article",
    { class: "card", "data-platform": product.platform, "data-item": product.item_id },
    productImage(product),
    h(
      "div",
      { class: "card-body" },
      h("h4", { class: "card-title", title: product.title }, product.title),
      product.brand ? h("div", { class: "card-brand" }, product.brand) : null,
      h("div", { class: "card-meta" }, priceBlock(product, currency), stars(product.rating)),
      product.why && product.why.length
        ? h("ul", { class: "why-chips", "aria-label": "why" }, product.why.map((reason) => h("li", { class: "why-chip" }, reason)))
        : null,
      priceHistory(product),
      cardOffers(product, currency),
      webUrl(product.url)
        ? h("a", { class: "card-link", href: webUrl(product.url), target: "_blank", rel: "noopener noreferrer" }, t("cards.view", { platform }), " ↗")
        : null,
    ),
  );
}

const SVG = "http://www.w3.org/2000/svg";

/** A small step chart of the offer's last 180 days (its `history.chart` points), the 90-day
 * low marked; today's price is the line's last step. */
function priceChart(product) {
  const points = (product.history && product.history.chart) || [];
  if (points.length < 2) return null;
  const width = 160;
  const height = 36;
  const days = points.map(([date]) => Date.parse(date));
  const prices = points.map(([, price]) => price);
  const first = days[0];
  const last = Math.max(Date.now(), days[days.length - 1]);
  const low = Math.min(...prices, product.price);
  const high = Math.max(...prices, product.price);
  const x = (day) => ((day - first) / Math.max(1, last - first)) * width;
  const y = (price) => (high === low ? height / 2 : height - 3 - ((price - low) / (high - low)) * (height - 6));
  let path = "";
  points.forEach(([, price], index) => {
    const left = x(days[index]);
    const right = index + 1 < points.length ? x(days[index + 1]) : width;
    path += `${index ? "L" : "M"}${left.toFixed(1)},${y(price).toFixed(1)}H${right.toFixed(1)}`;
  });
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("class", "price-chart");
  svg.setAttribute("role", "img");
  const history = product.history;
  svg.setAttribute(
    "aria-label",
    t("history.chart", { low: formatMoney(history.lowest_90d ?? low, product.currency), usual: formatMoney(history.median_90d ?? product.price, product.currency) }),
  );
  const line = document.createElementNS(SVG, "path");
  line.setAttribute("d", path);
  svg.append(line);
  if (history.lowest_90d != null) {
    const mark = document.createElementNS(SVG, "line");
    mark.setAttribute("class", "price-chart-low");
    for (const [name, value] of [["x1", 0], ["x2", width], ["y1", y(history.lowest_90d)], ["y2", y(history.lowest_90d)]]) mark.setAttribute(name, String(value));
    svg.prepend(mark);
  }
  return svg;
}

/** The deal badge, the chart, and a warning when the "was" price was never charged. */
function priceHistory(product) {
  const history = product.history;
  if (!history || !product.deal) return null;
  const low = history.lowest_90d != null ? formatMoney(history.lowest_90d, product.currency) : "";
  const usual = history.median_90d != null ? formatMoney(history.median_90d, product.currency) : "";
  return h(
    "div",
    { class: "price-history", "data-deal": product.deal },
    h(
      "div",
      { class: "price-history-head" },
      h("span", { class: `deal-badge deal-${product.deal}` }, t(`deal.${product.deal}`)),
      h("span", { class: "price-history-note" }, t("history.note", { low, date: history.lowest_90d_at || "", usual })),
    ),
    priceChart(product),
    product.was_price_seen === false
      ? h("div", { class: "was-warning", role: "note" }, t("history.wasNeverCharged", { was: formatMoney(product.was_price, product.currency) }))
      : null,
  );
}

/** The shopper's alerts that arrived with this turn (a watch met since their last turn). */
export function alertNotices(alerts) {
  if (!alerts || !alerts.length) return null;
  return h(
    "ul",
    { class: "alert-notices", "aria-label": t("alerts.title") },
    alerts.map((alert) => h("li", { class: "alert-notice", "data-watch": alert.watch_id }, alertText(alert))),
  );
}

export function alertText(alert) {
  const platform = platformName(alert.platform, lang());
  if (alert.kind === "stock") return t("alerts.stock", { title: alert.title, platform });
  return t("alerts.price", { title: alert.title, platform, price: formatMoney(alert.price, alert.currency), target: formatMoney(alert.target, alert.target_currency) });
}

/** The same model on other platforms: every offer, cheapest first (the card shows that one). */
function cardOffers(product, currency) {
  const offers = product.offers || [];
  if (offers.length < 2) return null;
  return h(
    "ul",
    { class: "card-offers", "aria-label": tn("cards.offers", offers.length) },
    offers.map((offer, index) => {
      const name = platformName(offer.platform, lang());
      return h(
        "li",
        { class: `card-offer ${index === 0 ? "cheapest" : ""}`, "data-platform": offer.platform, style: `--hue:${platformHue(offer.platform)}` },
        webUrl(offer.url) ? h("a", { href: webUrl(offer.url), target: "_blank", rel: "noopener noreferrer" }, name) : h("span", {}, name),
        h("span", { class: "offer-price" }, offerPrice(offer, currency)),
      );
    }),
  );
}

const SORTS = ["price_asc", "price_desc", "rating", "reviews"];

/** Sort and "more" for the active search: each sends the follow-up as a chat message, in
 * the page's language, so the conversation (and its memory) sees exactly what was asked. */
function resultControls(dialogue, onFollowup) {
  if (!onFollowup || !dialogue || !dialogue.active_search) return null;
  const current = dialogue.sort || "relevance";
  return h(
    "div",
    { class: "result-controls", role: "group", "aria-label": t("results.controls") },
    h("span", { class: "result-controls-label" }, t("results.sortBy")),
    SORTS.map((sort) =>
      h(
        "button",
        {
          type: "button",
          class: `btn btn-ghost btn-small sort-button ${current === sort ? "is-active" : ""}`,
          "data-sort": sort,
          "aria-pressed": String(current === sort),
          onclick: () => onFollowup(t(`followup.${sort}`)),
        },
        t(`results.sort.${sort}`),
      ),
    ),
    dialogue.page > 1 ? h("span", { class: "result-page" }, t("results.page", { n: dialogue.page })) : null,
    h(
      "button",
      { type: "button", class: "btn btn-small more-button", onclick: () => onFollowup(t("followup.more")) },
      t("results.more"),
    ),
  );
}

/** Cards grouped by platform, in the order platforms first appear in the ranking. */
export function productGroups(products, currency) {
  const groups = new Map();
  for (const product of products) {
    if (!groups.has(product.platform)) groups.set(product.platform, []);
    groups.get(product.platform).push(product);
  }
  return h(
    "div",
    { class: "platform-groups" },
    [...groups.entries()].map(([platform, items]) =>
      h(
        "section",
        { class: "platform-group", "aria-label": platformName(platform, lang()), style: `--hue:${platformHue(platform)}` },
        h(
          "h3",
          { class: "platform-name" },
          h("span", { class: "platform-dot", "aria-hidden": "true" }),
          platformName(platform, lang()),
          h("span", { class: "count" }, String(items.length)),
        ),
        h("div", { class: "cards" }, items.map((product) => productCard(product, currency))),
      ),
    ),
  );
}

/** Sorted results in their order (a sort is about the order); otherwise grouped by platform. */
function productList(products, currency, dialogue) {
  const sort = dialogue && dialogue.sort;
  if (!sort || sort === "relevance") return productGroups(products, currency);
  return h(
    "div",
    { class: "cards sorted-cards", "data-sort": sort },
    products.map((product) => productCard(product, currency)),
  );
}

function offerPrice(offer, currency) {
  const listed = formatMoney(offer.price, offer.currency);
  const converted = shopperPrice(offer, currency);
  return converted ? `${converted} (${listed})` : listed;
}

/** One row per product sold on several platforms: cheapest offer first (by base price). */
export function priceCompare(groups, currency) {
  const comparable = (groups || []).filter((group) => group.offers && group.offers.length > 1);
  if (!comparable.length) return null;
  return h(
    "details",
    { class: "compare" },
    h("summary", {}, t("compare.title"), h("span", { class: "count" }, String(comparable.length))),
    h(
      "ul",
      { class: "compare-list" },
      comparable.map((group) => {
        const offers = [...group.offers].sort((a, b) => (a.price_base ?? Infinity) - (b.price_base ?? Infinity));
        return h(
          "li",
          { class: "compare-row" },
          h("div", { class: "compare-title", title: group.title }, group.title),
          h(
            "ul",
            { class: "offers", "aria-label": group.title },
            offers.map((offer, index) => {
              const name = platformName(offer.platform, lang());
              return h(
                "li",
                { class: `offer ${index === 0 ? "cheapest" : ""}`, style: `--hue:${platformHue(offer.platform)}` },
                webUrl(offer.url) ? h("a", { href: webUrl(offer.url), target: "_blank", rel: "noopener noreferrer" }, name) : h("span", { class: "offer-platform" }, name),
                h("span", { class: "offer-price" }, offerPrice(offer, currency)),
                index === 0 ? h("span", { class: "badge badge-good" }, t("compare.cheapest")) : null,
              );
            }),
          ),
        );
      }),
    ),
  );
}

/** The badge; a like is named by the word the shopper used for it in the page's language
 * (its memory entry's keywords), else by its slug. */
export function personalizationBadge(personalization, entries = []) {
  if (!personalization) return null;
  const likes = personalization.likes || [];
  if (personalization.active) {
    const word = (slug) => {
      const entry = entries.find((e) => e.polarity === "like" && e.slug === slug);
      return entry ? preferenceWord(entry) : slug.replace(/-/g, " ");
    };
    const names = [...new Set(likes.map(word))].join(lang() === "zh" ? "、" : ", ");
    const text = likes.length ? t("perso.activeWith", { likes: names }) : t("perso.active");
    return h("div", { class: "perso perso-on", "data-active": "true" }, h("span", { class: "perso-dot", "aria-hidden": "true" }), text);
  }
  return h(
    "div",
    { class: "perso perso-off", "data-active": "false", title: t("perso.inactiveHelp") },
    h("span", { class: "perso-dot", "aria-hidden": "true" }),
    t("perso.inactive"),
  );
}

/** One eliminated candidate: its title, platform and the mechanical reason (`preferences`:
 * the entries whose words name an excluded term). */
export function rejectedItem(option, preferences = []) {
  return h(
    "li",
    { "data-code": option.code || "" },
    h("span", { class: "rejected-title" }, option.title),
    h("span", { class: "rejected-meta" }, `${platformName(option.platform, lang())} · ${rejectionReason(option, { preferences })}`),
  );
}

/** The candidates item_picker eliminated this turn, counted by reason, expandable. */
export function setAside(rejected, preferences = []) {
  if (!rejected || !rejected.length) return null;
  // Counted by kind: one chip for "over budget" however many prices; one per excluded term.
  const byReason = new Map();
  for (const option of rejected) {
    const reason = rejectionReason(option, { kind: true, preferences });
    byReason.set(reason, (byReason.get(reason) || 0) + 1);
  }
  return h(
    "details",
    { class: "set-aside" },
    h(
      "summary",
      {},
      h("span", { class: "set-aside-title" }, t("cards.setAside", { n: rejected.length })),
      h(
        "ul",
        { class: "reason-chips" },
        [...byReason.entries()].map(([reason, count]) =>
          h("li", { class: "reason-chip" }, reason, h("span", { class: "count" }, String(count))),
        ),
      ),
    ),
    h(
      "ul",
      { class: "set-aside-list" },
      rejected.map((option) => rejectedItem(option, preferences)),
    ),
  );
}

/** The long-term entries and session constraints a turn's snapshot carries. */
function preferencesOf(snapshot) {
  const memory = (snapshot && snapshot.memory) || {};
  return [...(memory.long_term || []), ...((memory.session && memory.session.constraints) || [])];
}

/** Everything under an assistant reply: badge, summary, grouped cards, price compare. */
export function renderResults({ snapshot, personalization, onFollowup }) {
  const currency = snapshot && snapshot.shopper_currency;
  const products = (snapshot && snapshot.products) || [];
  // Small talk and answers about the conversation searched nothing: "no products matched"
  // would be untrue there.
  const searched = products.length || (snapshot && snapshot.dialogue && snapshot.dialogue.followup !== "none");
  const alerts = alertNotices(snapshot && snapshot.alerts);
  if (!searched) return h("div", { class: "results" }, alerts, setAside(snapshot && snapshot.rejected, preferencesOf(snapshot)));
  const platforms = new Set(products.map((p) => p.platform));
  return h(
    "div",
    { class: "results" },
    alerts,
    h(
      "div",
      { class: "results-head" },
      personalizationBadge(personalization || (snapshot && snapshot.personalization), preferencesOf(snapshot)),
      products.length
        ? h("span", { class: "results-count" }, t("cards.results", { products: tn("count.products", products.length), platforms: tn("count.platforms", platforms.size) }))
        : h("span", { class: "results-count" }, t("cards.noResults")),
    ),
    products.length ? resultControls(snapshot.dialogue, onFollowup) : null,
    products.length ? productList(products, currency, snapshot.dialogue) : null,
    priceCompare(snapshot && snapshot.price_compare, currency),
    setAside(snapshot && snapshot.rejected, preferencesOf(snapshot)),
  );
}
