// POST /api/agent with an AG-UI RunAgentInput and read the text/event-stream response with
// fetch + ReadableStream (EventSource cannot POST or send a bearer token).
import { ApiError, authHeaders, errorFromResponse } from "./api.js";
import { lang, t } from "./i18n.js";

export function newId(prefix) {
  const random = crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(16).slice(2)}`;
  return `${prefix}-${random}`;
}

/** Split an SSE buffer into complete events; returns [events, rest]. */
export function parseSseChunk(buffer) {
  const events = [];
  const blocks = buffer.split(/\r?\n\r?\n/);
  const rest = blocks.pop();
  for (const block of blocks) {
    const data = block
      .split(/\r?\n/)
      .filter((line) => line.startsWith("data:"))
      .map((line) => line.slice(5).replace(/^ /, ""))
      .join("\n");
    if (!data) continue;
    try {
      events.push(JSON.parse(data));
    } catch {
      // A malformed frame is a server bug; surface it instead of dropping it silently.
      events.push({ type: "RUN_ERROR", message: `unreadable event from server: ${data.slice(0, 80)}` });
    }
  }
  return [events, rest];
}

/**
 * Run one agent turn. Calls onEvent for every AG-UI event, in order. Resolves when the stream
 * ends; rejects with ApiError on an HTTP error, a RUN_ERROR event, or a stream cut short.
 */
export async function runAgent({ threadId, message, onEvent, signal }) {
  const input = {
    threadId,
    runId: newId("run"),
    messages: [{ id: newId("msg"), role: "user", content: message }],
    state: {},
    tools: [],
    context: [],
    // The page's language: the reply and every text the turn sends come in it.
    forwardedProps: { language: lang() },
  };
  let response;
  try {
    response = await fetch("/api/agent", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "text/event-stream", ...authHeaders() },
      body: JSON.stringify(input),
      signal,
    });
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new ApiError(0, t("error.network"));
  }
  if (!response.ok) throw await errorFromResponse(response);

  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let finished = false;
  let runError = null;
  const handle = (events) => {
    for (const event of events) {
      if (event.type === "RUN_FINISHED") finished = true;
      if (event.type === "RUN_ERROR") runError = event;
      onEvent(event);
    }
  };
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      const [events, rest] = parseSseChunk(buffer);
      buffer = rest;
      handle(events);
    }
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new ApiError(0, t("error.streamEnded"));
  }
  handle(parseSseChunk(`${buffer}${decoder.decode()}\n\n`)[0]);
  if (runError) {
    const code = runError.code ? ` [${runError.code}]` : "";
    throw new ApiError(500, `${runError.message || t("chat.errorTitle")}${code}`);
  }
  if (!finished) throw new ApiError(0, t("error.streamEnded"));
}
