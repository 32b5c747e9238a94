#!/bin/sh
# tribunal-shim: pre-push (written by `tribunal install`; `tribunal uninstall` removes it)
# git passes the remote's name and URL as arguments and one line per pushed ref on stdin;
# --plain says so, so that nothing in the environment can change what is judged; -P keeps
# the current directory (the top of the work tree, or a bare repository) off sys.path.
python=@PYTHON@
chained="$0.pre-tribunal"
if [ ! -x "$python" ]; then
    echo "tribunal: $python is gone, so the push gate cannot run; run \`tribunal install\` again" >&2
    echo "tribunal: \`git push --no-verify\` bypasses the gate; the bypass is logged" >&2
    exit 1
fi
if [ -x "$chained" ]; then
    input=$(cat)
    printf '%s\n' "$input" | "$chained" "$@" || exit $?
    printf '%s\n' "$input" | "$python" -P -m tribunal hook pre-push --plain "$@"
    exit $?
fi
exec "$python" -P -m tribunal hook pre-push --plain "$@"
