#!/usr/bin/env bash
# Builds the Discord Activity's browser client (web/activity/) into
# bot/activity/static/, which is committed: run this after changing anything
# in web/activity/ and commit both (tests/bot/test_activity_bundle.py checks that
# the built files match the sources). Needs Node.js 18+ and npm.
set -euo pipefail
cd "$(dirname "$0")/../web/activity"
npm ci --no-audit --no-fund
node build.mjs
