"""Which top-level Python names are provided from outside the repository.

Three sources: the standard library (``sys.stdlib_module_names`` plus modules
recent Pythons removed, so code for an older Python is not questioned), the
distributions the project declares (their import names derived with a table of
the usual differences such as ``PyYAML`` -> ``yaml``), and the project's own
environment when one is found in the checkout or named by ``VIRTUAL_ENV`` —
never the environment Tribunal itself runs in.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterable
from functools import cached_property
from pathlib import Path

from tribunal.lang.manifests import canonical

#: Removed from recent Pythons (3.12, 3.13) or added after 3.11, and the packaging
#: tools every environment that runs a setup.py has: still "standard" here.
_OTHER_STDLIB = frozenset(
    {
        "distutils", "imp", "asynchat", "asyncore", "smtpd", "aifc", "audioop", "cgi", "cgitb",
        "chunk", "crypt", "imghdr", "mailcap", "msilib", "nis", "nntplib", "ossaudiodev", "pipes",
        "sndhdr", "spwd", "sunau", "telnetlib", "uu", "xdrlib", "lib2to3", "annotationlib",
        "compression", "_interpreters", "__future__", "__main__", "_typeshed", "setuptools",
        "pkg_resources", "_distutils_hack", "pip",
    }
)  # fmt: skip
STDLIB = frozenset(sys.stdlib_module_names) | _OTHER_STDLIB

#: Distributions whose import names differ from their (normalized) names.
_DIST_IMPORTS: dict[str, tuple[str, ...]] = {
    "pyyaml": ("yaml",), "beautifulsoup4": ("bs4",), "pillow": ("PIL",),
    "scikit-learn": ("sklearn",), "scikit-image": ("skimage",), "scikit-optimize": ("skopt",),
    "python-dateutil": ("dateutil",), "opencv-python": ("cv2",),
    "opencv-python-headless": ("cv2",), "opencv-contrib-python": ("cv2",),
    "opencv-contrib-python-headless": ("cv2",), "protobuf": ("google",), "grpcio": ("grpc",),
    "grpcio-tools": ("grpc_tools",), "attrs": ("attr", "attrs"), "pyjwt": ("jwt",),
    "pyzmq": ("zmq",), "pymupdf": ("fitz", "pymupdf"), "python-dotenv": ("dotenv",),
    "pycryptodome": ("Crypto",), "pycryptodomex": ("Cryptodome",), "pyopenssl": ("OpenSSL",),
    "pyserial": ("serial",), "pyusb": ("usb",), "typing-extensions": ("typing_extensions",),
    "setuptools": ("setuptools", "pkg_resources", "_distutils_hack", "distutils"),
    "python-multipart": ("multipart", "python_multipart"), "faiss-cpu": ("faiss",),
    "faiss-gpu": ("faiss",), "dnspython": ("dns",), "pysocks": ("socks", "sockshandler"),
    "pygobject": ("gi",), "mysqlclient": ("MySQLdb",), "mysql-connector-python": ("mysql",),
    "djangorestframework": ("rest_framework",), "django-filter": ("django_filters",),
    "django-cors-headers": ("corsheaders",), "django-environ": ("environ",),
    "pywavelets": ("pywt",), "ipython": ("IPython",), "gitpython": ("git",),
    "pygithub": ("github",), "websocket-client": ("websocket",), "scikit-build": ("skbuild",),
    "py-cpuinfo": ("cpuinfo",), "pyinstaller": ("PyInstaller",),
    "python-ldap": ("ldap", "ldapurl", "ldif"), "pycairo": ("cairo",), "wxpython": ("wx",),
    "pyhamcrest": ("hamcrest",), "msgpack-python": ("msgpack",), "ruamel-yaml": ("ruamel",),
    "google-api-python-client": ("googleapiclient", "apiclient"), "pyqt5": ("PyQt5",),
    "pyqt6": ("PyQt6",), "pyside2": ("PySide2",), "pyside6": ("PySide6",),
    "pyobjc": ("objc", "Foundation", "AppKit"), "pyobjc-core": ("objc",),
    "python-telegram-bot": ("telegram",), "discord-py": ("discord",),
    "paho-mqtt": ("paho",), "pywin32": ("win32api", "win32con", "win32com", "pywintypes",
    "pythoncom", "win32gui", "win32file", "win32process", "win32event"),
    "pywin32-ctypes": ("win32ctypes",), "python-levenshtein": ("Levenshtein",),
    "levenshtein": ("Levenshtein",), "pysimplegui": ("PySimpleGUI",), "python-pptx": ("pptx",),
    "python-docx": ("docx",), "pdfminer-six": ("pdfminer",), "pypdf2": ("PyPDF2",),
    "netcdf4": ("netCDF4",), "gdal": ("osgeo",), "earthengine-api": ("ee",),
    "pynacl": ("nacl",), "argon2-cffi": ("argon2",), "kafka-python": ("kafka",),
    "opensearch-py": ("opensearchpy",), "pymongo": ("pymongo", "bson", "gridfs"),
    "python-socketio": ("socketio",), "python-engineio": ("engineio",),
    "future": ("future", "past", "libfuturize", "libpasteurize"),
    "pep8-naming": ("pep8ext_naming",),
    "tensorflow-gpu": ("tensorflow",), "tensorflow-cpu": ("tensorflow",),
    "tf-nightly": ("tensorflow",), "lightning": ("lightning", "pytorch_lightning"),
    "antlr4-python3-runtime": ("antlr4",), "jack-client": ("jack",),
    "pyreadline3": ("pyreadline3", "readline"), "python-keycloak": ("keycloak",),
    "backports-zoneinfo": ("backports",), "pytest": ("pytest", "_pytest", "py"),
}  # fmt: skip

#: Distribution-name prefixes that install into a shared namespace package.
_NAMESPACE_PREFIXES = (
    "google-", "azure-", "backports-", "jaraco-", "zope-", "sphinxcontrib-", "ruamel-",
    "opentelemetry-", "plone-", "collective-", "flufl-", "oslo-", "keystone", "types-",
)  # fmt: skip
_AFFIXES = (("python-", ""), ("py-", ""), ("", "-python"), ("", "-py"), ("", "-binary"),
            ("", "-headless"), ("types-", ""), ("", "-stubs"))  # fmt: skip


def import_names(distribution: str) -> frozenset[str]:
    """Lower-cased top-level import names a distribution plausibly provides."""
    dist = canonical(distribution)
    out = {dist.replace("-", "_"), dist.replace("-", "")}
    out.update(n.lower() for n in _DIST_IMPORTS.get(dist, ()))
    for prefix, suffix in _AFFIXES:
        if dist.startswith(prefix) and dist.endswith(suffix) and len(dist) > len(prefix + suffix):
            stem = dist[len(prefix) : len(dist) - len(suffix)]
            out.update({stem.replace("-", "_"), *(n.lower() for n in _DIST_IMPORTS.get(stem, ()))})
    if dist.startswith(_NAMESPACE_PREFIXES):
        out.add(dist.split("-", 1)[0])
    return frozenset(out)


def declared_imports(distributions: Iterable[str]) -> frozenset[str]:
    return frozenset(name for dist in distributions for name in import_names(dist))


class ProjectEnv:
    """A project's virtual environment, read from disk (read-only, never imported)."""

    def __init__(self, prefix: Path) -> None:
        self.prefix = prefix
        self.site_dirs = sorted(
            p
            for pattern in ("lib/python3*/site-packages", "Lib/site-packages")
            for p in prefix.glob(pattern)
            if p.is_dir()
        )

    @cached_property
    def top_level(self) -> frozenset[str]:
        """Lower-cased importable top-level names, including editable installs."""
        names: set[str] = set()
        for site in self.site_dirs:
            for entry in _listdir(site):
                names.update(_entry_names(site, entry))
        return frozenset(n.lower() for n in names)


