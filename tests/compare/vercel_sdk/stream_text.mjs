// The result the Vercel AI SDK's streamText builds from a captured stream, as JSON.
//
//   node stream_text.mjs PROVIDER STREAM_FILE [PROVIDER STREAM_FILE ...]
//
// One line of JSON per pair, in order: one process reads many streams, since loading the
// SDK takes most of a run's time.
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

const pairs = process.argv.slice(2);
if (pairs.length === 0 || pairs.length % 2 !== 0) {
  console.error("usage: node stream_text.mjs PROVIDER STREAM_FILE [PROVIDER STREAM_FILE ...]");
  process.exit(2);
}

const settingsFor = (body) => {
  const fetch = async () =>
    new Response(body, { status: 200, headers: { "content-type": "text/event-stream" } });
  return { apiKey: "test", baseURL: "http://127.0.0.1/v1", fetch };
};

const models = {
  "openai-chat": (settings) => createOpenAI(settings).chat("m"),
  "openai-responses": (settings) => createOpenAI(settings).responses("m"),
  anthropic: (settings) => createAnthropic(settings)("m"),
  google: (settings) => createGoogleGenerativeAI(settings)("m"),
  azure: (settings) => createAzure({ ...settings, resourceName: undefined }).chat("m"),
  deepseek: (settings) => createDeepSeek(settings)("m"),
  groq: (settings) => createGroq(settings)("m"),
  alibaba: (settings) => createAlibaba(settings)("m"),
  xai: (settings) => createXai(settings).chat("m"),
  "xai-responses": (settings) => createXai(settings).responses("m"),
  mistral: (settings) => createMistral(settings)("m"),
  moonshotai: (settings) => createMoonshotAI(settings)("m"),
  perplexity: (settings) => createPerplexity(settings)("m"),
  "open-responses": (settings) =>
    createOpenResponses({
      name: "lmstudio",
      url: "http://127.0.0.1/v1/responses",
      fetch: settings.fetch,
    })("m"),
};

for (let i = 0; i < pairs.length; i += 2) {
  const [provider, file] = [pairs[i], pairs[i + 1]];
  if (!(provider in models)) {
    console.error(`unknown provider ${provider}; expected one of ${Object.keys(models)}`);
    process.exit(2);
  }
  const model = models[provider](settingsFor(readFileSync(file)));
  process.stdout.write(JSON.stringify(await read(model)) + "\n");
}

async function read(model) {
  const errors = [];
  const result = streamText({
    model,
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
  return {
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
}
