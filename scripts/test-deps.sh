#!/bin/sh
# The system programs the test suite drives, installed when missing so the
# README's test command runs every test on a fresh Debian or Ubuntu machine:
# Chromium (the sandbox's browser tests; Playwright never downloads a
# browser here), PostgreSQL's server binaries (initdb, pg_ctl: the store's
# tests start a throwaway server of their own, nothing is left running) and
# the colour emoji font the pictures draw names' emoji with (without it they
# are dropped and the emoji pictures' tests skip), and a Japanese font for
# the browser's pages (the Activity's and the sandbox's Japanese screenshots;
# without one they show empty boxes, the tests still pass).
# Elsewhere (no apt-get) it says what is missing; those tests then skip.
missing=""
command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 \
    || missing="$missing chromium"
if ! command -v initdb >/dev/null 2>&1 && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    missing="$missing postgresql"
fi
[ -f /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf ] || missing="$missing fonts-noto-color-emoji"
if command -v fc-list >/dev/null 2>&1 && [ -z "$(fc-list :lang=ja 2>/dev/null)" ]; then
    missing="$missing fonts-ipaexfont-gothic"
fi
[ -z "$missing" ] && exit 0
if ! command -v apt-get >/dev/null 2>&1; then
    echo "test-deps: please install$missing (their tests will be skipped)" >&2
    exit 0
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "test-deps: installing$missing with apt-get" >&2
if ! { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing >/dev/null; }; then
    echo "test-deps: could not install$missing (their tests will be skipped)" >&2
fi
exit 0
