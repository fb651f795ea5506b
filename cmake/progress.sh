# Sourced by the set-up and the test suite: one progress line that rewrites itself on a
# terminal (one line per call elsewhere, unless the caller says it is a detail).
# progress TEXT [detail]: a "detail" (one build percentage, one test) shows on terminals only.
progress() {
  if [ -t 1 ]; then
    printf '\r\033[K%s' "$1"
  elif [ "${2:-}" != detail ]; then
    echo "$1"
  fi
}

# progress_done TEXT: the last progress line, ended.
progress_done() {
  if [ -t 1 ]; then printf '\r\033[K%s\n' "$1"; else echo "$1"; fi
}
