"""The specs and reference client behaviour the checks' rules come from."""

from __future__ import annotations

__all__ = [
    "ANTHROPIC",
    "BEDROCK",
    "COHERE",
    "GEMINI",
    "HTTP",
    "JSON",
    "NGINX",
    "OLLAMA",
    "OPENAI_CHAT",
    "OPENAI_CHAT_OPTIONS",
    "OPENAI_CHAT_PARALLEL",
    "OPENAI_CHAT_TOOL_CHOICE",
    "OPENAI_RESPONSES",
    "SSE",
    "VERCEL_UI",
]

SSE = "https://html.spec.whatwg.org/multipage/server-sent-events.html"
HTTP = "https://www.rfc-editor.org/rfc/rfc9110"
JSON = "https://www.rfc-editor.org/rfc/rfc8259"
NGINX = "https://nginx.org/en/docs/http/ngx_http_proxy_module.html#proxy_buffering"
OPENAI_CHAT = "https://platform.openai.com/docs/api-reference/chat-streaming"
OPENAI_CHAT_OPTIONS = (
    "https://platform.openai.com/docs/api-reference/chat/create#chat-create-stream_options"
)
OPENAI_CHAT_PARALLEL = (
    "https://platform.openai.com/docs/api-reference/chat/create#chat-create-parallel_tool_calls"
)
OPENAI_CHAT_TOOL_CHOICE = (
    "https://platform.openai.com/docs/api-reference/chat/create#chat-create-tool_choice"
)
OPENAI_RESPONSES = "https://platform.openai.com/docs/api-reference/responses-streaming"
ANTHROPIC = "https://docs.anthropic.com/en/docs/build-with-claude/streaming"
GEMINI = "https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent"
OLLAMA = "https://github.com/ollama/ollama/blob/main/docs/api.md"
BEDROCK = "https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html"
COHERE = "https://docs.cohere.com/reference/chat-stream"
VERCEL_UI = "https://ai-sdk.dev/docs/ai-sdk-ui/stream-protocol"
