// Frames one body with eventsource-parser, the way a fetch() reader feeds it: each chunk
// decoded by a streaming TextDecoder, then fed. Prints one JSON line per round:
// {"ms": wall time, "events": count, "data": total data characters}.
// Usage: node framing.mjs BODY_FILE CHUNK_SIZE ROUNDS
import { readFileSync } from "node:fs";
import { createParser } from "eventsource-parser";

const [file, size, rounds] = process.argv.slice(2);
const body = readFileSync(file);
const step = Number(size);
const chunks = [];
for (let i = 0; i < body.length; i += step) chunks.push(body.subarray(i, i + step));

for (let r = 0; r < Number(rounds); r++) {
  let events = 0;
  let data = 0;
  const parser = createParser({
    onEvent(event) {
      events += 1;
      data += event.data.length;
    },
  });
  const decoder = new TextDecoder();
  const start = performance.now();
  for (const chunk of chunks) parser.feed(decoder.decode(chunk, { stream: true }));
  parser.feed(decoder.decode());
  const ms = performance.now() - start;
  console.log(JSON.stringify({ ms, events, data }));
}
