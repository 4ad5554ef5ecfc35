"""The scripted model upstreams (tests/upstreams) read by the vendors' own SDKs: what the SDKs
parse out of the streams and the whole answers is what the script said."""

from __future__ import annotations

import json
import urllib.request

import anthropic as anthropic_sdk
import openai as openai_sdk
import pytest

from upstreams import Call, Fail, Text, anthropic, gemini, openai

TOOL = {"name": "get_weather", "description": "Weather of a city",
        "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}}}
LONG = "A sentence long enough to arrive in several deltas, with ünïcödé and \"quotes\". " * 3


def test_anthropic_streams_text_and_tool_use_as_the_sdk_expects():
    steps = [[Text(LONG), Call("get_weather", {"city": "Zürich", "days": [1, 2]})],
             lambda req: Text(f"got: {req.newest}")]
    with anthropic.Upstream(steps) as up:
        client = anthropic_sdk.Anthropic(base_url=up.url, api_key="any", max_retries=0)
        with client.messages.stream(model="claude-x", max_tokens=100, tools=[TOOL],
                                    messages=[{"role": "user", "content": "weather?"}]) as stream:
            events = [e.type for e in stream]
            first = stream.get_final_message()
        assert [b.type for b in first.content] == ["text", "tool_use"]
        assert first.content[0].text == LONG and first.stop_reason == "tool_use"
        assert first.content[1].input == {"city": "Zürich", "days": [1, 2]}
        assert events.count("input_json") > 1 and events.count("text") > 1
        second = client.messages.create(model="claude-x", max_tokens=100, tools=[TOOL], messages=[
            {"role": "user", "content": "weather?"},
            {"role": "assistant", "content": [b.model_dump() for b in first.content]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": first.content[1].id,
                                          "content": "sunny"}]}])
        assert second.content[0].text == "got: sunny" and second.stop_reason == "end_turn"
        side = client.messages.create(model="claude-x", max_tokens=10,
                                      messages=[{"role": "user", "content": "a title please"}])
        assert side.content[0].text == "OK"
        count = client.messages.count_tokens(model="claude-x", messages=[{"role": "user", "content": "hi"}])
        assert count.input_tokens > 0
        third = client.messages.create(model="claude-x", max_tokens=10, tools=[TOOL],
                                       messages=[{"role": "user", "content": "again"}])
        assert third.content[0].text == "Done."  # the script is used up
    assert [r.side for r in up.requests] == [False, False, True, False, False]
    assert up.requests[0].json["stream"] is True and up.requests[0].path == "/v1/messages"
    assert "any" in up.requests[0].headers["authorization"] and b'"weather?"' in up.requests[0].body
    assert "sunny" in up.main[1].text and up.errors == []


def test_anthropic_fail_is_an_api_error():
    with anthropic.Upstream([Fail(529, "overloaded")]) as up:
        client = anthropic_sdk.Anthropic(base_url=up.url, api_key="any", max_retries=0)
        with pytest.raises(anthropic_sdk.APIStatusError) as e:
            client.messages.create(model="m", max_tokens=5, tools=[TOOL], messages=[{"role": "user", "content": "x"}])
    assert e.value.status_code == 529 and e.value.body["error"]["type"] == "overloaded_error"


def test_anthropic_script_errors_are_kept_and_answered_500():
    with anthropic.Upstream([lambda req: 1 / 0]) as up:
        client = anthropic_sdk.Anthropic(base_url=up.url, api_key="any", max_retries=0)
        with pytest.raises(anthropic_sdk.InternalServerError):
            client.messages.create(model="m", max_tokens=5, tools=[TOOL], messages=[{"role": "user", "content": "x"}])
    assert isinstance(up.errors[0], ZeroDivisionError)


FUNCTION = {"type": "function", "name": "get_context", "parameters": {"type": "object", "properties": {}}}


