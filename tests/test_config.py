"""``tribunal.yml``: every way it can be wrong names file, line and key; exit 2 end to end."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fake_analyzers import run_cli, seen
from tests.gitrepo import GitRepo
from tribunal.config.load import CONFIG_ENV, load_config, parse_config
from tribunal.config.model import Config
from tribunal.engine.registry import BUILTINS
from tribunal.errors import ConfigError, ExitCode


def error_of(text: str, name: str = "tribunal.yml") -> str:
    with pytest.raises(ConfigError) as info:
        parse_config(text, name)
    message = str(info.value)
    assert "\n" not in message, message
    assert info.value.exit_code is ExitCode.USAGE
    assert int(ExitCode.USAGE) == 2
    return message


def test_valid_config_with_every_documented_key() -> None:
    text = """\
---
analyzers: {assertion-free-test: false}
generated-paths: [gen/, "**/*.gen.ts"]
risky-words: [token]
python-roots: [src]
strict: true
lenses:
  tests: {enabled: true, title: Tests, analyzers: [assertion-free-test], focus: "asserts"}
suite: {command: "pytest -q", timeout: 900}
council:
  enabled: false
  members: [{id: a, provider: ollama, model: llama3, endpoint: "http://127.0.0.1:11434"}]
  judge: {id: j, provider: openai, model: gpt}
  timeout: 1.5
