#!/bin/sh
# tribunal-shim: reference-transaction (written by `tribunal install`; `tribunal uninstall` removes it)
# Records pushes that got past tribunal's gate (see `tribunal audit`). git runs this for
# every ref update (commits, checkouts, fetches), and a non-zero exit at "prepared" would
# abort them all: so it always exits 0 (a hook it is chained to decides for itself), and
# starts Python only for a "committed" transaction that moved a remote-tracking ref the
# way a push does (from an all-zero old value; a fetch shows the real one, except when it
# creates a ref) and that was not made by a fetch.
python=@PYTHON@
chained="$0.pre-tribunal"
lines=
candidates() {
    while read -r old new ref || [ -n "$ref" ]; do
        case $ref in refs/remotes/*) ;; *) continue ;; esac
        case $new in *[!0]*) ;; *) continue ;; esac
        case $old in *[!0]*) continue ;; esac
        lines="$lines$old $new $ref
"
    done
}
if [ -x "$chained" ]; then
    input=$(cat)
    printf '%s\n' "$input" | "$chained" "$@" || exit $?
    [ "$1" = committed ] || exit 0
    candidates <<EOF
$input
EOF
elif [ "$1" = committed ]; then
    candidates
else
    cat >/dev/null 2>&1
    exit 0
fi
[ -n "$lines" ] || exit 0
if [ -r "/proc/$PPID/cmdline" ]; then
    cmd=
    IFS= read -r cmd <"/proc/$PPID/cmdline"
    case $cmd in *push*) ;; *fetch*) exit 0 ;; esac
fi
if [ ! -x "$python" ]; then
    echo "tribunal: cannot check this ref update for a push past the gate: $python is gone; \`tribunal audit\` finds any later (\`tribunal install\` updates this hook)" >&2
    exit 0
fi
printf '%s' "$lines" | "$python" -m tribunal hook reference-transaction committed "$PPID" 1>&2
exit 0
