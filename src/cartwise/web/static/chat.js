// The conversation: one turn per user message, fed by the AG-UI event stream. Text streams
// in as TEXT_MESSAGE_CONTENT deltas; STEP_* / TOOL_CALL_* drive the activity line;
// STATE_SNAPSHOT renders the cards; CUSTOM events carry personalization and memory changes.
import { api } from "./api.js";
import { alertText, renderResults } from "./cards.js";
import { clear, h, toast } from "./dom.js";
import { domainName, preferenceLabel, t, tn } from "./i18n.js";
import { renderMarkdown } from "./markdown.js";
import { newId, runAgent } from "./sse.js";

const THREAD_KEY = "cartwise.thread";
const STAGES = ["understanding", "searching", "picking", "remembering"];
// The agent's finer steps folded into the four stages a shopper cares about.
const STEP_TO_STAGE = {
  understanding: "understanding",
  profile: "understanding",
  searching: "searching",
  picking: "picking",
  replying: "picking",
  remembering: "remembering",
};

function markdownText(text) {
  const el = h("div", { class: "bubble-text" });
  renderMarkdown(el, text || "");
  return el;
}

class Turn {
  constructor(message) {
    this.message = message;
    this.stages = Object.fromEntries(STAGES.map((s) => [s, "pending"]));
    this.platforms = new Set();
    this.snapshot = null;
    this.personalization = null;
    this.memoryUpdate = null;
    this.text = "";
    this.startedAt = performance.now();
    this.elapsed = null;
    this.undone = false;

    this.textEl = h("div", { class: "bubble-text", "aria-live": "polite" });
    this.activityEl = h("ol", { class: "activity", "aria-label": t("activity.label") });
    this.resultsEl = h("div", { class: "turn-results" });
    this.noticeEl = h("div", { class: "turn-notice" });
    this.errorEl = h("div", { class: "turn-error" });
    this.assistantEl = h(
      "div",
      { class: "msg msg-assistant streaming" },
      h("div", { class: "avatar", "aria-hidden": "true" }, "C"),
      h("div", { class: "msg-body" }, this.activityEl, h("div", { class: "bubble" }, this.textEl), this.noticeEl, this.resultsEl, this.errorEl),
    );
    this.el = h(
      "div",
      { class: "turn", "data-state": "running" },
      h("div", { class: "msg msg-user" }, h("div", { class: "bubble" }, h("span", { class: "sr-only" }, `${t("chat.you")}: `), message)),
      this.assistantEl,
    );
    this.renderActivity();
  }

  renderActivity() {
    clear(this.activityEl);
    for (const stage of STAGES) {
      const state = this.stages[stage];
      let label = t(`stage.${stage}`);
      if (stage === "searching" && this.platforms.size) label = tn("stage.searchingN", this.platforms.size);
      this.activityEl.append(
        h(
          "li",
          { class: `stage stage-${state}`, "data-stage": stage, "data-state": state },
          h("span", { class: "stage-icon", "aria-hidden": "true" }),
          label,
        ),
      );
    }
    if (this.elapsed !== null) {
      this.activityEl.append(h("li", { class: "stage stage-time" }, t("stage.done", { s: (this.elapsed / 1000).toFixed(1) })));
    }
  }

  setStage(step, state) {
    const stage = STEP_TO_STAGE[step];
    if (!stage) return;
    // Entering a stage means every earlier stage is over, even if its FINISHED was not sent.
    if (state === "active") {
      for (const earlier of STAGES.slice(0, STAGES.indexOf(stage))) {
        if (this.stages[earlier] !== "done") this.stages[earlier] = "done";
      }
    }
    if (!(state === "done" && step === "profile")) this.stages[stage] = state;
    this.renderActivity();
  }

  renderExtras(onUndo, onFollowup) {
    clear(this.resultsEl);
    if (this.snapshot) this.resultsEl.append(renderResults({ snapshot: this.snapshot, personalization: this.personalization, onFollowup }));
    clear(this.noticeEl);
    const update = this.memoryUpdate;
    if (update && ((update.added || []).length || (update.superseded || []).length)) {
      const added = (update.added || []).map((e) => `${preferenceLabel(e)}${e.domain ? ` (${domainName(e.domain)})` : ""}`);
      const replaced = (update.superseded || []).map((e) => preferenceLabel(e));
      this.noticeEl.append(
        h(
          "div",
          { class: `remembered ${this.undone ? "is-undone" : ""}`, role: "status" },
          h("span", { class: "remembered-icon", "aria-hidden": "true" }, "✓"),
          h(
            "span",
            { class: "remembered-text" },
            this.undone
              ? t("remembered.undone")
              : [
                  h("strong", {}, t("remembered.prefix")),
                  " ",
                  added.join("、"),
                  replaced.length ? ` · ${t("remembered.replaced", { old: replaced.join("、") })}` : "",
                ],
          ),
          this.undone
            ? null
            : h(
                "button",
                { type: "button", class: "btn btn-ghost btn-small undo", "aria-label": t("remembered.undoLabel"), onclick: () => onUndo(this) },
                t("remembered.undo"),
              ),
        ),
      );
    }
  }

