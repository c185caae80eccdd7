#!/bin/sh
# Writes the man page uckers.1 from the binary's own help: `uckers --help`
# and `--version` through help2man, with `uckers help serve` (the service's
# flags, which the packaged unit runs) as a section of its own.
# usage: man.sh UCKERS OUT.1
set -eu
[ $# -eq 2 ] || { echo "usage: packaging/man.sh UCKERS OUT.1" >&2; exit 2; }
uckers="$1" out="$2"
include="$(mktemp)" wrapper="$(mktemp)"
trap 'rm -f "$include" "$wrapper"' EXIT
# help2man reads a description after two spaces: the command list's names
# of 12 characters ("ladder table") have one, so one more is given.
cat >"$wrapper" <<WRAP
#!/bin/sh
if [ "\$1" = --help ]; then "$uckers" --help | sed -E 's/^(  [^ ].{11}) ([^ ])/\\1  \\2/'; else "$uckers" "\$@"; fi
WRAP
chmod 700 "$wrapper"
{
  echo "[SERVE]"
  echo ".nf"
  # roff: a backslash is \e, a line starting with . or ' is escaped.
  "$uckers" help serve | sed -e 's/\\/\\e/g' -e "s/^\([.']\)/\\\\\&\1/"
  echo ".fi"
  echo "[FILES]"
  echo ".TP"
  echo ".I /etc/default/uckers"
  echo "the address and flags of the packaged service, uckers.service"
  echo "[SEE ALSO]"
  echo "The project's README.md and docs/ (docs/deploy.md: deployment)."
} >"$include"
help2man --no-info --no-discard-stderr --section=1 --source="uckers" \
  --name="an engine for Uckers, the Royal Navy's game of the Ludo family" \
  --include="$include" --output="$out" "$wrapper"
