#!/usr/bin/env bash
# Runs the compiler job it stands in for (swift-frontend, or clang as the linker) and appends one
# line to $COMPILER_JOB_LOG: the tool, when the job started and ended (µs), and its arguments
# (spaces in one made underscores), with response files and the count of files in a primary
# file list written out (the driver deletes them). swift-driver finds it through SWIFT_DRIVER_SWIFT_FRONTEND_EXEC and
# SWIFT_DRIVER_CLANG_EXEC; Scripts/critical-path.py reads the log. In bash, not Python, so that
# it adds a few milliseconds to a job rather than a tenth of a second.
tool=${0##*/}
start=${EPOCHREALTIME/./}
"$COMPILER_JOB_LOG_TOOLCHAIN/$tool" "$@"
status=$?
end=${EPOCHREALTIME/./}
# The driver's response files quote arguments as a shell does.
words=()
for argument in "$@"; do
  if [[ $argument == @* && -f ${argument#@} ]]; then
    eval "words+=($(< "${argument#@}"))"
  else
    words+=("$argument")
  fi
done
line="$tool $start $end"
previous=""
for word in "${words[@]}"; do
  if [ "$previous" = "-primary-filelist" ]; then
    line+=" $(grep -c . "$word")"
  else
    line+=" ${word// /_}"
  fi
  previous=$word
done
printf '%s\n' "$line" >> "$COMPILER_JOB_LOG"
exit $status
