// The memory panel (long-term preferences the shopper can see, edit and delete, grouped by
// whose they are: the shopper's own first, then each recipient's) and the session panel (P_t
// of the current thread).
import { api } from "./api.js";
import { alertText, rejectedItem } from "./cards.js";
import { clear, h, toast } from "./dom.js";
import { domainName, formatMoney, preferenceLabel, recipientName, t } from "./i18n.js";

const CATEGORY_ORDER = ["material", "brand", "color", "style", "size", "budget", "other"];
const SELF = "self";
const RECIPIENT_PATTERN = "[a-z0-9]+(-[a-z0-9]+)*";

/** Whom a watch or alert is for, when it is not the shopper (null: nothing to show). */
const forWhom = (recipient) => (recipient && recipient !== SELF ? h("span", { class: "watch-for" }, t("watches.for", { who: recipientName(recipient) })) : null);

/** Unique across recipients: the same dedup_key may exist for the shopper and for mum. */
const entryId = (entry) => `${entry.recipient || SELF}/${entry.dedup_key}`;

export class MemoryPanel {
  constructor(root, { onError }) {
    this.root = root;
    this.onError = onError;
    this.entries = [];
    this.editing = null;
    this.watches = [];
    this.fired = new Map();
    this.alerts = [];
    this.editingWatch = null;
  }

  async refresh() {
    try {
      this.entries = await api.listMemory();
      this.render();
      await this.refreshWatches();
    } catch (error) {
      // Shown where the memory would be: an empty panel would read as "nothing remembered".
      clear(this.root.querySelector(".memory-list")).append(
        h(
          "div",
          { class: "error-box panel-error", role: "alert" },
          h("p", { class: "error-message" }, error.message),
          h("button", { type: "button", class: "btn btn-primary btn-small retry", onclick: () => this.refresh() }, t("chat.retry")),
        ),
      );
    }
  }

  /** Watches and alerts; a server without price history (404) simply has none. */
  async refreshWatches() {
    const box = this.root.querySelector(".watch-list");
    if (!box) return;
    try {
      const [all, alerts] = await Promise.all([api.listWatches({ closed: true }), api.listAlerts()]);
      const now = Date.now() / 1000;
      this.watches = all.filter((watch) => watch.status === "active" && watch.expires_at > now);
      // A watch that fired can be re-armed from its alert: it fires once more.
      this.fired = new Map(all.filter((watch) => watch.status === "fired").map((watch) => [watch.id, watch]));
      this.alerts = alerts;
    } catch (error) {
      if (error.status !== 404) throw error;
      this.watches = [];
      this.fired = new Map();
      this.alerts = [];
    }
    this.renderWatches(clear(box));
  }

  renderWatches(box) {
    box.append(
      h("h3", { class: "recipient-title" }, t("watches.title"), h("span", { class: "count" }, String(this.watches.length))),
      this.watches.length
        ? h("ul", { class: "watches" }, this.watches.map((watch) => this.watchItem(watch)))
        : h("p", { class: "watch-empty" }, t("watches.empty")),
    );
    if (this.alerts.length) {
      const offered = new Set();
      box.append(
        h("h3", { class: "recipient-title" }, t("alerts.title"), h("span", { class: "count" }, String(this.alerts.length))),
        h(
          "ul",
          { class: "alerts" },
          this.alerts.slice(0, 10).map((alert) => this.alertItem(alert, offered)),
        ),
      );
    }
  }

  /** An alert; the newest one of a watch that fired offers to re-arm it (once per watch). */
  alertItem(alert, offered) {
    const item = h("li", { class: `alert-item ${alert.seen ? "seen" : "unseen"}`, "data-watch": alert.watch_id }, h("span", { class: "alert-text" }, alertText(alert)), forWhom(alert.recipient));
    const watch = this.fired.get(alert.watch_id);
    if (watch && !offered.has(watch.id)) {
      offered.add(watch.id);
      item.append(h("button", { type: "button", class: "btn btn-ghost btn-small watch-rearm", "aria-label": t("watches.rearmLabel", { title: watch.title }), onclick: () => this.rearmWatch(watch) }, t("watches.rearm")));
    }
    return item;
  }

  async rearmWatch(watch) {
    try {
      await api.patchWatch(watch.id, { rearm: true });
      toast(t("watches.rearmed", { title: watch.title }));
      await this.refreshWatches();
    } catch (error) {
      this.onError(error);
    }
  }

