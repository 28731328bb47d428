// Thin fetch wrapper: bearer token in sessionStorage (gone when the tab closes), JSON in and
// out, and every failure turned into an ApiError whose message a shopper can read.
import { t } from "./i18n.js";

const TOKEN_KEY = "cartwise.token";
const USER_KEY = "cartwise.user";

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.name = "ApiError";
    this.status = status;
  }
}

export const session = {
  get token() {
    return sessionStorage.getItem(TOKEN_KEY);
  },
  get user() {
    return sessionStorage.getItem(USER_KEY);
  },
  save(token, user) {
    sessionStorage.setItem(TOKEN_KEY, token);
    sessionStorage.setItem(USER_KEY, user);
  },
  clear() {
    sessionStorage.removeItem(TOKEN_KEY);
    sessionStorage.removeItem(USER_KEY);
  },
};

let onUnauthorized = () => {};

export function setUnauthorizedHandler(handler) {
  onUnauthorized = handler;
}

function detailText(body) {
  // FastAPI validation errors carry a list of {loc, msg}; our own errors a plain string.
  if (!body || body.detail === undefined) return "";
  if (typeof body.detail === "string") return body.detail;
  if (Array.isArray(body.detail)) {
    return body.detail
      .map((item) => {
        const field = Array.isArray(item.loc) ? item.loc[item.loc.length - 1] : "";
        return field ? `${field}: ${item.msg}` : item.msg;
      })
      .join("; ");
  }
  return JSON.stringify(body.detail);
}

/** Turn a non-2xx Response into an ApiError with the server's own explanation. */
export async function errorFromResponse(response) {
  let detail = "";
  try {
    detail = detailText(await response.json());
  } catch {
    detail = "";
  }
  const fallback = t(`error.${response.status}`) !== `error.${response.status}`
    ? t(`error.${response.status}`)
    : t("error.status", { status: response.status });
  const message = detail ? `${detail} (HTTP ${response.status})` : `${fallback} (HTTP ${response.status})`;
  if (response.status === 401 && session.token) onUnauthorized();
  return new ApiError(response.status, message);
}

export function authHeaders() {
  const token = session.token;
  return token ? { Authorization: `Bearer ${token}` } : {};
}

export async function request(method, path, { json, form, signal } = {}) {
  const headers = { Accept: "application/json", ...authHeaders() };
  let body;
  if (json !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(json);
  } else if (form !== undefined) {
    body = new URLSearchParams(form);
  }
  let response;
  try {
    response = await fetch(path, { method, headers, body, signal });
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new ApiError(0, t("error.network"));
  }
  if (!response.ok) throw await errorFromResponse(response);
  if (response.status === 204) return null;
  return response.json();
}

export const api = {
  register: (username, password) => request("POST", "/api/auth/register", { json: { username, password } }),
  login: (username, password) => request("POST", "/api/auth/token", { form: { username, password } }),
  me: () => request("GET", "/api/me"),
  listMemory: () => request("GET", "/api/memory"),
  addMemory: (entry) => request("POST", "/api/memory", { json: entry }),
  patchMemory: (key, changes, recipient = "self") =>
    request("PATCH", `/api/memory/${encodeURIComponent(key)}?recipient=${encodeURIComponent(recipient)}`, { json: changes }),
  deleteMemory: (key, recipient = "self") =>
    request("DELETE", `/api/memory/${encodeURIComponent(key)}?recipient=${encodeURIComponent(recipient)}`),
  thread: (thread) => request("GET", `/api/threads/${encodeURIComponent(thread)}`),
  listWatches: ({ closed = false } = {}) => request("GET", closed ? "/api/watches?closed=true" : "/api/watches"),
  patchWatch: (id, changes) => request("PATCH", `/api/watches/${encodeURIComponent(id)}`, { json: changes }),
  cancelWatch: (id) => request("DELETE", `/api/watches/${encodeURIComponent(id)}`),
  listAlerts: () => request("GET", "/api/alerts"),
};
