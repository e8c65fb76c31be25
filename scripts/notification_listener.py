#!/usr/bin/env python3
"""A minimal org.freedesktop.Notifications server for eventd's reminder tests.

Owns the name on the bus at --address (a private session bus the test started),
answers Notify with a fresh id, and appends each notification to --out as one JSON
line ({"app", "summary", "body", "urgency"}). Stops when the bus goes away."""
import argparse
import json

from jeepney import HeaderFields, MessageType, new_error, new_method_return
from jeepney.bus_messages import message_bus
from jeepney.io.blocking import open_dbus_connection

NAME = "org.freedesktop.Notifications"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--address", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    conn = open_dbus_connection(bus=args.address)
    reply = conn.send_and_get_reply(message_bus.RequestName(NAME, 4))  # DO_NOT_QUEUE
    if reply.body[0] != 1:
        raise SystemExit("could not own " + NAME)
    with open(args.out + ".ready", "w") as f:
        f.write("ready\n")
    count = 0
    while True:
        try:
            msg = conn.receive()
        except (ConnectionError, OSError):
            return
        if msg.header.message_type != MessageType.method_call:
            continue
        member = msg.header.fields.get(HeaderFields.member)
        if member == "Notify":
            app, _replaces, _icon, summary, body, _actions, hints, _timeout = msg.body
            count += 1
            urgency = hints.get("urgency", ("y", 1))[1]
            with open(args.out, "a") as f:
                f.write(json.dumps({"app": app, "summary": summary, "body": body, "urgency": urgency}) + "\n")
            conn.send(new_method_return(msg, "u", (count,)))
        elif member == "GetServerInformation":
            conn.send(new_method_return(msg, "ssss", ("eventd-test", "eventd", "1", "1.2")))
        else:
            conn.send(new_error(msg, "org.freedesktop.DBus.Error.UnknownMethod"))


if __name__ == "__main__":
    main()
