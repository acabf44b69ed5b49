// Runs @ag-ui/client's HttpAgent over each body given on stdin (a JSON array of base64
// strings): the agent's fetch answers with the body, as an SSE response. Prints, for each,
// whether runAgent noticed anything wrong (it threw), as a JSON array.
import { HttpAgent } from "@ag-ui/client";

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const bodies = JSON.parse(Buffer.concat(chunks).toString("utf8"));
console.error = () => {};
console.warn = () => {};
const results = [];
for (const encoded of bodies) {
  const bytes = Buffer.from(encoded, "base64");
  const agent = new HttpAgent({
    url: "http://127.0.0.1:9/agent",
    fetch: async () =>
      new Response(bytes, { status: 200, headers: { "content-type": "text/event-stream" } }),
  });
  try {
    await agent.runAgent({ runId: "run" });
    results.push({ noticed: false, error: null });
  } catch (err) {
    results.push({ noticed: true, error: String((err && err.message) || err).slice(0, 200) });
  }
}
process.stdout.write(JSON.stringify(results));
