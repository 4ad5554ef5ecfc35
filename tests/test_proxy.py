"""`tether proxy`'s parts without a network: the byte-level injection (each API's trailing
block, byte for byte), what each API's table reads from a request and a response, the
compaction section cut from a stream, and the capture of a conversation into a real
workspace's observation log (only what is new, the blocks given again, nothing for hooked
agents)."""

from __future__ import annotations

import json

import orjson
import pytest

from tether.capture import observations as K
from tether.core.workspace import Workspace
from tether.proxy import compaction as C
from tether.proxy.apis import ANTHROPIC, CHAT, GEMINI, RESPONSES, api_for, family_for
from tether.proxy.capture import Capture, Options
from tether.proxy.exchange import events_of, read_request
from tether.proxy.inject import inject

from samples import git_init

PAY_PY = "def pay(amount):\n    return amount\n\n\ndef refund(amount):\n    return -amount\n"


def sse(*events: dict) -> bytes:
    return b"".join(b"event: x\ndata: " + orjson.dumps(e) + b"\n\n" for e in events)


# -- injection: every other byte unchanged -------------------------------------------------------------

def test_anthropic_block_is_appended_to_the_newest_message_and_nothing_else_changes():
    raw = (b'{"model":"m", "system":[{"type":"text","text":"sys \\u00e9"}],\n "messages":[{"role":"user","content":"hi"},'
           b'{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Read","input":{"file_path":"a.py"}}]},'
           b'{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"x = 1.0e0"}]}],'
           b'"tools":[{"name":"Read"}]}')
    out = inject(raw, "messages", ANTHROPIC.target, {2: "NOTES \"q\"\n"})
    block = b',{"type":"text","text":"NOTES \\"q\\"\\n"}'
    i = raw.rindex(b"}]}],")  # the end of the newest message's content
    assert out == raw[:i + 1] + block + raw[i + 1:]
    assert json.loads(out)["messages"][2]["content"][-1] == {"type": "text", "text": "NOTES \"q\"\n"}


def test_a_string_body_is_extended_or_wrapped_as_the_api_takes_it():
    chat = b'{"messages":[{"role":"user","content":"go"},{"role":"tool","tool_call_id":"c","content":"out"}]}'
    assert inject(chat, "messages", CHAT.target, {1: "N"}) == chat.replace(b'"out"', b'"out\\n\\nN"')
    anth = b'{"messages":[ {"role":"user","content":"go \\ud83d\\ude00"} ]}'
    assert inject(anth, "messages", ANTHROPIC.target, {0: "N"}) == anth.replace(
        b'"go \\ud83d\\ude00"', b'[{"type":"text","text":"go \\ud83d\\ude00"},{"type":"text","text":"N"}]')


def test_responses_and_gemini_blocks():
    resp = (b'{"input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"go"}]},'
            b'{"type":"function_call","call_id":"c1","name":"shell","arguments":"{}"},'
            b'{"type":"function_call_output","call_id":"c1","output":[]}]}')
    assert inject(resp, "input", RESPONSES.target, {2: "N"}) == resp.replace(
        b'"output":[]', b'"output":[{"type":"input_text","text":"N"}]')
    gem = b'{"contents":[{"role":"user","parts":[{"functionResponse":{"name":"read_file","response":{}}}]}]}'
    assert inject(gem, "contents", GEMINI.target, {0: "N"}) == gem.replace(b'{}}}]', b'{}}},{"text":"N"}]')


def test_several_blocks_and_nothing_to_add():
    raw = b'{"messages":[{"role":"user","content":[]},{"role":"assistant","content":[]},{"role":"user","content":[1]}]}'
    out = inject(raw, "messages", ANTHROPIC.target, {0: "A", 2: "B"})
    assert json.loads(out)["messages"][0]["content"] == [{"type": "text", "text": "A"}]
    assert json.loads(out)["messages"][2]["content"] == [1, {"type": "text", "text": "B"}]
    assert inject(raw, "messages", ANTHROPIC.target, {}) is raw
    assert inject(raw, "messages", ANTHROPIC.target, {9: "out of range"}) == raw