convene: {timeout: 1_000}
"""
    config = parse_config(text, "tribunal.yml")
    assert config.source == "tribunal.yml"
    assert config.enabled("assertion-free-test") is False
    assert config.generated_paths == ("gen/", "**/*.gen.ts")
    assert (config.risky_words, config.python_roots, config.strict) == (("token",), ("src",), True)
    assert config.raw["suite"] == {"command": "pytest -q", "timeout": 900}


@pytest.mark.parametrize("text", ["", "# only a comment\n", "---\n", "---\n...\n", "--- \n"])
def test_empty_documents_mean_defaults(text: str) -> None:
    config = parse_config(text, "tribunal.yml")
    assert config == Config(source="tribunal.yml")
    assert config.enabled("assertion-free-test")


def test_unknown_top_level_key() -> None:
    assert error_of("strict: false\nanalyser: {}\n") == (
        "tribunal.yml:2: (top level): unknown key 'analyser'; expected one of: analyzers, "
        "generated-paths, risky-words, python-roots, strict, lenses, suite, council, convene"
    )


def test_unknown_nested_key() -> None:
    message = error_of("suite:\n  command: make test\n  timout: 3\n")
    assert message.startswith("tribunal.yml:3: suite: unknown key 'timout'; expected one of:")


def test_unknown_analyzer_lists_the_known_ids() -> None:
    message = error_of("analyzers:\n  assertion-free-test: true\n  no-such-thing: false\n")
    known = ", ".join(sorted(BUILTINS))
    assert message == f"tribunal.yml:3: analyzers: unknown analyzer 'no-such-thing'; known: {known}"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("strict: 'yes please'\n", "tribunal.yml:1: strict: expected true or false, found str"),
        ("strict:\n", "tribunal.yml:1: strict: expected true or false, found nothing (null)"),
        (
            "analyzers:\n  assertion-free-test: 1\n",
            "tribunal.yml:2: analyzers.assertion-free-test: expected true or false, found int '1'",
        ),
        ("generated-paths: dist/\n", "tribunal.yml:1: generated-paths: expected a list of strings"),
        ("generated-paths:\n  - ok/\n  - 3\n", "tribunal.yml:3: generated-paths[1]: expected a"),
        ("generated-paths: ['']\n", "tribunal.yml:1: generated-paths[0]: expected a non-empty"),
        (
            "generated-paths: [ok/, '" + "*a" * 501 + "']\n",
            "tribunal.yml:1: generated-paths[1]: expected a non-empty string of at most 1000 char",
        ),
        (
            "generated-paths:\n" + "  - x/\n" * 257,
            "tribunal.yml:2: generated-paths: expected at most 256 items, found 257",
        ),
        ("analyzers: [x]\n", "tribunal.yml:1: analyzers: expected a mapping, found a list"),
        ("- a\n- b\n", "tribunal.yml:1: (top level): expected a mapping, found a list"),
        ("just words\n", "tribunal.yml:1: (top level): expected a mapping, found str"),
        ("suite: {timeout: 5}\n", "tribunal.yml:1: suite: missing required key 'command'"),
        (
            "suite: {command: x, timeout: -1}\n",
            "tribunal.yml:1: suite.timeout: expected a positive",
        ),
        ("suite: {command: x, timeout: 0x10}\n", None),
        ("convene: {timeout: .inf}\n", "tribunal.yml:1: convene.timeout: expected a positive"),
        (
            "council:\n  members:\n    - {id: a, provider: claude, model: m}\n",
            "tribunal.yml:3: council.members[0].provider: expected one of ollama, openai",
        ),
        ("1: true\n", "tribunal.yml:1: (top level): keys must be strings, found int '1'"),
    ],
)
def test_wrong_types_name_line_and_key(text: str, expected: str | None) -> None:
    if expected is None:
        assert parse_config(text, "tribunal.yml").raw["suite"]["timeout"] == 16
        return
    assert error_of(text).startswith(expected)


def test_duplicate_keys_are_rejected_at_the_second_one() -> None:
    assert error_of("strict: true\nrisky-words: [a]\nstrict: false\n") == (
        "tribunal.yml:3: (top level): duplicate key 'strict'"
    )
    assert error_of("analyzers:\n  assertion-free-test: true\n  assertion-free-test: false\n") == (
        "tribunal.yml:3: analyzers: duplicate key 'assertion-free-test'"
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("strict: true\n  bad: indent\n", "tribunal.yml:2: not valid YAML: "),
        ("a: [1, 2\n", "tribunal.yml:2: not valid YAML: "),
        ("\tstrict: true\n", "tribunal.yml:1: not valid YAML: "),
        (
            "strict: true\n---\nstrict: false\n",
            "tribunal.yml:2: not valid YAML: expected a single document in the stream, "
            "but found another document",
        ),
        ("strict: *nowhere\n", "tribunal.yml:1: not valid YAML: "),
    ],
)
def test_malformed_yaml_names_the_line(text: str, expected: str) -> None:
    assert error_of(text).startswith(expected)


def test_unknown_tags_never_become_tracebacks() -> None:
    message = error_of("!!python/object:os.system {}\n")
    assert message.startswith("tribunal.yml:1: ")
    message = error_of("lenses: !custom {}\n")
    assert message.startswith("tribunal.yml:1: ")


def test_load_config_finds_the_repo_file(tmp_path: Path) -> None:
    (tmp_path / "tribunal.yml").write_text("strict: true\n")
    assert load_config(None, tmp_path, tmp_path).strict is True
    assert load_config(None, tmp_path / "nowhere", tmp_path) == Config()
    assert load_config(None, None, tmp_path) == Config()


def test_explicit_config_that_does_not_exist(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"^nope\.yml: config file named by --config does not"):
        load_config("nope.yml", tmp_path, tmp_path)


def test_tribunal_config_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "tribunal.yml").write_text("strict: false\n")
    (tmp_path / "other.yml").write_text("strict: true\n")
    monkeypatch.setenv(CONFIG_ENV, "other.yml")
    config = load_config(None, tmp_path, tmp_path)
    assert (config.source, config.strict) == ("other.yml", True)
    # --config wins over the variable
    assert load_config("tribunal.yml", tmp_path, tmp_path).strict is False
    monkeypatch.setenv(CONFIG_ENV, "gone.yml")
    with pytest.raises(ConfigError, match="config file named by TRIBUNAL_CONFIG does not exist"):
        load_config(None, tmp_path, tmp_path)


def test_non_utf8_config(tmp_path: Path) -> None:
    (tmp_path / "tribunal.yml").write_bytes(b"strict: \xff\n")
    with pytest.raises(ConfigError, match=r"^tribunal\.yml: cannot read config"):
        load_config(None, tmp_path, tmp_path)


# --- end to end -----------------------------------------------------------------------


def test_bad_config_exits_2_with_one_line(repo: GitRepo) -> None:
    repo.commit({"tribunal.yml": "analyzers:\n  fake-echo: maybe\n"})
    result = run_cli(repo, "check")
    assert result.code == 2
    assert result.stderr == (
        "tribunal: error: tribunal.yml:2: analyzers.fake-echo: expected true or false, "
        "found str 'maybe'\n"
    )
    assert result.stdout == ""


def test_missing_config_flag_exits_2(repo: GitRepo) -> None:
    repo.commit({"a.py": "a\n"})
    result = repo.tribunal("check", "--config", "missing.yml")
    assert result.code == 2
    assert result.stderr == (
        "tribunal: error: missing.yml: config file named by --config does not exist\n"
    )


def test_env_config_disables_an_analyzer_end_to_end(repo: GitRepo, tmp_path: Path) -> None:
    repo.commit({"a.py": "a\n"})
    repo.write({"a.py": "CONTRADICT\n"})
    (tmp_path / "quiet.yml").write_text("analyzers: {fake-flag: false}\n")
    loud = run_cli(repo, "check", "--format", "json")
    quiet = run_cli(
        repo, "check", "--format", "json", env={CONFIG_ENV: str(tmp_path / "quiet.yml")}
    )
    assert '"CONTRADICTED": 1' in loud.stdout
    assert '"CONTRADICTED": 0' in quiet.stdout and '"fake-flag"' not in quiet.stdout


def test_generated_paths_add_to_builtins_and_flags_turn_skipping_off(repo: GitRepo) -> None:
    repo.commit({"tribunal.yml": "generated-paths: [gen/]\n", "keep.py": "k\n"})
    repo.write(
        {"dist/bundle.js": "x\n", "gen/out.py": "y\n", "src/gen.py": "z\n", "keep.py": "K\n"}
    )
    default = seen(run_cli(repo, "check", "--format", "json"))
    assert set(default) == {"src/gen.py", "keep.py"}  # dist/ built in, gen/ configured
    everything = {"dist/bundle.js", "gen/out.py", "src/gen.py", "keep.py"}
    assert set(seen(run_cli(repo, "check", "--format", "json", "--no-skip-generated"))) == (
        everything
    )
    env = {"TRIBUNAL_NO_SKIP_GENERATED": "1"}
    assert set(seen(run_cli(repo, "check", "--format", "json", env=env))) == everything
    env = {"TRIBUNAL_NO_SKIP_GENERATED": "0"}
    assert set(seen(run_cli(repo, "check", "--format", "json", env=env))) == set(default)


def test_the_commit_hook_also_honours_the_no_skip_environment_switch(repo: GitRepo) -> None:
    repo.commit({"keep.py": "k\n"})
    repo.write({"dist/b.py": "b = 1\n", "keep.py": "k = 2\n"})
    repo.git("add", "-A")
    default = run_cli(repo, "hook", "pre-commit")
    everything = run_cli(repo, "hook", "pre-commit", env={"TRIBUNAL_NO_SKIP_GENERATED": "1"})
    assert default.code == everything.code == 0, default.stderr + everything.stderr
    assert "(1 file," in default.stdout
    assert "(2 files," in everything.stdout


def test_config_cannot_remove_builtin_generated_paths() -> None:
    config = parse_config("generated-paths: [only-this/]\n", "tribunal.yml")
    from tribunal.lang.paths import is_generated

    assert is_generated("dist/x.js", config.generated_paths)
    assert is_generated("only-this/x.js", config.generated_paths)
