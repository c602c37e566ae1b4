"""Session fourteen: values as people say them and values the specs give, each beside a
look-alike keeping its verdict.

Every answer here is written to a real corpus line (its case, its call records).
"""

from __future__ import annotations

import pytest

from hat_eval.episode._corpus import CorpusEntry
from tests.episode._helpers import check_line, corpus_lines, part_value


@pytest.fixture(scope="module")
def lines() -> dict[str, CorpusEntry]:
    return corpus_lines("L244", "L245", "L246")


_FLASK = "Yes! The Nestwell Urban Vacuum Flask in 350 ml red is in stock, "  # 94 left

COUNTS_AS_SAID = [
    # a round count said with an approximation, within a tenth of the stock: true
    ("L244-0042", _FLASK + "a little over 90 left, so you're good to go.", 1.0),
    ("L244-0042", _FLASK + "about 100 left.", 1.0),
    ("L244-0042", "是的，350 ml 红色有货，还有90多件～", 1.0),
    # look-alikes: a bare count that is not the stock, a far one, a count not round
    ("L244-0042", _FLASK + "90 left.", 0.0),
    ("L244-0042", _FLASK + "about 120 left.", 0.0),
    ("L244-0042", _FLASK + "about 91 left.", 0.0),
]


@pytest.mark.parametrize(("line_id", "answer", "accuracy"), COUNTS_AS_SAID)
def test_stock_counts_as_said(lines, line_id, answer, accuracy) -> None:
    check = check_line(lines, line_id, answer)
    assert part_value(check.parts["accuracy"]) == accuracy, check.reasons


_HOTPOT = "The Shanshui Premium Hot Pot Base contains beef tallow, chilli, Sichuan pepper, "
_HOODIE = "有货的！Maple & Moss Heavyweight 连帽卫衣 XL 码藏青色现在有现货，"

SPEC_VALUES = [
    # a shelf life is one the specs give (18 months), in any unit
    ("L246-0002", _HOTPOT + "bean paste and spices. It has a 12-month shelf life.", 0.0),
    ("L246-0002", _HOTPOT + "bean paste and spices. It keeps for 2 years.", 0.0),
    ("L246-0002", "Shanshui火锅底料配料是牛油、辣椒、花椒，保质期12个月。", 0.0),
    ("L246-0002", _HOTPOT + "bean paste and spices. It has an 18-month shelf life.", 1.0),
    ("L246-0002", "Shanshui火锅底料配料是牛油、辣椒、花椒，保质期18个月。", 1.0),
    # a count right after a price is its unit ("¥299.90一件"), not a stock count
    ("L245-0007", _HOODIE + "到手价 ¥299.90（人民币）一件。", 1.0),
    ("L245-0007", _HOODIE + "到手价 ¥299.90，只剩1件了。", 0.0),
]


@pytest.mark.parametrize(("line_id", "answer", "accuracy"), SPEC_VALUES)
def test_spec_values_and_units(lines, line_id, answer, accuracy) -> None:
    check = check_line(lines, line_id, answer)
    assert part_value(check.parts["accuracy"]) == accuracy, check.reasons