  showError(error, onRetry) {
    clear(this.errorEl).append(
      h(
        "div",
        { class: "error-box", role: "alert" },
        h("div", {}, h("strong", {}, t("chat.errorTitle")), h("p", { class: "error-message" }, error.message)),
        h("button", { type: "button", class: "btn btn-primary btn-small retry", onclick: onRetry }, t("chat.retry")),
      ),
    );
  }
}

export class Chat {
  constructor({ log, form, input, sendButton, onMemoryChanged, onSession, onUnexpected }) {
    this.log = log;
    this.form = form;
    this.input = input;
    this.sendButton = sendButton;
    this.onMemoryChanged = onMemoryChanged;
    this.onSession = onSession;
    this.onUnexpected = onUnexpected;
    this.turns = [];
    this.controller = null;
    this.threadId = sessionStorage.getItem(THREAD_KEY) || this.freshThread();

    form.addEventListener("submit", (event) => {
      event.preventDefault();
      if (this.controller) return this.stop();
      this.send(input.value);
    });
    input.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        if (!this.controller) this.send(input.value);
      }
    });
  }

  freshThread() {
    const id = newId("web");
    sessionStorage.setItem(THREAD_KEY, id);
    return id;
  }

  newChat() {
    this.stop();
    this.threadId = this.freshThread();
    this.turns = [];
    for (const el of this.log.querySelectorAll(".turn, .history")) el.remove();
    this.log.classList.remove("has-turns");
    this.onSession(null);
    this.input.focus();
  }

  stop() {
    if (this.controller) this.controller.abort();
  }

  setBusy(busy) {
    this.sendButton.classList.toggle("is-stop", busy);
    this.sendButton.setAttribute("aria-label", t(busy ? "chat.stop" : "chat.send"));
    this.sendButton.querySelector(".send-label").textContent = t(busy ? "chat.stop" : "chat.send");
  }

  /** A result control's follow-up ("sort by price", "show me more"), unless a turn runs. */
  followup = (message) => {
    if (!this.controller) this.send(message);
  };

  async send(raw) {
    const message = raw.trim();
    if (!message || this.controller) return;
    this.input.value = "";
    this.input.style.height = "";
    const turn = new Turn(message);
    this.turns.push(turn);
    this.log.classList.add("has-turns");
    this.log.append(turn.el);
    this.reveal(turn);
    await this.run(turn);
  }

  /** Scroll the chat log (never the page) so the turn starts at its top: the shopper's
   * message, then the reply. Repeated as the reply and its cards arrive, since a new turn at
   * the end of the log is too short to be scrolled up until its content is there. */
  reveal(turn) {
    if (this.turns[this.turns.length - 1] !== turn) return;
    const top = turn.el.offsetTop - parseFloat(getComputedStyle(this.log).paddingTop || "0");
    const smooth = !matchMedia("(prefers-reduced-motion: reduce)").matches;
    this.log.scrollTo({ top: Math.max(0, top), behavior: smooth ? "smooth" : "auto" });
  }

  async run(turn) {
    this.controller = new AbortController();
    this.setBusy(true);
    try {
      await runAgent({
        threadId: this.threadId,
        message: turn.message,
        signal: this.controller.signal,
        onEvent: (event) => this.handle(turn, event),
      });
      turn.elapsed = performance.now() - turn.startedAt;
      for (const stage of STAGES) if (turn.stages[stage] === "active") turn.stages[stage] = "done";
      turn.renderActivity();
      this.reveal(turn);
      turn.el.dataset.state = "done";
    } catch (error) {
      for (const stage of STAGES) if (turn.stages[stage] === "active") turn.stages[stage] = "failed";
      turn.renderActivity();
      // Refused before the run started (HTTP 4xx/503): a row of empty stages would only add noise.
      turn.activityEl.hidden = STAGES.every((stage) => turn.stages[stage] === "pending");
      turn.el.dataset.state = error.name === "AbortError" ? "stopped" : "error";
      if (error.name === "AbortError") {
        turn.textEl.append(h("em", { class: "muted" }, ` ${t("chat.stopped")}`));
      } else {
        turn.showError(error, () => this.retry(turn));
        this.onUnexpected?.(error);
      }
    } finally {
      turn.assistantEl.classList.remove("streaming");
      this.controller = null;
      this.setBusy(false);
    }
  }

  retry(turn) {
    if (this.controller) return;
    const fresh = new Turn(turn.message);
    this.turns[this.turns.indexOf(turn)] = fresh;
    turn.el.replaceWith(fresh.el);
    this.run(fresh);
  }

  handle(turn, event) {
    switch (event.type) {
      case "STEP_STARTED":
        turn.setStage(event.stepName, "active");
        break;
      case "STEP_FINISHED":
        turn.setStage(event.stepName, "done");
        break;
      case "TOOL_CALL_START":
        if ((event.toolCallName || "").startsWith("item_search:")) {
          turn.platforms.add(event.toolCallName.slice("item_search:".length));
          turn.setStage("searching", "active");
        }
        break;
      case "TEXT_MESSAGE_START":
        // A new assistant message within the same run continues the same bubble.
        if (turn.text) turn.text += "\n\n";
        break;
      case "TEXT_MESSAGE_CONTENT":
        turn.text += event.delta || "";
        renderMarkdown(turn.textEl, turn.text);
        break;
      case "STATE_SNAPSHOT":
        turn.snapshot = event.snapshot || {};
        if (turn.snapshot.memory && turn.snapshot.memory.session) this.onSession(turn.snapshot.memory.session);
        // A watch made this turn belongs in the memory panel at once.
        if (turn.snapshot.price_answer && turn.snapshot.price_answer.watch) this.onMemoryChanged();
        turn.renderExtras((target) => this.undo(target), this.followup);
        this.reveal(turn);
        break;
      case "CUSTOM":
        if (event.name === "personalization") turn.personalization = event.value;
        if (event.name === "price_alerts") {
          for (const alert of event.value || []) toast(alertText(alert), { timeout: 8000 });
          this.onMemoryChanged();
        }
        if (event.name === "memory_updated") {
          turn.memoryUpdate = event.value || {};
          if (turn.memoryUpdate.session) this.onSession(turn.memoryUpdate.session);
          this.onMemoryChanged();
        }
        turn.renderExtras((target) => this.undo(target), this.followup);
        break;
      default:
        break;
    }
  }

  /** Undo a turn's memory changes: delete what was added, write back what was superseded. */
  async undo(turn) {
    const update = turn.memoryUpdate || {};
    try {
      for (const entry of update.added || []) {
        try {
          await api.deleteMemory(entry.dedup_key, entry.recipient);
        } catch (error) {
          if (error.status !== 404) throw error; // already gone is what undo wants
        }
      }
      for (const entry of update.superseded || []) {
        const { recipient, polarity, category, domain, slug, strength, keywords } = entry;
        await api.addMemory({ recipient, polarity, category, domain, slug, strength, keywords });
      }
      turn.undone = true;
      turn.renderExtras((target) => this.undo(target), this.followup);
      toast(t("remembered.undone"));
    } catch (error) {
      toast(error.message, { kind: "error", timeout: 8000 });
    }
    this.onMemoryChanged();
  }

  /** Show a thread's earlier messages (after a reload) as plain bubbles, once. */
  showHistory(messages) {
    if (this.turns.length || this.log.querySelector(".history") || !messages || !messages.length) return;
    const history = h(
      "div",
      { class: "history turn" },
      messages.map((m) =>
        m.role === "user"
          ? h("div", { class: "msg msg-user" }, h("div", { class: "bubble" }, m.content))
          : h(
              "div",
              { class: "msg msg-assistant" },
              h("div", { class: "avatar", "aria-hidden": "true" }, "C"),
              h("div", { class: "msg-body" }, h("div", { class: "bubble" }, markdownText(m.content))),
            ),
      ),
    );
    this.log.classList.add("has-turns");
    this.log.append(history);
  }

  rerender() {
    this.setBusy(Boolean(this.controller));
    for (const turn of this.turns) {
      turn.renderActivity();
      turn.renderExtras((target) => this.undo(target), this.followup);
    }
  }
}
