#!/usr/bin/env python3
"""Subscribe to eventd's feed and keep the view in step (standard library only).

  feed_client.py [SOCKET]          follow the feed; on a digest mismatch, subscribe afresh
  feed_client.py --replay FILE     apply a recorded session; print each state's seq and digest
"""
import hashlib, json, os, socket, sys

def digest(sections):
    text = json.dumps(sections, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()

def apply(sections, ch):  # the reference application of docs/protocol.md
    s, i, old = ch["sections"], ch["items"], {sec["id"]: sec for sec in sections}
    moved = {m["id"]: next(x for x in old[m["from"]["section"]]["items"] if x["id"] == m["id"]) for m in i["moved"]}
    gone = {(d["section"], d["id"]) for d in i["deleted"]} | {(m["from"]["section"], m["id"]) for m in i["moved"]}
    for sec in sections:  # 1. remove deleted and moved items, deleted and moved sections
        sec["items"] = [x for x in sec["items"] if (sec["id"], x["id"]) not in gone]
    detached = {m["id"] for m in s["moved"]}
    out = [x for x in sections if x["id"] not in set(s["deleted"]) | detached]
    ins = [(x["index"], x["section"]) for x in s["inserted"]] + [(m["to"], old[m["id"]]) for m in s["moved"]]
    for index, sec in sorted(ins, key=lambda t: t[0]): out.insert(index, sec)  # 2. sections
    new = {sec["id"]: sec for sec in out}
    ins = [(x["index"], x["section"], x["item"]) for x in i["inserted"]]
    ins += [(m["to"]["index"], m["to"]["section"], moved[m["id"]]) for m in i["moved"]]
    for index, sec, item in sorted(ins, key=lambda t: t[0]): new[sec]["items"].insert(index, item)  # 3. items
    for u in i["updated"]:  # 4. contents and headers
        items = new[u["section"]]["items"]
        items[[x["id"] for x in items].index(u["item"]["id"])] = u["item"]
    for u in s["updated"]: new[u["section"]["id"]].update(u["section"])
    return out

def follow(lines, resubscribe):
    """Yields (message, sections) for each snapshot and diff applied. A diff that does not
    follow on or whose digest differs drops the copy: resubscribe() asks for a snapshot."""
    sections, seq = None, None
    for line in lines:
        msg = json.loads(line)
        if msg["type"] == "snapshot": sections, seq = msg["sections"], msg["seq"]
        elif msg["type"] == "diff" and sections is not None:
            try:
                assert msg["base_seq"] == seq
                sections, seq = apply(sections, msg["changes"]), msg["seq"]
                assert digest(sections) == msg["digest"]
            except (AssertionError, KeyError, ValueError, StopIteration):
                sections, seq = None, None; resubscribe(); continue
        else: continue
        yield msg, sections

if len(sys.argv) > 2 and sys.argv[1] == "--replay":
    with open(sys.argv[2], "rb") as f:
        for msg, sections in follow(f, lambda: print("mismatch", flush=True)): print(msg["seq"], digest(sections))
    sys.exit()
path = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("EVENTD_SOCKET", f"/tmp/eventd-{os.getuid()}/feed.sock")
conn = socket.socket(socket.AF_UNIX); conn.connect(path); stream = conn.makefile("rwb")
def subscribe(): stream.write(b'{"op":"subscribe","view":{"days":7}}\n'); stream.flush()
subscribe()
for msg, sections in follow(stream, subscribe):
    print(msg["type"], msg["seq"], sum(len(s["items"]) for s in sections), "items", flush=True)
