"""The risky vocabulary: words that mark security-relevant code, matched as whole tokens.

Built in: authentication and authorization, secrets and credentials,
cryptography, payments. ``risky-words:`` in ``tribunal.yml`` adds to the list
(never replaces it). A configured word that splits into several tokens
(``api-key``, ``ledgerEntry``) matches only those tokens in that order.
Words that name ordinary plumbing in most code bases (``session``, ``admin``,
``signature``, ``key``) are left out: a signal that fires on every change is
no signal.
"""

from collections.abc import Iterable, Sequence
from functools import cached_property
from typing import NamedTuple

from tribunal.lang.identifiers import split_words

_BUILTIN = """
auth authn authz authenticate authenticated authentication authenticator authorize authorized
authorization login logout signin signup password passwords passwd passphrase secret secrets
token tokens jwt oauth saml sso otp mfa totp crypto cryptography encrypt encrypted encryption
decrypt decryption cipher hmac credential credentials cookie cookies csrf xss sanitize
permission permissions acl rbac privilege privileges sudo payment payments billing invoice
invoices refund refunds stripe paypal wallet ssn pii kyc salt nonce keystore certificate cert
tls ssl
"""
_BUILTIN_PHRASES = (
    "api key",
    "private key",
    "secret key",
    "access key",
    "credit card",
    "card number",
)


class _Entries(NamedTuple):
    words: frozenset[str]
    phrases: tuple[tuple[str, ...], ...]


class Vocabulary(_Entries):
    """A value (compared by its entries) that remembers what each name it saw hits.

    The entries are a NamedTuple rather than a dataclass (see
    ``tribunal.findings``); this subclass has a ``__dict__`` for the memo.
    """

    @cached_property
    def _memo(self) -> dict[str, list[str]]:
        return {}

    def hits(self, tokens: Sequence[str]) -> list[str]:
        """The vocabulary entries ``tokens`` (one identifier or path part) contains."""
        found = [t for t in tokens if t in self.words]
        for phrase in self.phrases:
            size = len(phrase)
            if any(tuple(tokens[i : i + size]) == phrase for i in range(len(tokens) - size + 1)):
                found.append(" ".join(phrase))
        return found

    def may_hit(self, text: str) -> bool:
        """Whether an identifier in ``text`` can hold an entry: one is in it, in any case.

        Tokens are lower-cased runs of an identifier's own letters, so text
        without any entry as a substring needs no tokenizing or parsing at all.
        """
        lowered = text.lower()
        return any(w in lowered for w in self.words) or any(p[0] in lowered for p in self.phrases)

    def hits_in(self, name: str) -> list[str]:
        """``hits`` of an identifier, remembered: the same names recur all over a change."""
        found = self._memo.get(name)
        if found is None:
            found = self.hits(split_words(name))
            self._memo[name] = found
        return found


def vocabulary(extra: Iterable[str] = ()) -> Vocabulary:
    """The built-in vocabulary plus ``extra`` (the ``risky-words:`` setting)."""
    words = set(_BUILTIN.split())
    phrases = {tuple(p.split()) for p in _BUILTIN_PHRASES}
    for entry in extra:
        tokens = split_words(entry)
        if len(tokens) == 1:
            words.add(tokens[0])
        elif tokens:
            phrases.add(tokens)
    return Vocabulary(frozenset(words), tuple(sorted(phrases)))
