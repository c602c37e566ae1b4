"""The claim checks' word lists: one loader of ``lexicon/*.yaml``, checked and compiled."""

from __future__ import annotations

from pathlib import Path

import pytest

from hat_eval._datafile import DataFileError
from hat_eval.episode._claims import _lexicon
from hat_eval.episode._claims._lexicon import any_found, any_of, claim_words, groups, words
from hat_eval.episode._claims._text import prepare


def test_every_key_is_filled_and_matches_its_own_examples() -> None:
    assert words("decline").search("i would rather not compare other brands")
    assert words("decline").search("这个就不和别家比了")
    assert words("cannot_confirm").search("i could not confirm that just now")
    assert words("cannot_confirm").search("价格暂时查不到")
    assert groups("commitments")["refund"].search("your refund has been processed")
    assert groups("commitments")["handoff"].search("已经帮你转给人工客服了")
    assert groups("value_forms")["invalid"].search("the shop does not recognise that code")
    names = [w.name for w in claim_words()]
    assert len(names) == len(set(names)) and "waterproof" in names
    waterproof = next(w for w in claim_words() if w.name == "waterproof")
    assert waterproof.said.search("它是防水的") and waterproof.said.search("fully waterproof")


def test_an_unknown_key_is_refused() -> None:
    with pytest.raises(KeyError, match="unknown lexicon key"):
        words("declines")


def _load(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    folder = tmp_path / "lexicon"
    folder.mkdir()
    (folder / "xx.yaml").write_text(text, encoding="utf-8")
    monkeypatch.setattr(_lexicon, "files", lambda _pkg: tmp_path)
    _lexicon.lexicon.cache_clear()
    try:
        _lexicon.lexicon()
    finally:
        _lexicon.lexicon.cache_clear()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("declines: ['x']", r"lexicon/xx.yaml: declines: unknown key; expected one of .*decline"),
        ("decline: 'x'", r"lexicon/xx.yaml: decline: Input should be a valid list, got 'x'"),
        ("decline: ['(unclosed']", r"decline\[0\]: is not a valid regular expression"),
        ("commitments: ['x']", r"commitments: Input should be a valid dictionary, got \['x'\]"),
        ("claim_words: {a: {says: ['x']}}", r"claim_words.a.says: unknown key"),
        ("- x", r"lexicon/xx.yaml: Input should be a valid dictionary"),
        # a key said twice: YAML would keep the second and drop the first's forms unsaid
        (
            "value_forms:\n  unworn: ['a']\n  unused: ['b']\n  unworn: ['c']\n",
            r"lexicon/xx.yaml: line 4: .*duplicate key 'unworn' \(first at line 2\)",
        ),
    ],
)
def test_a_bad_file_names_the_file_the_key_and_the_fix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str, message: str
) -> None:
    with pytest.raises(DataFileError, match=message) as err:
        _load(tmp_path, monkeypatch, text)
    assert "\n" not in str(err.value)


def test_a_form_added_in_yaml_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "lexicon"
    folder.mkdir()
    (folder / "en.yaml").write_text("decline: ['\\bnope\\b']\n", encoding="utf-8")
    monkeypatch.setattr(_lexicon, "files", lambda _pkg: tmp_path)
    _lexicon.lexicon.cache_clear()
    try:
        assert words("decline").search("nope, not that")
        assert not words("redirect").search("anything at all")  # a key no file fills
    finally:
        _lexicon.lexicon.cache_clear()


def test_the_general_compliance_rules_are_data_and_a_bad_one_is_one_line(tmp_path) -> None:
    from hat_eval._datafile import DataFileError, load_model
    from hat_eval.episode._claims._safety import GeneralRules, general_rules

    rules = general_rules().rules
    assert rules and all(r.rule and r.pattern for r in rules)
    assert any("{brands}" in r.pattern for r in rules)  # the catalogue's brands fill it in
    bad = tmp_path / "general_rules.yaml"
    bad.write_text("rules:\n  - rule: ABS-X\n    pattern: '(unclosed'\n", encoding="utf-8")
    with pytest.raises(DataFileError, match=r"rules\[0\]\.pattern: is not a regular expression"):
        load_model(bad, GeneralRules)
    bad.write_text("rules:\n  - rule: ABS-X\n", encoding="utf-8")
    with pytest.raises(DataFileError, match=r"rules\[0\]\.pattern: missing"):
        load_model(bad, GeneralRules)


def test_a_union_is_found_exactly_where_its_search_finds_it() -> None:
    union = any_of(
        [
            r"\bbetter\b[^.!?]{0,20}\bthan\b",
            "最好|第一",
            r"\b(?:a|one) (?:full )?week\b",
            "(?i:SALE)",
        ]
    )
    found = {
        "it is better than the rest": True,
        "better. than": False,  # the words it needs, but no match: the search decides
        "this is the best": False,
        "这款卖得最好": True,
        "ships in one full week": True,
        "weekly drops": False,
        "a big sale": True,  # a form read without case has no needed words: searched
    }
    assert {text: any_found(union, text) for text in found} == found


def test_every_union_the_checks_look_up_agrees_with_its_search_on_the_corpus() -> None:
    from hat_eval.episode import knowledge_base, read_corpus
    from hat_eval.episode._claims import _claim_words, _commitments, _offers, _quantities, _safety

    kb = knowledge_base(0)
    unions = [
        *(words(key) for key in _lexicon.KEYS),
        *(p for key in _lexicon.GROUPS for p in groups(key).values()),
        *(w.said for w in claim_words()),
        *(_safety._any_banned(kb, c) for c in (None, *{str(p["category"]) for p in kb.products()})),
        _claim_words._any_word(),
        _offers._any_offer(),
        _claim_words._any_assurance(),
        _commitments._any_commitment(),
        _quantities._ANY_IDIOM,
    ]
    corpus = sorted((Path(__file__).resolve().parents[2] / "judge" / "corpus").glob("answers_*"))[
        ::4
    ]
    texts = [prepare(e.answer) for e in read_corpus(corpus)]
    for union in unions:
        wrong = [t for t in texts if any_found(union, t) != (union.search(t) is not None)]
        assert not wrong, (union.pattern[:80], wrong[:3])


def test_any_found_searches_when_the_parser_is_gone(monkeypatch) -> None:
    """Without ``re._parser`` (a later Python) every text is searched: the same answers."""
    from hat_eval.episode._claims import _lexicon

    union = _lexicon.any_of([r"\bbetter\b[^.]{0,20}\bthan\b", r"包邮"])
    monkeypatch.setattr(_lexicon, "_parser", lambda: None)
    _lexicon._needed_words.cache_clear()
    _lexicon._FOUND.clear()
    try:
        for text in ("better value than most", "it is better", "满99包邮", "nothing here"):
            assert _lexicon.any_found(union, text) == (union.search(text) is not None)
        assert _lexicon._needed_words(union.pattern, union.flags) is None
    finally:
        _lexicon._needed_words.cache_clear()
