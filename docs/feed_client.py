#!/usr/bin/env python3
"""Subscribe to eventd's feed and keep the view in step (standard library only).

  feed_client.py [SOCKET]          follow the feed; on a digest mismatch, subscribe afresh
  feed_client.py --replay FILE     apply a recorded session; print each state's seq and digest
"""
import hashlib, json, os, socket, sys

def sha(value): return hashlib.sha256(json.dumps(value, sort_keys=True, separators=(",", ":")).encode()).hexdigest()

def digest(sections, protocol=1, kept=None):
    """Protocol 1: the SHA-256 of the sections. 2: of the sections' digests in order
    (kept: digests by section id; a section missing from it is hashed and kept)."""
    if protocol != 2: return sha(sections)
    kept = {} if kept is None else kept
    for sec in sections: kept.setdefault(sec["id"], sha(sec))
    return hashlib.sha256("".join(kept[sec["id"]] for sec in sections).encode()).hexdigest()

def touched(ch):  # the sections whose JSON a diff changes
    s, i = ch["sections"], ch["items"]
    ids = {x["section"]["id"] for x in s["inserted"] + s["updated"]} | {m["id"] for m in s["moved"]}
    ids |= {x["section"] for x in i["deleted"] + i["inserted"] + i["updated"]}
    return ids | {m[k]["section"] for m in i["moved"] for k in ("from", "to")}

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
    sections, seq, kept = None, None, {}
    for line in lines:
        msg = json.loads(line)
        if msg["type"] == "snapshot": sections, seq, kept = msg["sections"], msg["seq"], {}
        elif msg["type"] == "diff" and sections is not None:
            try:
                assert msg["base_seq"] == seq
                sections, seq = apply(sections, msg["changes"]), msg["seq"]
                for sid in touched(msg["changes"]) | set(msg["changes"]["sections"]["deleted"]): kept.pop(sid, None)
                assert digest(sections, msg.get("protocol", 1), kept) == msg["digest"]
            except (AssertionError, KeyError, ValueError, StopIteration):
                sections, seq = None, None; resubscribe(); continue
        else: continue
        yield msg, digest(sections, msg.get("protocol", 1), kept)

if len(sys.argv) > 2 and sys.argv[1] == "--replay":
    with open(sys.argv[2], "rb") as f:
        for msg, state in follow(f, lambda: print("mismatch", flush=True)): print(msg["seq"], state)
    sys.exit()
path = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("EVENTD_SOCKET", f"/tmp/eventd-{os.getuid()}/feed.sock")
conn = socket.socket(socket.AF_UNIX); conn.connect(path); stream = conn.makefile("rwb")
def subscribe(): stream.write(b'{"op":"subscribe","protocol":2,"view":{"days":7}}\n'); stream.flush()
subscribe()
for msg, state in follow(stream, subscribe): print(msg["type"], msg["seq"], state, flush=True)
