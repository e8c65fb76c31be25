#!/bin/sh
# Copies the dashboard's pictures, which the browser tests take in Debian's headless
# Chromium, from .build/test-output/dashboard/ into docs/ under the names README.md
# and docs/web-gateway.md show. Run the tests first:
#   swift test --skip-build --filter 'Dashboard(Browser|Controls|Motion|Timeline|Readable)Tests'
set -eu
from=.build/test-output/dashboard
to=docs
while read -r source target; do
    [ -f "$from/$source" ] || { echo "missing $from/$source: run the dashboard's browser tests" >&2; exit 1; }
    cp "$from/$source" "$to/$target"
done <<'LIST'
timeline-1280-light.png dashboard.png
timeline-1920.png dashboard-1920.png
timeline-1280-dark.png dashboard-dark.png
readable-de.png dashboard-de.png
timeline-390-controls.png dashboard-phone.png
controls-refused.png dashboard-refused.png
controls-reconnecting.png dashboard-reconnecting.png
readable-wall-1920.png dashboard-wall.png
readable-sheet.png dashboard-sheet.png
readable-empty-no-calendars.png dashboard-empty-no-calendars.png
readable-empty-none-ticked.png dashboard-empty-none-ticked.png
readable-empty-nothing.png dashboard-empty-nothing.png
motion-0-before.png dashboard-motion-before.png
motion-1-first-frame.png dashboard-motion-first-frame.png
motion-2-midway.png dashboard-motion-midway.png
motion-3-after.png dashboard-motion-after.png
LIST
