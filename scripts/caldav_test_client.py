#!/usr/bin/env python3
"""The CalDAV requests of eventd's end-to-end test (standard library only):

  caldav_test_client.py mkcalendar URL
  caldav_test_client.py put URL FILE
  caldav_test_client.py delete URL

Basic authentication as test:test (Radicale runs with --auth-type none). Exits 0 on a
2xx answer and prints the status; otherwise prints it and exits 1.
"""
import base64, sys, urllib.error, urllib.request

AUTH = "Basic " + base64.b64encode(b"test:test").decode()


def main():
    command, url = sys.argv[1], sys.argv[2]
    body, headers = None, {"Authorization": AUTH}
    method = {"mkcalendar": "MKCALENDAR", "put": "PUT", "delete": "DELETE"}[command]
    if command == "put":
        with open(sys.argv[3], "rb") as f:
            body = f.read()
        headers["Content-Type"] = "text/calendar; charset=utf-8"
    request = urllib.request.Request(url, data=body, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            print(response.status)
            return 0
    except urllib.error.HTTPError as error:
        print(error.code, error.read()[:300])
        return 1


if __name__ == "__main__":
    sys.exit(main())
