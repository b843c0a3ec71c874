#!/usr/bin/env bash
# One shard of a boggle-opt proof per SLURM array task; submit with
#   SHARDS=100 sbatch --array=1-100 --export=ALL examples/campaigns/slurm-array.sh
# A preempted task that SLURM requeues (--requeue) finds its run file and
# resumes it; a finished one exits at once. Verify all the files together:
#   boggle-opt verify "$OUT"/shard-*.jsonl
#SBATCH --job-name=boggle-proof
#SBATCH --cpus-per-task=2
#SBATCH --mem-per-cpu=2G
#SBATCH --requeue
#SBATCH --open-mode=append
set -euo pipefail

: "${SLURM_ARRAY_TASK_ID:?run this as an array job: sbatch --array=1-N}"
SHARDS="${SHARDS:?set SHARDS to N, the number of array tasks}"
SIZE="${SIZE:-4x4}"
WORDLIST="${WORDLIST:-enable2k}"
# the word list's language, if not its own (boggle-opt plan prints it when given)
LANGUAGE="${LANGUAGE:-}"
RULE="${RULE:-standard}"
# words of this many letters or more, if not the rule's own minimum (plan prints it when given)
MIN_LETTERS="${MIN_LETTERS:-}"
MIN_SCORE="${MIN_SCORE:-3500}"
# MB of memory a worker has, if not bnb's default 1000 (plan prints it when given); a
# requeued task keeps the one its run file records
WORKER_MEMORY="${WORKER_MEMORY:-}"
OUT="${OUT:-proof}"
JOBS="${SLURM_CPUS_PER_TASK:-1}"
BOGGLE_OPT="${BOGGLE_OPT:-boggle-opt}"
# a progress line a minute in the task's log, even while one class runs for minutes
EVERY="${EVERY:-60}"

mkdir -p "$OUT"
file="$OUT/shard-$SLURM_ARRAY_TASK_ID.jsonl"
if [ -s "$file" ]; then
    # requeued after preemption (or run again): carry on where it stopped;
    # a shard already done says so and exits 0
    exec $BOGGLE_OPT run --resume "$file" --jobs "$JOBS" --progress plain --progress-every "$EVERY"
fi
exec $BOGGLE_OPT run --searcher bnb --size "$SIZE" --wordlist "$WORDLIST" ${LANGUAGE:+--language "$LANGUAGE"} --rule "$RULE" \
    ${MIN_LETTERS:+--min-letters "$MIN_LETTERS"} --min-score "$MIN_SCORE" ${WORKER_MEMORY:+--worker-memory "$WORKER_MEMORY"} --shard "$SLURM_ARRAY_TASK_ID/$SHARDS" --jobs "$JOBS" \
    --progress plain --progress-every "$EVERY" --out "$file"
