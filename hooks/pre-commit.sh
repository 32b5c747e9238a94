#!/bin/sh
# tribunal-shim: pre-commit (written by `tribunal install`; `tribunal uninstall` removes it)
python=@PYTHON@
chained="$0.pre-tribunal"
if [ -x "$chained" ]; then
    "$chained" "$@" || exit $?
fi
if [ ! -x "$python" ]; then
    echo "tribunal: $python is gone, so the commit gate cannot run; run \`tribunal install\` again" >&2
    echo "tribunal: \`git commit --no-verify\` bypasses the gate; the bypass is logged" >&2
    exit 1
fi
exec "$python" -P -m tribunal hook pre-commit
