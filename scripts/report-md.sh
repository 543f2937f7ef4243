#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# report-md JSON: a report (report-json.sh's, or "-" for one on stdin) as
# Markdown on stdout: the summary that fits a screen (runs, failures with
# their console lines, findings), then every results file collapsed per
# suite.
set -euo pipefail

json=${1:?usage: report-md.sh JSON}
[ "$json" != - ] || json=/dev/stdin
jq -r -L "${0%/*}" 'include "report"; report_md' "$json"