# -- what the tables read ----------------------------------------------------------------------------

def test_routes():
    assert api_for("POST", "/v1/messages") is ANTHROPIC and api_for("POST", "/v1/messages/count_tokens") is None
    assert api_for("POST", "/v1/chat/completions") is CHAT and api_for("POST", "/v1/responses") is RESPONSES
    assert api_for("POST", "/v1beta/models/gemini-2.5-pro:streamGenerateContent") is GEMINI
    assert api_for("GET", "/v1/messages") is None
    assert family_for("/v1/models", {"anthropic-version": "2023-06-01"}) == "anthropic"
    assert family_for("/v1/models", {"authorization": "Bearer x"}) == "openai"
    assert family_for("/v1beta/models", {}) == "gemini"


def _req(api, body: dict, headers=None):
    return read_request(api, orjson.dumps(body), headers or {})


def test_each_api_names_the_files_a_tool_result_comes_from():
    a = _req(ANTHROPIC, {"tools": [{}], "metadata": {"user_id": json.dumps({"session_id": "S1"})}, "messages": [
        {"role": "user", "content": "fix it"},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "Edit",
                                           "input": {"file_path": "/r/pay.py", "old_string": "x", "new_string": "y"}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "ok"}]}]})
    assert a.session == "S1" and a.main and [(t.path, t.edit) for t in a.touched()] == [("/r/pay.py", True)]
    c = _req(CHAT, {"tools": [{}], "messages": [
        {"role": "user", "content": "read"},
        {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function", "function": {
            "name": "read_file", "arguments": json.dumps({"path": "pay.py"})}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "text"}]})
    assert [(t.path, t.edit) for t in c.touched()] == [("pay.py", False)]
    r = _req(RESPONSES, {"tools": [{}], "input": [
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "patch"}]},
        {"type": "custom_tool_call", "call_id": "p1", "name": "apply_patch",
         "input": "*** Begin Patch\n*** Update File: src/pay.py\n@@\n-a\n+b\n*** End Patch"},
        {"type": "custom_tool_call_output", "call_id": "p1", "output": "Done"}]},
        {"x-codex-turn-metadata": json.dumps({"session_id": "codex-1"})})
    assert r.session == "codex-1" and [(t.path, t.edit) for t in r.touched()] == [("src/pay.py", True)]
    g = _req(GEMINI, {"tools": [{}], "contents": [
        {"role": "user", "parts": [{"text": "go"}]},
        {"role": "model", "parts": [{"functionCall": {"name": "replace", "args": {"file_path": "/r/pay.py"}}}]},
        {"role": "user", "parts": [{"functionResponse": {"name": "replace", "response": {"output": "ok"}}}]}]})
    assert [(t.path, t.edit) for t in g.touched()] == [("/r/pay.py", True)]
    assert g.session.startswith("proxy-gemini-")


def test_side_requests_compactions_and_hook_output():
    side = _req(ANTHROPIC, {"messages": [{"role": "user", "content": "title for: fix"}]})
    assert not side.main
    compact = _req(ANTHROPIC, {"tools": [{}], "messages": [{"role": "user", "content": [{"type": "text", "text": (
        "CRITICAL: Respond with TEXT ONLY. Do NOT call any tools.\n\nYour task is to create a detailed summary of "
        "the conversation so far, paying close attention")}]}]})
    assert compact.compaction and compact.main
    hooked = _req(ANTHROPIC, {"tools": [{}], "messages": [{"role": "user", "content": [
        {"type": "text", "text": "<system-reminder>PreToolUse:Read hook additional context: # tether notes for a.py"}]}]})
    assert hooked.hooked
    assert read_request(ANTHROPIC, b"not json", {}) is None


