// Entry point: authentication, view switching, and wiring chat ↔ memory/session panels.
import { api, session, setUnauthorizedHandler } from "./api.js";
import { Chat } from "./chat.js";
import { toast } from "./dom.js";
import { applyStatic, lang, loadDomainNames, onLanguageChange, setLanguage, t } from "./i18n.js";
import { MemoryPanel, renderSession, renderSessionError } from "./memory.js";

const $ = (selector) => document.querySelector(selector);

let mode = "login";
let chat = null;
let memory = null;
let sessionState = null;

function showError(error) {
  toast(error.message, { kind: "error", timeout: 8000 });
}

// ---- authentication ----------------------------------------------------------------------

function setAuthMode(next) {
  mode = next;
  $("#auth-submit").dataset.i18n = next === "login" ? "auth.login" : "auth.register";
  $("#auth-switch").dataset.i18n = next === "login" ? "auth.switchToRegister" : "auth.switchToLogin";
  $("#auth-password").autocomplete = next === "login" ? "current-password" : "new-password";
  for (const hint of document.querySelectorAll(".auth-form .hint")) hint.hidden = next === "login";
  $("#auth-error").hidden = true;
  applyStatic(document);
}

async function submitAuth(event) {
  event.preventDefault();
  const username = $("#auth-username").value.trim();
  const password = $("#auth-password").value;
  const errorBox = $("#auth-error");
  const button = $("#auth-submit");
  errorBox.hidden = true;
  button.disabled = true;
  try {
    if (mode === "register") await api.register(username, password);
    const token = await api.login(username, password);
    session.save(token.access_token, username);
    $("#auth-password").value = "";
    showApp();
  } catch (error) {
    errorBox.textContent = error.message;
    errorBox.hidden = false;
  } finally {
    button.disabled = false;
  }
}

function showAuth(message) {
  $("#app-view").hidden = true;
  $("#auth-view").hidden = false;
  setAuthMode(mode);
  if (message) {
    $("#auth-error").textContent = message;
    $("#auth-error").hidden = false;
  }
  $("#auth-username").focus();
}

function logout() {
  chat?.stop();
  session.clear();
  sessionStorage.removeItem("cartwise.thread");
  location.reload();
}

// ---- the app -----------------------------------------------------------------------------

function selectTab(name) {
  for (const tab of ["memory", "session"]) {
    const selected = tab === name;
    const button = $(`#tab-${tab}`);
    button.setAttribute("aria-selected", String(selected));
    button.tabIndex = selected ? 0 : -1;
    $(`#${tab}-panel`).hidden = !selected;
  }
}

function setPanelOpen(open) {
  document.body.classList.toggle("panel-is-open", open);
  $("#panel-open").setAttribute("aria-expanded", String(open));
  if (open) $("#tab-memory").focus();
}

function onSession(state) {
  sessionState = state;
  renderSession($("#session-panel"), state, memory ? memory.entries : []);
}

async function loadThread() {
  try {
    const thread = await api.thread(chat.threadId);
    onSession(thread.state);
    chat.showHistory(thread.messages);
  } catch (error) {
    // 404: a thread that has no turn yet. Anything else is shown where the state would be.
    if (error.status !== 404) renderSessionError($("#session-panel"), error, loadThread);
  }
}

function showApp() {
  $("#auth-view").hidden = true;
  $("#app-view").hidden = false;
  $("#user-name").textContent = session.user;
  $("#user-name").title = t("auth.signedInAs", { user: session.user });
  if (!chat) {
    memory = new MemoryPanel($("#memory-panel"), { onError: showError });
    chat = new Chat({
      log: $("#chat-log"),
      form: $("#composer"),
      input: $("#chat-input"),
      sendButton: $("#send"),
      onMemoryChanged: () => memory.refresh(),
      onSession,
      onUnexpected: () => {},
    });
  }
  chat.setBusy(false);
  memory.refresh();
  onSession(null);
  loadThread();
  $("#chat-input").focus();
}

function wire() {
  $("#auth-form").addEventListener("submit", submitAuth);
  $("#auth-switch").addEventListener("click", () => setAuthMode(mode === "login" ? "register" : "login"));
  for (const button of document.querySelectorAll(".lang-toggle")) {
    button.addEventListener("click", () => setLanguage(lang() === "zh" ? "en" : "zh"));
  }
  $("#logout").addEventListener("click", logout);
  $("#new-chat").addEventListener("click", () => chat.newChat());
  $("#memory-refresh").addEventListener("click", () => memory.refresh());
  $("#tab-memory").addEventListener("click", () => selectTab("memory"));
  $("#tab-session").addEventListener("click", () => selectTab("session"));
  $(".tabs").addEventListener("keydown", (event) => {
    if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
    const next = $("#tab-memory").getAttribute("aria-selected") === "true" ? "session" : "memory";
    selectTab(next);
    $(`#tab-${next}`).focus();
  });
  $("#panel-open").addEventListener("click", () => setPanelOpen(true));
  $("#panel-close").addEventListener("click", () => {
    setPanelOpen(false);
    $("#panel-open").focus();
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && document.body.classList.contains("panel-is-open")) setPanelOpen(false);
  });
  for (const example of document.querySelectorAll(".example")) {
    example.addEventListener("click", () => chat.send(example.textContent));
  }
  const input = $("#chat-input");
  input.addEventListener("input", () => {
    input.style.height = "";
    input.style.height = `${Math.min(input.scrollHeight, 160)}px`;
  });
  onLanguageChange(() => {
    if (!chat) return;
    chat.rerender();
    memory.render();
    renderSession($("#session-panel"), sessionState, memory.entries);
  });
  setUnauthorizedHandler(() => {
    session.clear();
    showAuth(t("auth.expired"));
  });
}

wire();
applyStatic(document);
loadDomainNames().then(() => memory?.render());
document.body.dataset.ready = "true";
if (session.token) showApp();
else showAuth();
