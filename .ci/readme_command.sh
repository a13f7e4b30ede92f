#!/usr/bin/env bash
# Prints the command that follows the marker <!-- NAME --> in README.md, so CI
# runs exactly what the README tells users to run.
set -euo pipefail
name="$1"
readme="$(dirname "$0")/../README.md"
awk -v marker="<!-- ${name} -->" '
  $0 == marker { found = 1; next }
  found && /^```/ { if (opened) exit; opened = 1; next }
  found && opened { print; exit }
' "$readme"