def test_openai_responses_stream_and_whole():
    steps = [[Text(LONG), Call("get_context", {"path": "billing.py", "line": 2}, namespace="mcp__tether")],
             lambda req: Text(f"got: {req.newest}")]
    with openai.Upstream(steps) as up:
        client = openai_sdk.OpenAI(base_url=up.url + "/v1", api_key="any", max_retries=0)
        with client.responses.stream(model="gpt-x", input="context?", tools=[FUNCTION]) as stream:
            kinds = [e.type for e in stream]
            first = stream.get_final_response()
        assert kinds[0] == "response.created" and kinds[-1] == "response.completed"
        assert kinds.count("response.output_text.delta") > 1
        assert first.output_text == LONG
        call = first.output[1]
        assert call.type == "function_call" and json.loads(call.arguments) == {"path": "billing.py", "line": 2}
        second = client.responses.create(model="gpt-x", tools=[FUNCTION], input=[
            {"role": "user", "content": "context?"},
            {"type": "function_call", "call_id": call.call_id, "name": "get_context", "arguments": call.arguments},
            {"type": "function_call_output", "call_id": call.call_id, "output": "the note"}])
        assert second.output_text == "got: the note"
    assert up.requests[0].json["stream"] is True and "stream" not in up.requests[1].json
    assert up.requests[1].newest == "the note" and [r.side for r in up.requests] == [False, False]


def test_openai_chat_completions_stream_and_whole():
    with openai.Upstream([Text(LONG), Call("get_weather", {"city": "Oslo"}), Text("plain")],
                         is_side=lambda req: False) as up:
        client = openai_sdk.OpenAI(base_url=up.url + "/v1", api_key="any", max_retries=0)
        chunks = list(client.chat.completions.create(model="gpt-x", stream=True, stream_options={"include_usage": True},
                                                     messages=[{"role": "user", "content": "hi"}]))
        assert "".join(c.choices[0].delta.content or "" for c in chunks if c.choices) == LONG
        assert chunks[-1].usage.total_tokens > 0 and chunks[-2].choices[0].finish_reason == "stop"
        with client.chat.completions.stream(model="gpt-x", messages=[{"role": "user", "content": "w?"}]) as s:
            for _ in s:
                pass
            done = s.get_final_completion()
        call = done.choices[0].message.tool_calls[0]
        assert done.choices[0].finish_reason == "tool_calls" and json.loads(call.function.arguments) == {"city": "Oslo"}
        whole = client.chat.completions.create(model="gpt-x", messages=[{"role": "user", "content": "hi"}])
        assert whole.choices[0].message.content == "plain" and whole.usage.prompt_tokens > 0
        assert client.models.list().data[0].id == "scripted-model"
    assert len(up.main) == 3


def _post(url: str, body: dict) -> bytes:
    req = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(req) as r:
        return r.read()


def test_gemini_streams_sse_and_answers_whole_and_schemas():
    tools = [{"functionDeclarations": [{"name": "read_file"}]}]
    ask = {"contents": [{"role": "user", "parts": [{"text": "read it"}]}], "tools": tools}
    with gemini.Upstream([[Text(LONG), Call("read_file", {"file_path": "a.py"})], Text("whole")]) as up:
        raw = _post(up.url + "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse", ask).decode()
        assert raw.endswith("\r\n\r\n") and raw.startswith("data: {")
        chunks = [json.loads(e[6:]) for e in raw.split("\r\n\r\n") if e]
        parts = [p for c in chunks for p in c["candidates"][0]["content"]["parts"]]
        assert "".join(p.get("text", "") for p in parts) == LONG
        assert parts[-1] == {"functionCall": {"name": "read_file", "args": {"file_path": "a.py"}}}
        assert chunks[-1]["candidates"][0]["finishReason"] == "STOP" and "usageMetadata" in chunks[-1]
        whole = json.loads(_post(up.url + "/v1beta/models/gemini-2.5-pro:generateContent", ask))
        assert whole["candidates"][0]["content"]["parts"] == [{"text": "whole"}]
        verdict = json.loads(_post(up.url + "/v1beta/models/flash:generateContent", {
            "contents": [{"role": "user", "parts": [{"text": "route"}]}],
            "generationConfig": {"responseMimeType": "application/json", "responseJsonSchema": {
                "type": "object", "properties": {"reasoning": {"type": "string"},
                                                 "model_choice": {"type": "string", "enum": ["flash", "pro"]}}}}}))
        assert json.loads(verdict["candidates"][0]["content"]["parts"][0]["text"]) == {
            "reasoning": "ok", "model_choice": "flash"}
        count = json.loads(_post(up.url + "/v1beta/models/gemini-2.5-pro:countTokens", ask))
        assert count["totalTokens"] > 0
    assert [r.side for r in up.requests] == [False, False, True, False]
    assert up.requests[0].query == {"alt": ["sse"]} and up.main[0].newest == "read it"