  watchItem(watch) {
    const what =
      watch.kind === "stock"
        ? t("watches.stock")
        : t("watches.price", { target: formatMoney(watch.target, watch.currency) });
    const item = h(
      "li",
      { class: "watch-item", "data-watch": watch.id, "data-kind": watch.kind },
      h(
        "button",
        {
          type: "button",
          class: "watch-main",
          "aria-label": t("watches.edit", { title: watch.title }),
          "aria-expanded": this.editingWatch === watch.id ? "true" : "false",
          onclick: () => {
            this.editingWatch = this.editingWatch === watch.id ? null : watch.id;
            this.renderWatches(clear(this.root.querySelector(".watch-list")));
          },
        },
        h("span", { class: "watch-title", title: watch.title }, watch.title),
        h("span", { class: "watch-what" }, what),
        forWhom(watch.recipient),
        h("span", { class: "watch-until" }, t("watches.until", { date: new Date(watch.expires_at * 1000).toISOString().slice(0, 10) })),
      ),
      h("button", { type: "button", class: "pref-delete watch-cancel", "aria-label": t("watches.cancel", { title: watch.title }), onclick: () => this.cancelWatch(watch) }, "×"),
    );
    if (this.editingWatch === watch.id && watch.kind === "price") item.append(this.watchEditor(watch));
    return item;
  }