def test_replies_and_turn_ends_of_each_api():
    a = ANTHROPIC.reply(events_of(sse(
        {"type": "message_start", "message": {}},
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Do"}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "ne."}},
        {"type": "message_delta", "delta": {"stop_reason": "end_turn"}}), "text/event-stream"))
    assert (a.text, a.ended) == ("Done.", True)
    c = CHAT.reply(events_of(b'data: {"choices":[{"delta":{"content":"Hi"}}]}\n\ndata: {"choices":[{"delta":{},'
                             b'"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n', "text/event-stream"))
    assert (c.text, c.ended) == ("Hi", True)
    r = RESPONSES.reply(events_of(sse({"type": "response.completed", "response": {"status": "completed", "output": [
        {"type": "function_call", "call_id": "c", "name": "shell", "arguments": "{}"}]}}), "text/event-stream"))
    assert not r.ended and r.calls[0].name == "shell"
    g = GEMINI.reply(events_of(b'[{"candidates":[{"content":{"parts":[{"text":"ok"}]},"finishReason":"STOP"}]}]',
                               "application/json"))
    assert (g.text, g.ended) == ("ok", True)


def test_sse_events_whatever_the_line_ends():
    """Every line end SSE allows (LF, CR LF, CR), a data field over two lines, comments and
    events without data, and a stream cut off mid-event at either end (what capture keeps)."""
    want = [{"a": 1}, {"b": [1, 2]}, {"c": "x"}]
    lf = b': keep-alive\n\nevent: ping\n\nevent: e\ndata: {"a": 1}\n\ndata: {"b":\ndata: [1, 2]}\n\ndata:{"c": "x"}\n\n'
    for nl in (b"\n", b"\r\n", b"\r"):
        assert events_of(lf.replace(b"\n", nl), "text/event-stream") == want
    assert events_of(b'1}\n\n' + lf + b'data: {"d', "text/event-stream") == want


# -- compaction: the section asked for, cut from what the client gets -----------------------------------

SECTION = ("<tether-notes>\n- kind: decision\n  title: Money is integer cents\n  file: pay.py\n  symbol: pay\n"
           "  why: floats lose cents\n  rejected: floats -- rounding errors\n</tether-notes>")


def test_the_section_is_parsed_and_cut_from_a_stream_split_anywhere():
    summary, items = C.split("<summary>S</summary>\n\n" + SECTION)
    assert summary == "<summary>S</summary>"
    assert items == [{"kind": "decision", "title": "Money is integer cents", "file": "pay.py", "symbol": "pay",
                      "why": "floats lose cents", "rejected": [("floats", "rounding errors")]}]
    text = "<summary>S < T</summary>\n" + SECTION
    for size in (1, 3, 7, 200):
        pieces = [text[i:i + size] for i in range(0, len(text), size)]
        events = [{"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": p}}
                  for p in pieces] + [{"type": "content_block_stop", "index": 0}, {"type": "message_stop"}]
        raw = sse(*events)
        s = C.Stripper("anthropic", streamed=True)
        out = b"".join(s.feed(raw[i:i + 5]) for i in range(0, len(raw), 5)) + s.close()
        got = ANTHROPIC.reply(events_of(out, "text/event-stream")).text
        assert got == "<summary>S < T</summary>", size
        assert out.endswith(b'data: {"type":"message_stop"}\n\n')  # untouched events pass as they were


# -- capture into a real workspace ----------------------------------------------------------------------

@pytest.fixture
def ws(tmp_path):
    root = tmp_path / "repo"
    git_init(root)
    (root / "pay.py").write_text(PAY_PY, encoding="utf-8")
    w, _ = Workspace.init(root)
    w.record("decision", "pay.py", 1, title="Money is integer cents", rationale="floats lose cents",
             rejected=[("floats", "rounding")])
    yield w
    w.close()


def _turn(root, n_reads: int = 1) -> list[dict]:
    msgs = [{"role": "user", "content": "look at pay"}]
    for k in range(n_reads):
        msgs += [{"role": "assistant", "content": [{"type": "text", "text": f"reading {k}"}, {
                     "type": "tool_use", "id": f"t{k}", "name": "Read", "input": {"file_path": str(root / "pay.py")}}]},
                 {"role": "user", "content": [{"type": "tool_result", "tool_use_id": f"t{k}", "content": "..."}]}]
    return msgs


