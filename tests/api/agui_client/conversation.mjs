// One HttpAgent, reused for a whole conversation, as AG-UI apps use it: every run resends
// the full message history and state. Prints one JSON line: per turn, how the run ended,
// the event types seen, and the request body size.
//
//   node conversation.mjs <base-url> <bearer-token> <thread-id> '<json array of messages>'
import { HttpAgent } from "@ag-ui/client";

const [baseUrl, token, threadId, turnsJson] = process.argv.slice(2);
const turns = JSON.parse(turnsJson);
const bodyBytes = [];
const agent = new HttpAgent({
  url: `${baseUrl}/api/agent`,
  headers: { Authorization: `Bearer ${token}` },
  threadId,
  fetch: (url, init) => {
    bodyBytes.push(Buffer.byteLength(typeof init.body === "string" ? init.body : ""));
    return fetch(url, init);
  },
});

const report = [];
for (const [index, text] of turns.entries()) {
  agent.addMessage({ id: `user-${index}`, role: "user", content: text });
  const events = [];
  let outcome = "finished";
  let error = null;
  try {
    await agent.runAgent(
      { runId: `run-${index}` },
      {
        onEvent: ({ event }) => {
          events.push(event.type);
        },
        onRunErrorEvent: ({ event }) => {
          outcome = "run_error";
          error = event.message;
        },
      },
    );
  } catch (caught) {
    outcome = "failed";
    error = String(caught?.message ?? caught);
  }
  report.push({
    turn: index + 1,
    outcome,
    error,
    events,
    bodyBytes: bodyBytes.at(-1) ?? 0,
    messages: agent.messages.length,
  });
}
console.log(JSON.stringify(report));