  watchEditor(watch) {
    const input = h("input", { type: "number", min: "0.01", step: "0.01", value: String(watch.target), class: "watch-target", "aria-label": t("watches.target") });
    const form = h(
      "form",
      { class: "editor watch-editor" },
      h("label", {}, t("watches.target"), input),
      h("button", { type: "submit", class: "btn btn-primary btn-small" }, t("memory.save")),
    );
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      try {
        await api.patchWatch(watch.id, { target: Number(input.value) });
        this.editingWatch = null;
        await this.refreshWatches();
      } catch (error) {
        this.onError(error);
      }
    });
    return form;
  }

  async cancelWatch(watch) {
    try {
      await api.cancelWatch(watch.id);
      toast(t("watches.cancelled", { title: watch.title }));
      await this.refreshWatches();
    } catch (error) {
      this.onError(error);
    }
  }

  render() {
    const list = clear(this.root.querySelector(".memory-list"));
    if (!this.entries.length) {
      list.append(h("p", { class: "empty-note" }, t("memory.empty")));
      return;
    }
    const byRecipient = new Map([[SELF, []]]);
    for (const entry of this.entries) {
      const who = entry.recipient || SELF;
      if (!byRecipient.has(who)) byRecipient.set(who, []);
      byRecipient.get(who).push(entry);
    }
    const recipients = [...byRecipient.keys()].filter((who) => byRecipient.get(who).length);
    const others = recipients.filter((who) => who !== SELF).sort();
    for (const who of [...recipients.filter((r) => r === SELF), ...others]) {
      const entries = byRecipient.get(who);
      list.append(
        h(
          "section",
          { class: `memory-recipient recipient-${who}`, "data-recipient": who, "aria-label": t("memory.forWhom", { who: recipientName(who) }) },
          h("h3", { class: "recipient-title" }, t("memory.forWhom", { who: recipientName(who) }), h("span", { class: "count" }, String(entries.length))),
          this.polarityGroups(entries),
        ),
      );
    }
  }

  polarityGroups(all) {
    const groups = [];
    for (const polarity of ["dislike", "like"]) {
      const entries = all.filter((e) => e.polarity === polarity);
      if (!entries.length) continue;
      const byCategory = new Map();
      for (const entry of entries) {
        if (!byCategory.has(entry.category)) byCategory.set(entry.category, []);
        byCategory.get(entry.category).push(entry);
      }
      const categories = [...byCategory.keys()].sort((a, b) => CATEGORY_ORDER.indexOf(a) - CATEGORY_ORDER.indexOf(b));
      groups.push(
        h(
          "section",
          { class: `memory-group polarity-${polarity}`, "aria-label": t(polarity === "like" ? "memory.likes" : "memory.dislikes") },
          h("h4", { class: "polarity-title" }, t(polarity === "like" ? "memory.likes" : "memory.dislikes")),
          categories.map((category) =>
            h(
              "div",
              { class: "memory-category" },
              h("h5", {}, t(`category.${category}`)),
              h("ul", { class: "chips" }, byCategory.get(category).map((entry) => this.chip(entry))),
            ),
          ),
        ),
      );
    }
    return groups;
  }

  chip(entry) {
    const label = preferenceLabel(entry);
    const item = h(
      "li",
      { class: `pref-chip ${entry.polarity} ${entry.strength}`, "data-key": entry.dedup_key, "data-recipient": entry.recipient || SELF },
      h(
        "button",
        {
          type: "button",
          class: "pref-main",
          "aria-label": t("memory.edit", { label }),
          "aria-expanded": this.editing === entryId(entry) ? "true" : "false",
          onclick: () => this.toggleEditor(entry),
        },
        h("span", { class: "pref-label" }, label),
        h("span", { class: "pref-domain" }, entry.domain ? domainName(entry.domain) : t("memory.global")),
        h("span", { class: `pref-strength ${entry.strength}` }, t(entry.strength === "hard" ? "memory.hard" : "memory.soft")),
      ),
      h("button", { type: "button", class: "pref-delete", "aria-label": t("memory.delete", { label }), onclick: () => this.remove(entry) }, "×"),
    );
    if (this.editing === entryId(entry)) item.append(this.editor(entry));
    return item;
  }

  toggleEditor(entry) {
    this.editing = this.editing === entryId(entry) ? null : entryId(entry);
    this.render();
    if (this.editing) this.root.querySelector(".pref-editor select")?.focus();
    else {
      const chip = `.pref-chip[data-key="${CSS.escape(entry.dedup_key)}"][data-recipient="${CSS.escape(entry.recipient || SELF)}"]`;
      this.root.querySelector(`${chip} .pref-main`)?.focus();
    }
  }

  editor(entry) {
    const select = (name, value, options) =>
      h("select", { name, "aria-label": t(`memory.${name}`) }, options.map(([v, label]) => h("option", { value: v, selected: v === value }, label)));
    const form = h(
      "form",
      { class: "pref-editor", "aria-label": t("memory.edit", { label: preferenceLabel(entry) }) },
      h("label", {}, h("span", {}, t("memory.polarity")), select("polarity", entry.polarity, [["like", t("polarity.like")], ["dislike", t("polarity.dislike")]])),
      h("label", {}, h("span", {}, t("memory.strength")), select("strength", entry.strength, [["hard", t("strength.hard")], ["soft", t("strength.soft")]])),
      h(
        "label",
        {},
        h("span", {}, t("memory.domain")),
        h("input", { name: "domain", value: entry.domain, "aria-label": t("memory.domain"), pattern: "[a-z0-9]+(-[a-z0-9]+)*", autocomplete: "off" }),
      ),
      h(
        "label",
        {},
        h("span", {}, t("memory.recipient")),
        h("input", { name: "recipient", value: entry.recipient || SELF, "aria-label": t("memory.recipient"), pattern: RECIPIENT_PATTERN, required: true, autocomplete: "off" }),
      ),
      h("p", { class: "pref-keywords" }, `${t("memory.keywords")}: ${(entry.keywords || []).join(", ") || "—"}`),
      h(
        "div",
        { class: "editor-actions" },
        h("button", { type: "submit", class: "btn btn-primary btn-small" }, t("memory.save")),
        h("button", { type: "button", class: "btn btn-ghost btn-small", onclick: () => this.toggleEditor(entry) }, t("memory.cancel")),
      ),
    );
    form.addEventListener("keydown", (event) => {
      if (event.key !== "Escape") return;
      event.stopPropagation(); // close the editor, not the phone sheet around it
      this.toggleEditor(entry);
    });
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const data = new FormData(form);
      const changes = {};
      for (const field of ["polarity", "strength", "domain", "recipient"]) {
        const value = String(data.get(field) ?? "").trim();
        if (value !== (entry[field] ?? (field === "recipient" ? SELF : ""))) changes[field] = value;
      }
      this.editing = null;
      if (!Object.keys(changes).length) return this.render();
      try {
        await api.patchMemory(entry.dedup_key, changes, entry.recipient || SELF);
      } catch (error) {
        this.onError(error);
      }
      await this.refresh();
    });
    return form;
  }

  async remove(entry) {
    const position = this.entries.findIndex((e) => entryId(e) === entryId(entry));
    try {
      await api.deleteMemory(entry.dedup_key, entry.recipient || SELF);
      toast(t("memory.deleted", { label: preferenceLabel(entry) }));
    } catch (error) {
      this.onError(error);
    }
    await this.refresh();
    // Keep keyboard users where they were: on the next chip, or on the panel's own button.
    const buttons = this.root.querySelectorAll(".pref-main");
    (buttons[Math.min(position, buttons.length - 1)] || this.root.querySelector("#memory-refresh"))?.focus();
  }
}

