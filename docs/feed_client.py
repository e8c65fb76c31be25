#!/usr/bin/env python3
"""Subscribe to eventd's feed and keep the view in step (standard library only)."""
import hashlib, json, os, socket, sys

def digest(sections):
    text = json.dumps(sections, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()

def apply(sections, ch):  # the reference application of docs/protocol.md
    s, i, old = ch["sections"], ch["items"], {sec["id"]: sec for sec in sections}
    moved = {m["id"]: next(x for x in old[m["from"]["section"]]["items"] if x["id"] == m["id"]) for m in i["moved"]}
    gone = {d["id"] for d in i["deleted"]} | set(moved)
    for sec in sections:  # 1. remove deleted and moved items, deleted and moved sections
        sec["items"] = [x for x in sec["items"] if x["id"] not in gone]
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

path = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("EVENTD_SOCKET", f"/tmp/eventd-{os.getuid()}/feed.sock")
conn = socket.socket(socket.AF_UNIX); conn.connect(path); stream = conn.makefile("rwb")
stream.write(b'{"op":"subscribe","view":{"days":7}}\n'); stream.flush()
sections = []
for line in stream:
    msg = json.loads(line)
    if msg["type"] == "snapshot": sections = msg["sections"]
    elif msg["type"] == "diff":
        sections = apply(sections, msg["changes"])
        assert digest(sections) == msg["digest"], "digest mismatch: subscribe again"
    print(msg["type"], msg.get("seq", ""), sum(len(s["items"]) for s in sections), "items", flush=True)
