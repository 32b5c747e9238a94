"""``tribunal github-comment`` against a real local GitHub API, and its pure helpers.

End-to-end cases run the real CLI as a subprocess with an Actions environment
built from scratch (``tests/github_server.py``); truncation and the event
payload are checked in-process. Every CLI run also asserts that the token
never appears in the output.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from markdown_it import MarkdownIt

from tests.github_server import (
    BOT,
    NAME,
    OWNER,
    TOKEN,
    FakeGitHub,
    actions_env,
    github,
    github_cli,
    pr_event,
)
from tests.llm_server import closed_port_url
from tribunal.github import context
from tribunal.github.errors import GitHubError
from tribunal.github.truncate import COMMENT, STEP_SUMMARY, Limit, fit, job_summary_pointer
from tribunal.render.markdown import MARKER, code_block

RUN_URL = f"https://github.com/{OWNER}/{NAME}/actions/runs/42/attempts/2"
LIST_PATH = f"/repos/{OWNER}/{NAME}/issues/7/comments"
REPORT = f"{MARKER}\n## ⚖️ Tribunal: 🔴 1 CONTRADICTED\n\n- 🔴 **CONTRADICTED** · line 3\n"


def report(items: int = 1, detail_lines: int = 3) -> str:
    """A report shaped like ``render.markdown``: list items with fenced details."""
    lines = [MARKER, "## ⚖️ Tribunal: 🔴 1 CONTRADICTED · 🟡 2 UNVERIFIED", ""]
    for i in range(items):
        detail = "\n".join(f"evidence {i}.{j}: ```` in a line" for j in range(detail_lines))
        lines += [
            f"- 🟡 **UNVERIFIED** · line {i + 1} · risky-change — item {i}",
            "  <details><summary>Details</summary>",
            "",
            *code_block(detail, "  "),
            "",
            "  </details>",
        ]
    lines += ["", "_exit 0: report-only_"]
    return "\n".join(lines) + "\n"


def comment(tmp: Path, server: FakeGitHub, *args: str, body: str = REPORT, **env: Any) -> Any:
    (tmp / "report.md").write_text(body, encoding="utf-8")
    event = env.pop("event", pr_event())
    environ = actions_env(tmp, server.url, event, **env)
    return github_cli("--body-file", "report.md", *args, env=environ, cwd=tmp)


def warned(proc: Any) -> str:
    lines = [line for line in proc.stdout.splitlines() if line.startswith("::warning")]
    assert len(lines) == 1, proc.stdout
    assert lines[0].startswith("::warning title=Tribunal::")
    return str(lines[0])


# -- create, update, find ------------------------------------------------------------


def test_first_run_creates_the_comment_with_the_report_and_auth(tmp_path: Path) -> None:
    with github() as server:
        proc = comment(tmp_path, server)
    assert (proc.returncode, proc.stderr) == (0, "")
    get, post = server.made()
    assert (get.method, get.path, get.query) == ("GET", LIST_PATH, {"per_page": "100"})
    assert (post.method, post.path, post.body) == ("POST", LIST_PATH, {"body": REPORT})
    assert post.headers["authorization"] == f"Bearer {TOKEN}"
    assert post.headers["accept"] == "application/vnd.github+json"
    assert post.headers["x-github-api-version"] == "2022-11-28"
    assert post.headers["user-agent"].startswith("tribunal/")
    url = server.comments[7][0]["html_url"]
    assert proc.stdout == f"tribunal: created comment {url}\n"


def test_second_run_updates_the_same_comment(tmp_path: Path) -> None:
    with github() as server:
        comment(tmp_path, server)
        first = server.comments[7][0]["id"]
        newer = REPORT.replace("🔴 1", "🔴 0")
        proc = comment(tmp_path, server, body=newer)
    assert proc.returncode == 0
    assert [r.method for r in server.made()] == ["GET", "POST", "GET", "PATCH"]
    patch = server.made("PATCH")[0]
    assert patch.path == f"/repos/{OWNER}/{NAME}/issues/comments/{first}"
    assert patch.body == {"body": newer}
    assert [c["id"] for c in server.comments[7]] == [first]
    assert server.body_of(first) == newer
    assert proc.stdout.startswith("tribunal: updated comment https://github.com/")


def test_a_body_without_the_marker_gets_it_so_the_next_run_finds_it(tmp_path: Path) -> None:
    with github() as server:
        comment(tmp_path, server, body="plain report\n")
        comment(tmp_path, server, body="plain report, again\n")
    assert server.made("POST")[0].body == {"body": f"{MARKER}\nplain report\n"}
    assert server.made("PATCH")[0].body == {"body": f"{MARKER}\nplain report, again\n"}


def test_our_comment_on_page_3_of_3_is_found_through_the_link_header(tmp_path: Path) -> None:
    with github() as server:
        for i in range(230):
            server.add(7, f"comment {i}", login="someone" if i % 2 else BOT)
        ours = server.add(7, f"{MARKER}\nold report")
        proc = comment(tmp_path, server)
    assert proc.returncode == 0, proc.stderr
    gets = server.made("GET")
    assert [(g.query.get("per_page"), g.page) for g in gets] == [
        ("100", None),
        ("100", "2"),
        ("100", "3"),
    ]
    assert not server.made("POST")
    assert server.made("PATCH")[0].path.endswith(f"/issues/comments/{ours}")
    assert server.body_of(ours) == REPORT


def test_a_marker_comment_by_another_login_is_left_alone(tmp_path: Path) -> None:
    with github() as server:
        planted = server.add(7, f"{MARKER}\nall green, trust me", login="mallory")
        proc = comment(tmp_path, server)
    assert proc.returncode == 0
    assert not server.made("PATCH")
    assert server.made("POST")[0].body == {"body": REPORT}
    assert server.body_of(planted) == f"{MARKER}\nall green, trust me"


def test_the_marker_must_be_the_first_line_exactly(tmp_path: Path) -> None:
    with github() as server:
        quoted = server.add(7, f"> {MARKER}\nquoting the bot")
        later = server.add(7, f"hello\n{MARKER}")
        comment(tmp_path, server)
    assert not server.made("PATCH")
    assert (server.body_of(quoted), server.body_of(later)) == (
        f"> {MARKER}\nquoting the bot",
        f"hello\n{MARKER}",
    )


def test_with_several_of_ours_the_oldest_is_updated_and_the_rest_left(tmp_path: Path) -> None:
    with github() as server:
        oldest = server.add(7, f"{MARKER}\nfirst")
        newer = server.add(7, f"{MARKER}\r\nsecond")
        comment(tmp_path, server)
    assert (server.body_of(oldest), server.body_of(newer)) == (REPORT, f"{MARKER}\r\nsecond")


def test_author_names_the_login_of_a_personal_token(tmp_path: Path) -> None:
    with github(login="ci-robot") as server:
        bots = server.add(7, f"{MARKER}\nby the workflow token")
        mine = server.add(7, f"{MARKER}\nby ci-robot", login="ci-robot")
        proc = comment(tmp_path, server, "--author", "ci-robot")
    assert proc.returncode == 0
    assert server.body_of(mine) == REPORT
    assert server.body_of(bots) == f"{MARKER}\nby the workflow token"


def test_a_comment_on_a_pull_request_event_is_read_from_the_issue(tmp_path: Path) -> None:
    event = {"issue": {"number": 7, "pull_request": {"url": "x"}}, "comment": {"id": 1}}
    with github() as server:
        proc = comment(tmp_path, server, event=event, GITHUB_EVENT_NAME="issue_comment")
    assert proc.returncode == 0
    assert server.made("POST")[0].path == LIST_PATH


def test_body_from_stdin(tmp_path: Path) -> None:
    with github() as server:
        env = actions_env(tmp_path, server.url, pr_event())
        proc = github_cli("--body-file", "-", env=env, cwd=tmp_path, stdin=REPORT)
    assert proc.returncode == 0
    assert server.made("POST")[0].body == {"body": REPORT}


# -- sizes -------------------------------------------------------------------------


def test_an_oversized_report_is_cut_with_its_blocks_closed(tmp_path: Path) -> None:
    big = report(items=8, detail_lines=800)
    assert len(big) > 200_000
    with github() as server:
        proc = comment(tmp_path, server, body=big)
    assert proc.returncode == 0, proc.stderr
    body = server.made("POST")[0].body["body"]
    assert len(body) <= 65_536
    kept = body[: body.index("  `````\n\n</details>")]
    assert big.startswith(kept) and kept.endswith("\n")
    fence_lines = [line for line in kept.splitlines() if line.startswith("  `````")]
    assert len(fence_lines) % 2 == 1  # the cut fell inside a code block
    note = f"The full report is in the [job summary]({RUN_URL})._"
    assert body.rstrip("\n").endswith(note)
    assert f"_Report truncated: {len(kept):,} of {len(big):,} characters shown." in body
    assert body.count("<details>") == body.count("</details>")
    tokens = MarkdownIt("commonmark").parse(body)
    assert not any("Report truncated" in t.content for t in tokens if t.type == "fence")
    last = [t for t in tokens if t.type == "inline"][-1]
    assert last.content.startswith("_Report truncated:")
    summary = (tmp_path / "step_summary.md").read_text(encoding="utf-8")
    assert summary == big


def test_a_step_summary_over_1_mib_in_bytes_is_cut(tmp_path: Path) -> None:
    # 3-byte characters: under 1 MiB of characters, over 1 MiB of bytes.
    big = report(items=30, detail_lines=300).replace("evidence", "証拠" * 20)
    assert len(big) < 1_048_576 < len(big.encode())
    with github() as server:
        proc = comment(tmp_path, server, body=big, event={"ref": "refs/heads/main"})
    assert proc.returncode == 0, proc.stderr
    assert server.made() == []
    written = (tmp_path / "step_summary.md").read_bytes()
    assert len(written) <= 1_048_576
    text = written.decode()
    assert "bytes shown. A step summary holds at most 1 MiB" in text
    assert text.count("<details>") == text.count("</details>")


def test_fit_leaves_a_report_that_fits_alone() -> None:
    text = "x" * 99 + "\n"
    assert fit(text, Limit(100, "characters", 10)) is text


def test_fit_closes_an_indented_fence_with_the_same_fence_string() -> None:
    block = code_block("\n".join(f"a ```` run {i}" for i in range(200)), "  ")
    text = "\n".join(["# head", "- item", *block, "after"]) + "\n"
    cut = fit(text, Limit(1000, "characters", 50), "More elsewhere.")
    assert len(cut) <= 1000
    assert block[0] == "  `````text"
    assert "\n  `````\n\n_Report truncated:" in cut
    assert cut.endswith(" characters shown. More elsewhere._\n")


def test_fit_closes_details_and_ignores_tags_inside_fences() -> None:
    fenced = ["```", "<details>", "```"]
    text = "\n".join([*fenced, "<details><summary>s</summary>", "", *(["line"] * 500)]) + "\n"
    cut = fit(text, Limit(600, "characters", 20))
    assert cut.count("</details>") == 1
    assert "line\n\n</details>\n\n_Report truncated" in cut


def test_fit_closes_a_tilde_fence() -> None:
    text = "~~~~python\n" + "code\n" * 300
    cut = fit(text, Limit(300, "characters", 10))
    assert "\n~~~~\n\n_Report truncated" in cut


def test_fit_in_bytes_counts_utf8() -> None:
    text = "é" * 40 + "\n"
    text *= 100
    cut = fit(text, Limit(1000, "bytes", 10))
    assert 800 < len(cut.encode()) <= 1000
    assert "bytes shown" in cut


def test_the_limits_are_github_s() -> None:
    assert (COMMENT.size, COMMENT.unit) == (65_536, "characters")
    assert (STEP_SUMMARY.size, STEP_SUMMARY.unit) == (1_048_576, "bytes")


def test_pointer_links_the_run_only_when_known() -> None:
    assert job_summary_pointer(RUN_URL) == f"The full report is in the [job summary]({RUN_URL})."
    assert job_summary_pointer(None) == "The full report is in the job summary."


# -- failures: reporter-first ----------------------------------------------------------


@pytest.mark.parametrize("hard_fail", [False, True])
def test_missing_token_says_what_to_do_and_sends_nothing(tmp_path: Path, hard_fail: bool) -> None:
    args = ["--hard-fail"] if hard_fail else []
    with github() as server:
        proc = comment(tmp_path, server, *args, GITHUB_TOKEN=None)
    assert proc.returncode == (2 if hard_fail else 0)
    assert server.made() == []
    message = "GITHUB_TOKEN is not set: pass the action's github-token input"
    assert proc.stderr.startswith(f"tribunal: error: {message}")
    assert "pull-requests: write" in warned(proc)
    assert (tmp_path / "step_summary.md").read_text(encoding="utf-8") == REPORT


def fork_event(head_repo: Any = "someone/widgets") -> dict[str, Any]:
    event = pr_event()
    repo = {"full_name": head_repo} if head_repo else None
    event["pull_request"]["head"] = {"repo": repo}
    event["pull_request"]["base"] = {"repo": {"full_name": "octo/widgets"}}
    return event


@pytest.mark.parametrize("head_repo", ["someone/widgets", None])
def test_a_forks_read_only_token_is_a_notice_even_with_hard_fail(
    tmp_path: Path, head_repo: Any
) -> None:
    """GitHub gives a fork's pull request a read-only token: failing on it would block every
    outside contribution for a comment that cannot exist (a deleted fork has no head repo)."""
    with github() as server:
        server.fail("POST", 403, body={"message": "Resource not accessible by integration"})
        proc = comment(tmp_path, server, "--hard-fail", event=fork_event(head_repo))
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == "" and "::warning" not in proc.stdout
    assert "::notice title=Tribunal::pull request from a fork" in proc.stdout
    assert (tmp_path / "step_summary.md").read_text(encoding="utf-8") == REPORT


def test_a_fork_whose_token_can_write_still_gets_its_comment(tmp_path: Path) -> None:
    with github() as server:
        proc = comment(tmp_path, server, "--hard-fail", event=fork_event())
        assert proc.returncode == 0 and [r.method for r in server.made()] == ["GET", "POST"]


def test_a_same_repository_403_with_hard_fail_still_fails(tmp_path: Path) -> None:
    """Only a fork explains a 403; in the repository itself it is a broken setup."""
    with github() as server:
        server.fail("POST", 403, body={"message": "Resource not accessible by integration"})
        proc = comment(tmp_path, server, "--hard-fail", event=fork_event("octo/widgets"))
    assert proc.returncode == 2 and "pull-requests: write" in proc.stderr


@pytest.mark.parametrize("hard_fail", [False, True])
def test_403_on_create_names_the_permission_and_forks(tmp_path: Path, hard_fail: bool) -> None:
    args = ["--hard-fail"] if hard_fail else []
    with github() as server:
        server.fail("POST", 403, body={"message": "Resource not accessible by integration"})
        proc = comment(tmp_path, server, *args)
    assert proc.returncode == (2 if hard_fail else 0)
    assert "pull-requests: write" in proc.stderr and "fork" in proc.stderr
    assert "job summary" in warned(proc)
    assert len(proc.stderr.splitlines()) == 1


def test_a_5xx_is_retried_once_and_then_succeeds(tmp_path: Path) -> None:
    with github() as server:
        server.fail("GET", 502)
        proc = comment(tmp_path, server)
    assert (proc.returncode, proc.stderr) == (0, "")
    assert [r.method for r in server.made()] == ["GET", "GET", "POST"]
    assert proc.stdout.startswith("tribunal: created comment")


def test_a_5xx_twice_is_an_error(tmp_path: Path) -> None:
    with github() as server:
        server.fail("POST", 503, times=2)
        proc = comment(tmp_path, server, "--hard-fail")
    assert proc.returncode == 2
    assert "HTTP 503 twice" in proc.stderr
    assert [r.method for r in server.made()] == ["GET", "POST", "POST"]


def test_a_server_that_never_answers_is_given_up_on_in_bounded_time(tmp_path: Path) -> None:
    with github() as server:
        server.delay = 5.0
        start = time.monotonic()
        proc = comment(tmp_path, server, "--timeout", "0.3")
        elapsed = time.monotonic() - start
    assert elapsed < 3.0
    assert proc.returncode == 0
    assert f"no answer from the GitHub API at {server.url} within 0.3 s" in proc.stderr
    assert len(server.made()) == 1  # a read timeout is not retried


def test_connection_refused_names_the_api_url(tmp_path: Path) -> None:
    url = closed_port_url()
    (tmp_path / "report.md").write_text(REPORT, encoding="utf-8")
    env = actions_env(tmp_path, url, pr_event())
    proc = github_cli("--body-file", "report.md", env=env, cwd=tmp_path)
    assert proc.returncode == 0
    assert f"cannot connect to the GitHub API at {url}" in proc.stderr


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({"GITHUB_TOKEN": "ghs_expired"}, "the token is invalid or expired (401)"),
        ({"GITHUB_REPOSITORY": "octo/gone"}, "not found (404): the repository or pull request"),
        ({"GITHUB_REPOSITORY": "not-a-repo"}, "GITHUB_REPOSITORY is 'not-a-repo': expected"),
    ],
)
def test_status_and_setup_errors_say_what_is_wrong(
    tmp_path: Path, env: dict[str, str], expected: str
) -> None:
    with github() as server:
        proc = comment(tmp_path, server, **env)
    assert proc.returncode == 0
    assert expected in proc.stderr
    assert "ghs_expired" not in proc.stdout + proc.stderr


def test_a_422_shows_github_s_reason_without_the_token(tmp_path: Path) -> None:
    reason = {"message": "Validation Failed", "errors": [{"message": f"bad body {TOKEN}"}]}
    with github() as server:
        server.fail("POST", 422, body=reason)
        proc = comment(tmp_path, server)
    assert "GitHub rejected it (422): Validation Failed; bad body ***" in proc.stderr


def test_a_next_link_to_another_host_is_not_followed(tmp_path: Path) -> None:
    with github(link_host="localhost") as server:
        for i in range(150):
            server.add(7, f"comment {i}")
        proc = comment(tmp_path, server)
    assert len(server.made()) == 1
    assert "the next-page link leaves" in proc.stderr


def test_a_malformed_event_file_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "event.json").write_text("{not json", encoding="utf-8")
    with github() as server:
        proc = comment(tmp_path, server, event=None, GITHUB_EVENT_PATH=str(tmp_path / "event.json"))
    assert proc.returncode == 0
    assert "event.json (GITHUB_EVENT_PATH) is not JSON" in proc.stderr
    assert server.made() == []


def test_a_missing_body_file_is_escaped_in_the_workflow_warning(tmp_path: Path) -> None:
    with github() as server:
        env = actions_env(tmp_path, server.url, pr_event())
        proc = github_cli("--body-file", "50%\nreport.md", "--hard-fail", env=env, cwd=tmp_path)
    assert proc.returncode == 2
    assert "cannot read the report 50%25%0Areport.md: No such file" in warned(proc)
    assert server.made() == []
    assert not (tmp_path / "step_summary.md").exists()


# -- no pull request, no step summary, no httpx ----------------------------------------


def test_a_push_event_posts_nothing_and_points_at_the_job_summary(tmp_path: Path) -> None:
    with github() as server:
        proc = comment(tmp_path, server, event={"ref": "refs/heads/main"}, GITHUB_EVENT_NAME="push")
    assert (proc.returncode, server.made()) == (0, [])
    assert proc.stdout == (
        "tribunal: no pull request to comment on (event: push); the report is in the job summary\n"
    )
    assert (tmp_path / "step_summary.md").read_text(encoding="utf-8") == REPORT


def test_without_actions_variables_nothing_is_written_or_sent(tmp_path: Path) -> None:
    with github() as server:
        proc = comment(tmp_path, server, "--no-step-summary", event=None, GITHUB_STEP_SUMMARY=None)
    assert (proc.returncode, server.made()) == (0, [])
    assert "nothing was posted" in proc.stdout
    assert not (tmp_path / "step_summary.md").exists()


def test_no_comment_writes_the_summary_and_needs_no_token(tmp_path: Path) -> None:
    with github() as server:
        proc = comment(tmp_path, server, "--no-comment", "--hard-fail", GITHUB_TOKEN=None)
    assert (proc.returncode, proc.stderr, server.made()) == (0, "", [])
    assert proc.stdout == "tribunal: no comment (--no-comment); the report is in the job summary\n"
    assert (tmp_path / "step_summary.md").read_text(encoding="utf-8") == REPORT


def test_the_summary_is_appended_after_what_the_step_wrote(tmp_path: Path) -> None:
    (tmp_path / "step_summary.md").write_text("earlier", encoding="utf-8")
    with github() as server:
        comment(tmp_path, server, event=None)
    assert (tmp_path / "step_summary.md").read_text(encoding="utf-8") == "earlier\n" + REPORT


def test_without_httpx_it_stops_with_the_install_hint(tmp_path: Path) -> None:
    (tmp_path / "report.md").write_text(REPORT, encoding="utf-8")
    code = (
        "import sys; sys.modules['httpx'] = None\n"
        "from tribunal.cli import main\n"
        "sys.exit(main(['github-comment', '--body-file', 'report.md']))\n"
    )
    env = actions_env(tmp_path, closed_port_url(), pr_event())
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert proc.returncode == 2
    assert proc.stderr == (
        "tribunal: error: github-comment needs httpx: pip install 'tribunal[github]'\n"
    )
    assert not (tmp_path / "step_summary.md").exists()


# -- the Actions context, in-process ---------------------------------------------------


def test_pull_request_number_from_each_event_shape() -> None:
    assert context.pull_request_number({"pull_request": {"number": 12}}) == 12
    issue_on_pr = {"issue": {"number": 5, "pull_request": {"url": "u"}}}
    assert context.pull_request_number(issue_on_pr) == 5
    assert context.pull_request_number({"issue": {"number": 5}}) is None
    assert context.pull_request_number({"ref": "refs/heads/main"}) is None
    bads: list[Any] = [{"pull_request": {"number": True}}, {"pull_request": {}}, []]
    for bad in bads:
        with pytest.raises(GitHubError):
            context.pull_request_number(bad)


def test_run_url_and_api_url_as_actions_sets_them() -> None:
    env = {"GITHUB_REPOSITORY": "o/r", "GITHUB_RUN_ID": "9", "GITHUB_SERVER_URL": "https://g.e/"}
    assert context.run_url(env) == "https://g.e/o/r/actions/runs/9"
    attempt = context.run_url({**env, "GITHUB_RUN_ATTEMPT": "3"})
    assert attempt == "https://g.e/o/r/actions/runs/9/attempts/3"
    assert context.run_url({"GITHUB_REPOSITORY": "o/r"}) is None
    assert context.api_url({}) == "https://api.github.com"
    assert context.api_url({"GITHUB_API_URL": "https://ghe.corp/api/v3/"}) == (
        "https://ghe.corp/api/v3"
    )
    with pytest.raises(GitHubError, match="expected an http"):
        context.api_url({"GITHUB_API_URL": "file:///etc"})
    assert json.dumps(context.repository({"GITHUB_REPOSITORY": "o/r"})) == '["o", "r"]'


def test_the_token_is_required_and_must_be_one_word() -> None:
    assert context.token({"GITHUB_TOKEN": f" {TOKEN}\n"}) == TOKEN
    with pytest.raises(GitHubError, match="github-token input"):
        context.token({})
    with pytest.raises(GitHubError, match="spaces or control characters") as info:
        context.token({"GITHUB_TOKEN": "ghs_a\r\nX-Evil: 1"})
    assert "ghs_a" not in str(info.value)


def test_a_key_keeps_two_reports_on_one_pull_request_apart(tmp_path: Path) -> None:
    """Two runs on one pull request (other workflows, other ranges) keep a comment each."""
    with github() as server:
        for run in ("a1", "b1", "a2", "b2"):
            project = run[0]
            body = f"{MARKER}\n## report of {run}\n"
            (tmp_path / run).mkdir()
            proc = comment(tmp_path / run, server, "--key", f"projects/{project}", body=body)
            assert proc.returncode == 0, proc.stderr
        first, second = server.comments[7]
    assert first["body"] == "<!-- tribunal-report: projects/a -->\n## report of a2\n"
    assert second["body"] == "<!-- tribunal-report: projects/b -->\n## report of b2\n"
    assert len(server.made("POST")) == 2 and len(server.made("PATCH")) == 2


def test_an_unkeyed_report_leaves_keyed_comments_alone(tmp_path: Path) -> None:
    with github() as server:
        keyed = server.add(7, "<!-- tribunal-report: api -->\nold")
        proc = comment(tmp_path, server)
    assert proc.returncode == 0
    assert server.body_of(keyed) == "<!-- tribunal-report: api -->\nold"
    assert len(server.made("POST")) == 1


@pytest.mark.parametrize("key", ["a-->b", "x" * 65, "has space", ""])
def test_a_key_that_could_break_the_marker_is_a_usage_error(tmp_path: Path, key: str) -> None:
    with github() as server:
        proc = comment(tmp_path, server, "--key", key)
        assert server.made("POST") == []
    assert proc.returncode == 2 and "--key" in proc.stderr
