// The result the Vercel AI SDK's streamText builds from a captured stream, as JSON.
//
//   node stream_text.mjs PROVIDER STREAM_FILE
//
// PROVIDER names the SDK provider package that reads the stream (see `models`: openai-chat,
// openai-responses, anthropic, google, azure, deepseek, groq, alibaba, xai, xai-responses,
// mistral, moonshotai, perplexity, open-responses). The provider's fetch is
// answered with the file's bytes (the body as the wire carried it); nothing leaves the
// machine. The printed object has the fields of the SDK's result that check --against
// reads: text, reasoningText, toolCalls, finishReason, rawFinishReason, usage, response.
import { readFileSync } from "node:fs";
import { streamText } from "ai";
import { createOpenAI } from "@ai-sdk/openai";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createAzure } from "@ai-sdk/azure";
import { createDeepSeek } from "@ai-sdk/deepseek";
import { createGroq } from "@ai-sdk/groq";
import { createAlibaba } from "@ai-sdk/alibaba";
import { createXai } from "@ai-sdk/xai";
import { createMistral } from "@ai-sdk/mistral";
import { createMoonshotAI } from "@ai-sdk/moonshotai";
import { createPerplexity } from "@ai-sdk/perplexity";
import { createOpenResponses } from "@ai-sdk/open-responses";

globalThis.AI_SDK_LOG_WARNINGS = false; // stdout carries the result alone

const [provider, file] = process.argv.slice(2);
const body = readFileSync(file);

const fetch = async () =>
  new Response(body, { status: 200, headers: { "content-type": "text/event-stream" } });
const settings = { apiKey: "test", baseURL: "http://127.0.0.1/v1", fetch };

const models = {
  "openai-chat": () => createOpenAI(settings).chat("m"),
  "openai-responses": () => createOpenAI(settings).responses("m"),
  anthropic: () => createAnthropic(settings)("m"),
  google: () => createGoogleGenerativeAI(settings)("m"),
  azure: () => createAzure({ ...settings, resourceName: undefined }).chat("m"),
  deepseek: () => createDeepSeek(settings)("m"),
  groq: () => createGroq(settings)("m"),
  alibaba: () => createAlibaba(settings)("m"),
  xai: () => createXai(settings).chat("m"),
  "xai-responses": () => createXai(settings).responses("m"),
  mistral: () => createMistral(settings)("m"),
  moonshotai: () => createMoonshotAI(settings)("m"),
  perplexity: () => createPerplexity(settings)("m"),
  "open-responses": () =>
    createOpenResponses({ name: "lmstudio", url: "http://127.0.0.1/v1/responses", fetch })("m"),
};
if (!(provider in models)) {
  console.error(`unknown provider ${provider}; expected one of ${Object.keys(models)}`);
  process.exit(2);
}

const errors = [];
const result = streamText({
  model: models[provider](),
  prompt: "hi",
  onError: ({ error }) => errors.push(String(error)),
});
await result.consumeStream();
// a stream that failed leaves some of the result's promises rejected: each field is
// taken as the SDK gives it, or left out
const field = async (promise) => {
  try {
    return await promise;
  } catch (error) {
    errors.push(String(error));
    return undefined;
  }
};
const calls = (await field(result.toolCalls)) ?? [];
const response = (await field(result.response)) ?? {};
const out = {
  text: (await field(result.text)) ?? null,
  reasoningText: (await field(result.reasoningText)) ?? null,
  toolCalls: calls.map((c) => ({
    toolCallId: c.toolCallId,
    toolName: c.toolName,
    input: c.input,
    ...(c.providerExecuted ? { providerExecuted: true } : {}),
  })),
  finishReason: (await field(result.finishReason)) ?? null,
  rawFinishReason: (await field(result.rawFinishReason)) ?? null,
  usage: (await field(result.usage)) ?? null,
  response: { id: response.id ?? null, modelId: response.modelId ?? null },
  errors,
};
process.stdout.write(JSON.stringify(out) + "\n");
