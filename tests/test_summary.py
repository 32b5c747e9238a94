"""summary.json: schema, atomic authenticated writes, the per-user key, clean URLs."""

from __future__ import annotations

import json
import stat
import threading
from pathlib import Path

import jsonschema
import pytest

from tests.summaries import COMMIT, finding, member, summary
from tribunal.gate.summary import (
    SCHEMA_FILE,
    SummaryError,
    key_file,
    load,
    public_url,
    schema_text,
    sign,
    summary_key,
    summary_path,
    summary_paths,
    user_key,
    write,
)

KEY = b"k" * 64


def test_the_committed_schema_is_the_models_schema() -> None:
    assert SCHEMA_FILE.read_text(encoding="utf-8") == schema_text(), (
        "regenerate it: python -m tribunal.gate.summary"
    )


def test_written_summaries_validate_against_the_committed_schema(tmp_path: Path) -> None:
    path = tmp_path / "runs" / "s.json"
    write(path, summary([member("tests", "CONTRADICTED", [finding()]), member("symbols")]), KEY)
    data = json.loads(path.read_text(encoding="utf-8"))
    jsonschema.validate(data, json.loads(SCHEMA_FILE.read_text(encoding="utf-8")))
    assert data["schema"] == "tribunal.summary/1"
    assert data["members"][0]["verdict"] == "CONTRADICTED"
    assert data["auth"]["alg"] == "hmac-sha256"


def test_round_trip_and_atomic_replace(tmp_path: Path) -> None:
    path = tmp_path / "runs" / "s.json"
    write(path, summary(), KEY)
    write(path, summary(created="2026-02-02T00:00:00+00:00"), KEY)
    assert load(path, KEY).created == "2026-02-02T00:00:00+00:00"
    assert [p.name for p in path.parent.iterdir()] == ["s.json"]  # no temporary files left


def edit(path: Path, change: dict[str, object]) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    data.update(change)
    path.write_text(json.dumps(data), encoding="utf-8")


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda p: p.unlink(), "no summary"),
        (lambda p: p.write_text("{not json"), "not valid JSON"),
        (lambda p: p.write_text("[" * 100_000 + "]" * 100_000), "nested too deeply"),
        (lambda p: edit(p, {"schema": "tribunal.summary/2"}), "not a valid summary: schema"),
        (lambda p: edit(p, {"surprise": 1}), "not a valid summary: surprise"),
        (lambda p: edit(p, {"commit": "e" * 40}), "does not authenticate"),
        (lambda p: edit(p, {"auth": None}), "does not authenticate"),
    ],
)
def test_untrustworthy_summaries_are_refused(tmp_path: Path, damage: object, message: str) -> None:
    path = tmp_path / "s.json"
    write(path, summary(), KEY)
    assert callable(damage)
    damage(path)
    with pytest.raises(SummaryError, match=message):
        load(path, KEY)


def test_a_summary_made_with_another_key_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    write(path, summary(), b"other" * 16)
    with pytest.raises(SummaryError, match="does not authenticate"):
        load(path, KEY)


def test_the_user_key_lives_outside_the_repository_and_is_private(tmp_path: Path) -> None:
    keys: list[bytes] = []
    threads = [threading.Thread(target=lambda: keys.append(user_key())) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    path = key_file()
    assert len(set(keys)) == 1 and len(keys[0]) >= 32
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert str(path).startswith(str(Path.home()))
    assert [p.name for p in path.parent.iterdir()] == ["key"]


def test_keys_are_bytes_never_decoded_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two non-ASCII keys of equal length used to decode to the same replacement text."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    (tmp_path / "tribunal").mkdir()
    path = tmp_path / "tribunal" / "key"
    macs = []
    for key in ("é" * 40, "ü" * 40):
        path.write_bytes(key.encode("utf-8") + b"\n")
        path.chmod(0o600)
        assert user_key() == key.encode("utf-8")
        macs.append(sign(summary(), user_key()).auth)
    assert macs[0] != macs[1]
    path.write_bytes(b"a" * 64 + b"\n")
    assert user_key() == b"a" * 64  # a key written by an earlier version reads the same


def test_a_key_others_can_read_is_used_with_a_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    key = user_key()
    assert capsys.readouterr().err == ""
    key_file().chmod(0o644)
    assert user_key() == key and user_key() == key
    err = capsys.readouterr().err
    assert err.count("can be read by other users (mode 644)") == 1  # once per process
    assert f"chmod 600 {key_file()}" in err


def test_a_damaged_key_is_an_error_not_a_weak_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    (tmp_path / "tribunal").mkdir()
    (tmp_path / "tribunal" / "key").write_text("short\n")
    with pytest.raises(SummaryError, match="damaged"):
        user_key()


@pytest.mark.parametrize(
    ("url", "clean"),
    [
        ("https://user:s3cret@example.com/r.git", "https://example.com/r.git"),
        ("https://ghp_token@example.com:8443/r.git", "https://example.com:8443/r.git"),
        ("ssh://git@example.com/r.git", "ssh://example.com/r.git"),
        ("git@example.com:r.git", "git@example.com:r.git"),
        ("../remote.git", "../remote.git"),
        ("https://example.com/r.git?access_token=s3cret", "https://example.com/r.git"),
        ("https://h.example/g/r.git?private_token=s3cret&x=1#frag", "https://h.example/g/r.git"),
        ("https://u:p@example.com/r.git?token=t", "https://example.com/r.git"),
        (None, None),
    ],
)
def test_credentials_are_stripped_from_remote_urls(url: str | None, clean: str | None) -> None:
    assert public_url(url) == clean


def test_the_key_names_range_base_commit_config_version_and_remote(tmp_path: Path) -> None:
    keys = {
        summary_key("b", "c", "d", "1", "origin"),
        summary_key(None, "c", "d", "1", "origin"),
        summary_key("b", "x", "d", "1", "origin"),
        summary_key("b", "c", "x", "1", "origin"),
        summary_key("b", "c", "d", "2", "origin"),
        summary_key("b", "c", "d", "1", "upstream"),
        summary_key("b", "c", "d", "1", None),
    }
    assert len(keys) == 7
    key = summary_key("b", COMMIT, "d", "1", "origin")
    path = summary_path(tmp_path, key)
    assert path == tmp_path / "tribunal" / "runs" / key / "summary.json"
    assert key.startswith(COMMIT[:12] + "-")
    path.parent.mkdir(parents=True)
    write(path, summary(), KEY)
    assert summary_paths(tmp_path, COMMIT) == [path] and summary_paths(tmp_path, "f" * 40) == []


def test_an_unusable_key_location_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(blocker))
    with pytest.raises(SummaryError, match="cannot create the summary key"):
        user_key()
    with pytest.raises(SummaryError, match="cannot write summaries"):
        write(blocker / "runs" / "s.json", summary(), KEY)