function section(title, content, className, count) {
  const heading = h("h3", {}, title, count ? h("span", { class: "count" }, String(count)) : null);
  return h("section", { class: `session-section ${className}` }, heading, content);
}

export function renderSessionError(root, error, onRetry) {
  clear(root.querySelector(".session-body")).append(
    h(
      "div",
      { class: "error-box panel-error", role: "alert" },
      h("p", { class: "error-message" }, error.message),
      h("button", { type: "button", class: "btn btn-primary btn-small retry", onclick: onRetry }, t("chat.retry")),
    ),
  );
}

const BUDGET_SLOTS = ["budget_max", "budget_min", "budget_currency"];

/** The session's slots as [label, value] in the page's language: the budget as one fact
 * ("500 以内", "$20 – $50"), a known slot by its name, any other as written. */
function slotFacts(slots) {
  const facts = [];
  const currency = slots.budget_currency || "CNY";
  const max = slots.budget_max && formatMoney(slots.budget_max, currency);
  const min = slots.budget_min && formatMoney(slots.budget_min, currency);
  if (max || min) {
    const key = max && min ? "slot.budget.range" : max ? "slot.budget.max" : "slot.budget.min";
    facts.push([t("slot.budget"), t(key, { max, min })]);
  }
  for (const [name, value] of Object.entries(slots)) {
    if (BUDGET_SLOTS.includes(name)) continue;
    const label = t(`slot.${name}`);
    facts.push([label === `slot.${name}` ? name.replace(/_/g, " ") : label, value]);
  }
  return facts;
}

export function renderSession(root, state, preferences = []) {
  const body = clear(root.querySelector(".session-body"));
  const lists = ["constraints", "rejected_options", "open_questions", "decisions_made"];
  const empty =
    !state ||
    !(state.current_intent || state.category || Object.keys(state.slots || {}).length || lists.some((name) => (state[name] || []).length));
  if (empty) {
    body.append(h("p", { class: "empty-note" }, t("session.empty")));
    return;
  }
  if (state.current_intent || state.category) {
    body.append(section(t("session.intent"), h("p", { class: "intent" }, state.current_intent || state.category), "session-intent"));
  }
  const slots = slotFacts(state.slots || {});
  if (slots.length) {
    const facts = slots.map(([name, value]) => [h("dt", {}, name), h("dd", {}, value)]);
    body.append(section(t("session.slots"), h("dl", { class: "slots" }, facts), "session-slots"));
  }
  if ((state.constraints || []).length) {
    body.append(
      section(
        t("session.constraints"),
        h(
          "ul",
          { class: "chips" },
          state.constraints.map((c) =>
            h(
              "li",
              { class: `pref-chip static ${c.polarity} ${c.strength}` },
              h("span", { class: "pref-main" }, h("span", { class: "pref-label" }, preferenceLabel(c))),
            ),
          ),
        ),
        "session-constraints",
      ),
    );
  }
  if ((state.rejected_options || []).length) {
    const recent = state.rejected_options.slice(-12).reverse();
    body.append(
      section(
        t("session.rejected"),
        h("ul", { class: "rejected" }, recent.map((option) => rejectedItem(option, [...preferences, ...(state.constraints || [])]))),
        "session-rejected",
        state.rejected_options.length,
      ),
    );
  }
  if ((state.decisions_made || []).length) {
    const decisions = state.decisions_made.map((d) => h("li", {}, d.text));
    body.append(section(t("session.decisions"), h("ul", { class: "questions decisions" }, decisions), "session-decisions"));
  }
  if ((state.open_questions || []).length) {
    body.append(section(t("session.questions"), h("ul", { class: "questions" }, state.open_questions.map((q) => h("li", {}, q))), "session-questions"));
  }
}
