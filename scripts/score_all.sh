#!/usr/bin/env bash
# Score the CLI on every shared question set, each in a fresh data home; per-question results go to OUT.
# usage: scripts/score_all.sh [OUT]   (default: benchmarks/out/scores)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-benchmarks/out/scores}
mkdir -p "$out"
shared=../shared
score() {  # name questions log
  local home; home=$(mktemp -d)
  COMBAT_ANALYSIS_HOME=$home COMBAT_ANALYSIS_RESIDENT=0 python3 "$shared/tools/score.py" --jobs 2 \
    --questions "$2" --log "$3" --json-out "$out/$1.json" \
    --cmd '.venv/bin/combat-analysis ask --log {log} --json {question}' > "$out/$1.txt"
  rm -rf "$home"
  printf '%-10s %s | %s\n' "$1" "$(grep 'direct answer alone' "$out/$1.txt")" "$(tail -1 "$out/$1.txt")"
}
score dev "$shared/eval/dev_questions.jsonl" "$shared/data/sample_match.log"
for n in 21 22 23; do
  score "match_$n" "$shared/eval/corpus/match_$n.questions.jsonl" "$shared/data/corpus/match_$n.log.gz"
done
for x in a b; do
  score "blind_$x" "$shared/eval/blind/match_$x.questions.jsonl" "$shared/data/blind/match_$x.log.gz"
done