def _entry_names(site: Path, entry: str) -> Iterable[str]:
    stem = entry.split(".", 1)[0]
    if entry.endswith(".pth"):
        return _pth_names(site / entry)
    if entry.startswith("__editable__") and entry.endswith(".py"):
        return _finder_names(site / entry)
    if entry.endswith((".py", ".so", ".pyd")) or (site / entry).is_dir():
        return (stem,) if stem.isidentifier() else ()
    return ()


def _pth_names(path: Path) -> list[str]:
    """Names reachable through directories a ``.pth`` file adds (editable installs)."""
    out: list[str] = []
    for line in _read_small(path).splitlines():
        line = line.strip()
        if line and not line.startswith(("#", "import ")) and Path(line).is_dir():
            out += [e.split(".", 1)[0] for e in _listdir(Path(line))]
    return out


def _finder_names(path: Path) -> list[str]:
    """Top-level names of a setuptools editable finder's ``MAPPING``."""
    return re.findall(r"['\"]([A-Za-z_][A-Za-z0-9_]*)['\"]\s*:", _read_small(path))


def _read_small(path: Path) -> str:
    try:
        with path.open("rb") as handle:
            return handle.read(1 << 20).decode("utf-8", "replace")
    except OSError:
        return ""


def _listdir(path: Path) -> list[str]:
    try:
        return os.listdir(path)
    except OSError:
        return []


def find_project_env(root: Path | None) -> ProjectEnv | None:
    """The project's environment: ``.venv``/``venv`` in the checkout, else ``$VIRTUAL_ENV``."""
    candidates = [root / ".venv", root / "venv"] if root is not None else []
    named = os.environ.get("VIRTUAL_ENV")
    if named and not _is_own_env(Path(named)):
        candidates.append(Path(named))
    for prefix in candidates:
        if (prefix / "pyvenv.cfg").is_file() and not _is_own_env(prefix):
            env = ProjectEnv(prefix)
            if env.site_dirs:
                return env
    return None


def _is_own_env(prefix: Path) -> bool:
    """Tribunal's own environment, or any environment pre-commit manages."""
    try:
        resolved = prefix.resolve()
        if resolved == Path(sys.prefix).resolve():
            return True
    except OSError:
        return True
    cache = os.environ.get("PRE_COMMIT_HOME") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "pre-commit"
    )
    return resolved.is_relative_to(Path(cache).resolve())
