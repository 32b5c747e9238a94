#!/bin/sh
# tribunal-shim: reference-transaction (written by `tribunal install`; `tribunal uninstall` removes it)
# Records pushes that got past tribunal's gate, and remote-tracking refs written locally
# (not by a fetch from their remote or a push to it), which are then no evidence of what
# the remote has (see `tribunal audit`). git runs this for every ref update (commits,
# checkouts, fetches), and a non-zero exit at "prepared" would abort them all: so it always
# exits 0 (a hook it is chained to decides for itself), and starts Python only for a
# "committed" transaction that moved a remote-tracking ref: the way a push does (from an
# all-zero old value), or by a command that is not a fetch from that ref's own remote.
python=@PYTHON@
chained="$0.pre-tribunal"
lines=
pushed=
collect() {
    while read -r old new ref || [ -n "$ref" ]; do
        case $ref in refs/remotes/*) ;; *) continue ;; esac
        lines="$lines$old $new $ref
"
        case $new in *[!0]*) ;; *) continue ;; esac
        case $old in *[!0]*) continue ;; esac
        pushed="$pushed$old $new $ref
"
    done
}
if [ -x "$chained" ]; then
    input=$(cat)
    printf '%s\n' "$input" | "$chained" "$@" || exit $?
    [ "$1" = committed ] || exit 0
    collect <<EOF
$input
EOF
elif [ "$1" = committed ]; then
    collect
else
    cat >/dev/null 2>&1
    exit 0
fi
[ -n "$lines" ] || exit 0
# The command that runs this hook, as words (Linux: /proc; elsewhere: ps).
if [ -r "/proc/$PPID/cmdline" ]; then
    cmd=$(tr '\0' ' ' <"/proc/$PPID/cmdline" 2>/dev/null)
else
    cmd=$(ps -o command= -p "$PPID" 2>/dev/null)
fi
set -f
# shellcheck disable=SC2086
set -- $cmd
set +f
[ $# -gt 0 ] && shift # git itself
while [ $# -gt 0 ]; do
    case $1 in
    -c | -C | --git-dir | --work-tree | --namespace | --exec-path | --config-env) shift 2 ;;
    -*) shift ;;
    *) break ;;
    esac
done
sub=${1-}
[ $# -gt 0 ] && shift
case $sub in
push) lines=$pushed ;;
remote) exit 0 ;; # prune, rm, rename, set-head: their reflog entries are no evidence anyway
fetch)
    # From the default remote, or --all/--multiple (each remote into its own namespace),
    # or from a remote whose namespace holds every ref it wrote: nothing to record.
    source=
    while [ $# -gt 0 ]; do
        case $1 in
        --all | --multiple) exit 0 ;;
        --depth | --deepen | --shallow-since | --shallow-exclude | -j | --jobs | --refmap | \
            -o | --server-option | --upload-pack | --negotiation-tip | --filter | \
            --recurse-submodules-default | --submodule-prefix) shift 2 ;;
        -*) shift ;;
        *) source=$1 && break ;;
        esac
    done
    [ -n "$source" ] || exit 0
    outside=
    while read -r old new ref; do
        case $ref in "refs/remotes/$source/"*) ;; "") ;; *) outside=1 ;; esac
    done <<EOF
$lines
EOF
    [ -n "$outside" ] || exit 0
    ;;
"") lines=$pushed ;; # the command is not visible: only what looks like a push
esac
[ -n "$lines" ] || exit 0
if [ ! -x "$python" ]; then
    echo "tribunal: cannot check this ref update for a push past the gate: $python is gone; \`tribunal audit\` finds any later (\`tribunal install\` updates this hook)" >&2
    exit 0
fi
printf '%s' "$lines" | "$python" -P -m tribunal hook reference-transaction committed "$PPID" 1>&2
exit 0