def test_notes_go_once_and_are_carried_at_the_same_place_byte_for_byte(ws):
    cap = Capture(ws, Options(distil=False))
    body = {"model": "m", "tools": [{"name": "Read"}], "messages": _turn(ws.root)}
    first = cap.request_body(read_request(ANTHROPIC, orjson.dumps(body), {}))
    sent = json.loads(first)["messages"][2]["content"][-1]["text"]
    assert sent.startswith("# tether notes for pay.py") and "Money is integer cents" in sent
    body2 = {**body, "messages": _turn(ws.root, 2)}
    second = cap.request_body(read_request(ANTHROPIC, orjson.dumps(body2), {}))
    msgs = json.loads(second)["messages"]
    assert msgs[2]["content"][-1]["text"] == sent  # carried: the model still sees it, the cache keeps its prefix
    assert len(msgs[4]["content"]) == 1  # the same file read again: its note is not given twice
    assert first.endswith(b"]}") and second.startswith(first[:-2] + b",")  # the first request, less its closing
    # brackets, is the second's first bytes: the prompt cache reads its prefix
    hooked = {**body, "messages": [{"role": "user", "content": "# tether notes for pay.py\n..."}, *_turn(ws.root)[1:]]}
    raw = orjson.dumps(hooked)
    assert cap.request_body(read_request(ANTHROPIC, raw, {})) is raw


def test_only_what_is_new_is_logged_and_the_turn_end_reply_once(ws):
    cap = Capture(ws, Options(distil=False))
    tools = [{"name": "Read"}]
    msgs = _turn(ws.root)
    req = read_request(ANTHROPIC, orjson.dumps({"tools": tools, "messages": msgs}), {})
    cap.exchanged(req, 200, ANTHROPIC.reply([{"type": "message", "content": [{"type": "text", "text": "All good."}],
                                              "stop_reason": "end_turn"}]))
    msgs += [{"role": "assistant", "content": [{"type": "text", "text": "All good."}]},
             {"role": "user", "content": "now refund"}]
    req = read_request(ANTHROPIC, orjson.dumps({"tools": tools, "messages": msgs}), {})
    cap.exchanged(req, 200, None)
    log = K.observations(ws, req.session)
    assert [(e["kind"], e.get("text") or e.get("path")) for e in log] == [
        ("prompt", "look at pay"), ("reply", "reading 0"), ("read", "pay.py"), ("reply", "All good."),
        ("prompt", "now refund")]


def test_gemini_and_whole_bodies_lose_the_section_too():
    text = "<state_snapshot>S</state_snapshot>\n" + SECTION
    chunks = [{"candidates": [{"content": {"role": "model", "parts": [{"text": text[i:i + 9]}]}}]}
              for i in range(0, len(text), 9)]
    chunks[-1]["candidates"][0]["finishReason"] = "STOP"
    raw = b"".join(b"data: " + orjson.dumps(c) + b"\r\n\r\n" for c in chunks)
    s = C.Stripper("gemini", streamed=True)
    out = s.feed(raw) + s.close()
    assert GEMINI.reply(events_of(out, "text/event-stream")).text == "<state_snapshot>S</state_snapshot>"
    body = {"candidates": [{"content": {"role": "model", "parts": [{"text": text}]}, "finishReason": "STOP"}]}
    s = C.Stripper("gemini", streamed=False)  # Gemini CLI's compression: generateContent, one JSON body
    assert s.feed(orjson.dumps(body)) == b""
    assert GEMINI.reply(events_of(s.close(), "application/json")).text == "<state_snapshot>S</state_snapshot>"
    whole = orjson.dumps({"type": "message", "content": [{"type": "text", "text": text}], "stop_reason": "end_turn"})
    s = C.Stripper("anthropic", streamed=False)
    assert s.feed(whole) == b""
    assert ANTHROPIC.reply(events_of(s.close(), "application/json")).text == "<state_snapshot>S</state_snapshot>"


def test_codex_compaction_loses_the_section_from_every_event_that_carries_its_text():
    """The Responses API says the text four times: the deltas, the part's text, the finished item
    (what Codex CLI keeps as the summary) and the completed response; the section leaves each."""
    from upstreams.openai import response_events
    summary = "Progress: pay() now takes cents.\nNext: refunds."

    def response(text: str) -> dict:
        return {"id": "resp_1", "object": "response", "status": "completed", "output": [
            {"id": "msg_1", "type": "message", "status": "completed", "role": "assistant",
             "content": [{"type": "output_text", "text": text, "annotations": []}]}]}

    def texts(out: bytes) -> list[str]:
        evs = events_of(out, "text/event-stream")
        by = {e["type"]: e for e in evs}
        return ["".join(e["delta"] for e in evs if e["type"] == "response.output_text.delta"),
                by["response.output_text.done"]["text"], by["response.content_part.done"]["part"]["text"],
                by["response.output_item.done"]["item"]["content"][0]["text"],
                RESPONSES.reply(evs).text]

    for tail in ("\n\n" + SECTION, "\n\n" + SECTION + "\n", "", "\n"):
        raw = b"".join(response_events(response(summary + tail)))
        s = C.Stripper("openai-responses", streamed=True)
        out = b"".join(s.feed(raw[i:i + 7]) for i in range(0, len(raw), 7)) + s.close()
        assert texts(out) == [summary + ("" if SECTION in tail else tail)] * 5, repr(tail)
        if not tail:
            assert out == raw  # nothing to cut: the stream's own bytes
    s = C.Stripper("openai-responses", streamed=False)
    assert s.feed(orjson.dumps(response(summary + "\n\n" + SECTION))) == b""
    assert RESPONSES.reply(events_of(s.close(), "application/json")).text == summary


def test_a_compaction_without_tools_is_the_sessions_turn(ws):
    """Codex CLI 0.169 compacts with ``tools: []`` and its checkpoint prompt as the newest user
    message: the section is asked for and the summary kept, in Codex's session."""
    prompt = ("You are performing a CONTEXT CHECKPOINT COMPACTION. Create a handoff summary for another LLM that "
              "will resume the task.")
    body = {"model": "m", "tools": [], "input": [
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "make pay exact"}]},
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": prompt}]}]}
    headers = {"x-codex-turn-metadata": json.dumps({"session_id": "codex-1"})}
    req = read_request(RESPONSES, orjson.dumps(body), headers)
    assert req.main and req.compaction and req.session == "codex-1"
    cap = Capture(ws, Options(distil=False, distil_on_compaction=True))
    sent = json.loads(cap.request_body(req))["input"][-1]["content"]
    assert sent[0]["text"] == prompt and sent[-1] == {"type": "input_text", "text": C.REQUEST}
    cap.exchanged(req, 200, RESPONSES.reply([{"object": "response", "status": "completed", "output": [
        {"type": "message", "content": [{"type": "output_text", "text": "Progress: pay.\n\n" + SECTION}]}]}]))
    assert [(e["kind"], e["text"]) for e in K.observations(ws, "codex-1") if e["kind"] == "summary"] == [
        ("summary", "Progress: pay.")]
    from tether.capture.candidates import candidates
    assert [(c.title, c.extractor) for c in candidates(ws)] == [("Money is integer cents", "compaction")]


def test_a_system_message_after_the_newest_hides_nothing(ws):
    """Claude Code 2.1 may end a request with a ``system`` message ("The following deferred tools
    are now available …"): the notes still go to the user's message before it, and a compaction
    is still known by its wording."""
    cap = Capture(ws, Options(distil=False, distil_on_compaction=True))
    system = {"role": "system", "content": "The following deferred tools are now available via ToolSearch."}
    body = {"model": "m", "tools": [{"name": "Read"}], "messages": [*_turn(ws.root), system]}
    msgs = json.loads(cap.request_body(read_request(ANTHROPIC, orjson.dumps(body), {})))["messages"]
    assert msgs[2]["content"][-1]["text"].startswith("# tether notes for pay.py") and msgs[3] == system
    compact = {**body, "messages": [*_turn(ws.root)[:2], {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "t0", "content": "..."},
        {"type": "text", "text": "Your task is to create a detailed summary of the conversation so far"}]}, system]}
    req = read_request(ANTHROPIC, orjson.dumps(compact), {})
    assert req.compaction and req.newest == 2
    assert json.loads(cap.request_body(req))["messages"][2]["content"][-1]["text"] == C.REQUEST
