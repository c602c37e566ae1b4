"""Numbers and quantities in an answer."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from ._lexicon import any_found, any_of

_ZH_NUMERAL = re.compile(r"[零〇一二两三四五六七八九十百千万亿]+(?:点[零〇一二三四五六七八九]+)?")
_MEASURE = frozenset(
    "件个块元天周月年小条只双套盒瓶袋罐张台支克米号码层色款斤毫厘公份折毛角"
    "把包片颗枚副"  # 七把 keyboards, 两包 packs, 三片 sheets
    "日"  # 七日内 (within 7 days), 二十日 (the 20th), as written in digits
)
"""Characters that make a preceding Chinese numeral a quantity (一起, 统一, 第一 stay words)."""


_ADJACENT = re.compile(
    r"(一)(两|二)|(两|二)(三)|(三)(四)|(四)(五)|(五)(六)|(六)(七)|(七)(八)|(八)(九)"
)
"""Two numerals side by side, each one more than the other (一两周, 三四天): a range, not 12."""


_DIGIT = dict(zip("一二三四五六七八九", "123456789", strict=True))
_TENTHS = re.compile(
    r"([一二三四五六七八九])成([一二三四五六七八九])?"
    r"(?=的|[a-z]|$|棉|涤|麻|羊|蚕|莫代尔|氨纶|聚酯|天丝|竹|粘胶|锦纶)"  # 六成棉、四成莫代尔
)
"""A share in tenths before what it is of (九成八的棉 -> 98%的棉, 七成的 -> 70%)."""
_PER_CENT = re.compile(r"百分之([零一二两三四五六七八九十]+)")


def _zh_numerals(text: str) -> str:
    """Chinese numerals before a measure word, currency or range as digits (两百元 -> 200元).

    The numeral itself is read by ``cn2an`` (``cn2an.cn2an(..., "smart")``): 两百五 -> 250,
    一万二 -> 12000, 九十九点九 -> 99.9. Only a numeral followed by a measure word (or the
    low end of a range, 一到两天) is converted, so 一起, 统一 and 第一 stay as they are.
    """
    import cn2an  # lazily: ~0.1 s to import, and only Chinese text needs it

    text = _TENTHS.sub(lambda m: f"{_DIGIT[m[1]]}{_DIGIT.get(m[2] or '', '0')}%", text)
    text = _PER_CENT.sub(lambda m: f"{cn2an.cn2an(m[1], 'smart')}%", text)  # 百分之二 -> 2%

    def repl(m: re.Match[str]) -> str:
        approx = _ADJACENT.fullmatch(m.group(0))
        if approx and text[m.end() : m.end() + 1] in _MEASURE:  # 一两周: one or two weeks
            low, high = (cn2an.cn2an(x, "smart") for x in approx.groups() if x)
            return f"{low}-{high}"
        after = text[m.end() : m.end() + 1]
        if text[m.start() - 1 : m.start()] in ("块", "元") and _TENTHS_THEN_ONE.fullmatch(m[0]):
            return m.group(0)  # 一百三十九块九一份: 9 jiao, then "one portion" (not 91)
        if text[m.start() - 1 : m.start()].isdigit():
            return m.group(0)  # ¥119一包: a price per pack (not ¥1191)
        if after and after in "到至~-":  # the low end of a range: 一到两天 -> 1到2天
            rest = _ZH_NUMERAL.match(text, m.end() + 1)
            if rest is None or text[rest.end() : rest.end() + 1] not in _MEASURE:
                return m.group(0)
        elif not after or (after not in _MEASURE and text[m.end() : m.end() + 2] != "分钟"):
            return m.group(0)
        try:
            value = cn2an.cn2an(m.group(0), "smart")
        except ValueError:
            return m.group(0)
        digits = f"{value:g}" if isinstance(value, float) else str(value)
        # "studio mu三百零九元" -> "studio mu 309元": a name's last letter stays a word's end
        before = text[m.start() - 1 : m.start()]
        return f" {digits}" if before.isascii() and before.isalpha() else digits

    text = _ZH_NUMERAL.sub(repl, text)
    # the fen after jiao has no measure word of its own: 188块9毛一 -> 188块9毛1
    # a digit right after 块/元/毛 (and before 毛/角/分 or the end of the amount) is tenths or
    # hundredths: 89块九 -> 89块9; not the count of what follows (119元一盒)
    fen = (  # ... and before what ends an amount said aloud: 99块九到手, 89块九哦, 59块九一根
        r"(?<=[毛角块元])[零一二两三四五六七八九]"
        r"(?=[毛角分]|到手|包邮|[哦啊呀哈吧呢的就噢哟]|[^\u4e00-\u9fff]|$"
        r"|一[根个件瓶盒袋罐包片份套张支双条只])"  # 五十九块九一根: a price per piece
    )
    return re.sub(fen, lambda m: str(cn2an.cn2an(m.group(0), "smart")), text)


_TENTHS_THEN_ONE = re.compile(r"[一二两三四五六七八九]一")
"""A jiao digit after 块 with the 一 of "one piece" after it (块九一份), read as one numeral."""

_ZH_UNITS_AFTER_NUMBER = (
    ("个月", "months"),
    ("个小时", "hours"),
    ("小时", "hours"),
    ("个工作日", "business days"),
    ("工作日", "business days"),
    ("天", "days"),
    ("毫升", "ml"),
    ("毫米", "mm"),
    ("厘米", "cm"),
    ("公斤", "kg"),
    ("千克", "kg"),
    ("克", "g"),
    ("斤", "jin"),
    ("年", "years"),
)
"""Chinese units after a number, as the gold writes them in English (24个月 -> 24 months)."""
_ZH_UNIT = re.compile(r"(?<=\d)\s?(" + "|".join(zh for zh, _ in _ZH_UNITS_AFTER_NUMBER) + ")")
_ZH_UNIT_EN = dict(_ZH_UNITS_AFTER_NUMBER)

_ZH_FEN = re.compile(r"(\d+)\s?(?:块|元)\s?(\d)\s?(?:毛|角)\s?(\d)\s?分?(?![\d.])")
"""Yuan, jiao and fen: 188块9毛1 -> 188.91元."""
_ZH_MONEY = re.compile(
    r"(\d+)\s?(?:块|元)钱?\s?(\d)\s?(?:毛|角)?(?![\d.]|[件个盒瓶袋罐包片份套张支双条只斤克])"
)
"""Money as people say it: 99块9 / 99元9角 -> 99.9元 (the digit after the yuan is tenths)."""
_ZH_DISCOUNT = re.compile(r"(?:打\s?)?(\d+(?:\.\d+)?)\s?折")
"""折 gives the share paid: 8折 = 20% off, 8.5折 = 15% off, 75折 = 25% off."""


def _zh_discount(m: re.Match[str]) -> str:
    paid = float(m.group(1))
    paid = paid * 10 if paid < 10 else paid  # 8折 -> 80%, 75折 -> 75%
    return f" {100 - paid:g}% off "


_IDIOMS = (
    (re.compile(r"\bhalf (?:a )?dozen\b"), "6"),
    (re.compile(r"\ba dozen\b"), "12"),
    (
        re.compile(r"\b(?:a single|just one|only one) (?=unit|piece|pair|item|bottle|one left)"),
        "1 ",
    ),
    (re.compile(r"\b(?:a|one) day or two\b"), "1-2 days"),
    (re.compile(r"\btomorrow or the day after\b|明天或(?:者)?后天"), "1-2 days"),
    (re.compile(r"\b(?:a|one) week or two\b"), "7-14 days"),
    (re.compile(r"\b(?:a|one) week and a half\b"), "10.5 days"),
    (re.compile(r"\b(?:a|one) (?:full |whole )?week\b"), "7 days"),
    (re.compile(r"\b(?:a|one) fortnight\b"), "14 days"),
    (re.compile(r"\b(?:a|one) quarter of an hour\b"), "15 minutes"),
    (re.compile(r"(\d+)个半小时"), r"\1.5 hours"),  # 5个半小时: five and a half hours
    (re.compile(r"\bhalf an hour\b|半个?小时"), "30 minutes"),
    (re.compile(r"\bhalf a year\b"), "6 months"),
    (re.compile(r"\bhalf a month\b"), "15 days"),
    (re.compile(r"半个月"), "15天"),
    (
        re.compile(
            r"\b(?:get|gets|receive|arrive|arrives|delivered|delivery|ships?) (?:\w+ )?"
            r"next[- ]day\b|"
            r"\b(?:often|usually|sometimes|typically) (?:even )?(?:the )?next[- ]day\b|"
            r"次日达|隔日达|"
            r"(?:隔天|第二天|次日)(?:就)?(?:能|可以|可)?(?:收到|送到|送达|到货|到)"
        ),
        "1 day",
    ),
    (re.compile(r"\bhalf (?:off|price)\b|半价"), "50% off"),
    (re.compile(r"\b(?:a|one)[- ](?:full |whole )?year\b"), "1 year"),
    (re.compile(r"\b(only|just) one (left|remaining|in stock)\b"), r"\1 1 \2"),
    (re.compile(r"\bthe last one\b"), "the last 1"),
    (re.compile(r"\bgrams? (?:per|a|/) ?square met(?:re|er)\b|\bg/m(?:2|²)|克每平方米"), "gsm"),
    # a share in tenths ("seven-tenths bamboo viscose, three-tenths cotton": 70% and 30%)
    *(
        (re.compile(rf"\b{word}[- ]tenths?\b"), f"{n}0%")
        for n, word in enumerate("one two three four five six seven eight nine".split(), 1)
    ),
    # "1 fl oz": one unit (pint reads a lone "fl" as femtolitres)
    (re.compile(r"\bfl\.? ?oz\b|\bfluid ounces?\b"), "floz"),
)
"""Quantities said as idioms, which no numeral parser reads ("half a dozen", "a week")."""

_ANY_IDIOM = any_of([pattern.pattern for pattern, _ in _IDIOMS])
_SPOKEN_CENTS = re.compile(
    r"(?<![\d.])(\d+) yuan (\d\d?)\b(?![.,]?\d| ?(?:%|元|块|x\b|(?:days?|weeks?|months?|years?|"
    r"hours?|minutes?|pieces?|packs?|pairs?|units?|items?|sets?|left|off|percent|per|each|"
    r"g|kg|ml|cm|mm|m|l|orders?|or more|and up)\b))"
)
"""Yuan and cents said aloud: "six hundred and eight yuan thirty" (608 yuan 30) -> 608.30 yuan."""
_HYPHENED_UNIT = re.compile(
    r"\b([a-z]+)-(yuan|kuai|days?|weeks?|months?|years?|hours?|minutes?|pieces?|packs?)\b"
)
"""A number word joined to its unit ("a fifteen-yuan fee", "a seven-day window"): apart."""
_THOUSANDS = re.compile(r"([¥$]\s?)(\d+(?:\.\d+)?)k\b")
"""An amount in thousands ("just under ¥3.6k" -> ¥3600)."""
_ONE_IN_RANGE = re.compile(r"\bone(?=\s?(?:-|–|to|or)\s?\d)")
"""The lone "one" ``alpha2digit`` keeps as a word, when it opens a range ("one to 2 days")."""
_FRACTION_OFF = re.compile(r"\b(\d+)\s?/\s?(\d+)\s?off\b")
_SPELLED_UNIT = re.compile(
    r"(?<=\d)\s?(millimet(?:re|er)s?|centimet(?:re|er)s?|kilograms?|millilit(?:re|er)s?)\b"
)
_SPELLED = {"millim": "mm", "centim": "cm", "kilogr": "kg", "millil": "ml"}
"""A unit spelled out after a number ("8 to 9 millimetres") as its symbol."""
_RANGE_TO = re.compile(r"(?<![\d.])(\d+(?:\.\d+)?) (?:days? )?to (\d+(?:\.\d+)?) ?(mm|cm|days)\b")
"""A measured range said with "to" ("8 to 9 mm") in the form the catalogue writes (8-9 mm), and
days to a week ("four days to a week": 4-7 days, once the idiom and the numeral are read)."""
_PERCENT_WORD = re.compile(r"(?<=\d)\s?(?:percent|per cent)\b")
_WEEKS = re.compile(
    r"(?<![\d.])(?:(\d+(?:\.\d+)?)\s?(?:-|–|to|到)\s?)?(\d+(?:\.\d+)?)\s?(?:weeks?|周|个?星期|個?星期)"
)
"""Weeks, or a range of them ("1-2周", "2 to 3 weeks"), said as days."""


@cache
def _units() -> Any:
    """Pint's unit registry, built once (about 0.4 s) on first need."""
    import pint

    units: Any = pint.UnitRegistry()
    units.define("jin = 500 * gram = 斤")
    return units


def in_unit(b: float, unit_b: str, unit_a: str) -> float | None:
    """``b unit_b`` in ``unit_a`` (0.8 kg in g -> 800), None when pint cannot convert it."""
    if unit_a == unit_b:
        return b
    import pint

    try:
        return float(_units().Quantity(b, unit_b).to(unit_a).magnitude)
    except (pint.errors.PintError, ValueError, TypeError, AttributeError):
        return None


def same_quantity(a: float, unit_a: str, b: float, unit_b: str) -> bool | None:
    """Whether ``a unit_a`` equals ``b unit_b`` (1.2 kg = 1200 g; 12 months = 1 year).

    None when either unit is unknown to pint or the two are of different dimensions.
    """
    converted = in_unit(b, unit_b, unit_a)  # pint reads plurals ("months") and prefixes ("ml")
    if converted is None:
        return None
    return abs(converted - a) <= 1e-6 * max(1.0, abs(a))


_YEAR_AND_HALF = re.compile(r"(\d+)\s?年半")


def normalise_quantities(text: str) -> str:
    """Quantities written in words or other forms as digits and one canonical unit.

    Applied to lower-cased NFKC text. English number words go through ``text2num``'s
    ``alpha2digit`` ("two hundred fifty-eight yuan" -> "258 yuan"; a lone "one" stays a word,
    as it is as often a pronoun: ``threshold=2``); Chinese numerals through ``cn2an``
    (:func:`_zh_numerals`);
    then money and discount forms (99块9 -> 99.9元, 8折 -> 20% off, 1/8 off -> 12.5% off, 20
    percent -> 20%), idioms ("half a dozen" -> 6, "a week" -> 7 days) and weeks as days
    (2 weeks -> 14 days).

    Why these libraries: ``cn2an`` reads every Chinese numeral form (两百五, 一万二, 九十九点九)
    and ``text2num`` every English one (with "and", hyphens and decimals), both maintained and
    fast (0.1 ms and 2 us a call here); ``pint`` converts between units of one dimension. We
    chose it over ``quantulum3``, which parses quantities from free text but takes 1.5 s to
    import and classifies units with a scikit-learn model, where the answers' units are the
    few the world's facts use.
    """
    from text_to_num import alpha2digit

    if any_found(_ANY_IDIOM, text):  # most texts say none: one look, not a pass per idiom
        for pattern, value in _IDIOMS:
            text = pattern.sub(value, text)
    if re.search(r"[a-z]", text):
        text = _HYPHENED_UNIT.sub(r"\1 \2", text) if "-" in text else text
        text = _sub(_ONE_IN_RANGE, "1", alpha2digit(text, "en", threshold=2), "one")
        text = _sub(_SPOKEN_CENTS, r"\1.\2 yuan", text, " yuan ")
        text = _sub(_THOUSANDS, _thousands, text, "¥", "$")
        if "and a half" in text:  # "twenty-two and a half watts" (alpha2digit: "22 and a half")
            text = re.sub(r"(?<![\d.])(\d+) and a half\b", r"\1.5", text)
    if not text.isascii():
        text = _zh_numerals(text)
        text = _sub(_YEAR_AND_HALF, _year_and_half, text, "年半")
        text = _sub(_ZH_FEN, r"\1.\2\3元", text, "毛", "角")
        text = _sub(_ZH_MONEY, r"\1.\2元", text, "块", "元")
        text = _sub(_ZH_DISCOUNT, _zh_discount, text, "折")
        text = _sub(_ZH_UNIT, lambda m: " " + _ZH_UNIT_EN[m.group(1)], text, *_ZH_UNIT_EN)
    text = _sub(_PERCENT_WORD, "%", text, "per")
    text = _sub(_SPELLED_UNIT, lambda m: " " + _SPELLED[m.group(1)[:6]], text, *_SPELLED)
    text = _sub(_RANGE_TO, r"\1-\2 \3", text, " to ")
    text = _sub(_FRACTION_OFF, _fraction_off, text, "/")
    return _sub(_WEEKS, _as_days, text, "week", "周", "星期")


def _sub(pattern: re.Pattern[str], repl: Any, text: str, *needs: str) -> str:
    """``pattern.sub(repl, text)``, where ``text`` holds one of ``needs`` (else ``text``).

    Every match of ``pattern`` holds one of ``needs``: a substring test rules most texts out far
    faster than a pass of the pattern, which tries each position of the text.
    """
    return pattern.sub(repl, text) if any(n in text for n in needs) else text


def _thousands(m: re.Match[str]) -> str:
    """An amount in thousands in full (¥3.6k -> ¥3600)."""
    return f"{m.group(1)}{float(m.group(2)) * 1000:g}"


def _year_and_half(m: re.Match[str]) -> str:
    """Years and a half in months (1年半 -> 18个月)."""
    return f"{int(m.group(1)) * 12 + 6}个月"


def _fraction_off(m: re.Match[str]) -> str:
    """A fraction off as a percentage (1/8 off -> 12.5% off; a zero denominator stays)."""
    low, high = int(m.group(1)), int(m.group(2))
    return f"{100 * low / high:g}% off" if high else m.group(0)


def _as_days(m: re.Match[str]) -> str:
    """A number of weeks, or a range of them, in days (1-2周 -> 7-14 days)."""
    high = f"{float(m.group(2)) * 7:g}"
    return f"{float(m.group(1)) * 7:g}-{high} days" if m.group(1) else f"{high} days"


# -- numbers ---------------------------------------------------------------------------------------

_NUM = re.compile(
    r"(?<![\d.])(\d+(?:\.\d+)?)(?:(?:\s?(?:-|–|~|to|至|到)\s?|—)[¥$]?\s?(\d+(?:\.\d+)?))?"
)
_CODE_BEFORE = re.compile(r"[a-z]$")
"""Letters the number is glued to: the end of a code (VIP8, LIVE50), not an amount."""
_UNIT_BEFORE = re.compile(r"\d\s?(?:g|kg|mg|ml|l|cm|mm|m|w|mah)$")
"""A unit glued to the number after it, where Chinese writes no space (80克59.99元)."""
_CURRENCY_BEFORE = re.compile(r"(?:[¥$]|rmb|cny|yuan|usd)\s?$")
_CURRENCY_AFTER = re.compile(r"^\s?(?:元|块|yuan|rmb|cny|kuai|dollars?)")
_COUNT_AFTER = re.compile(
    r"^\s?(?:left|units?|pieces?|pcs|items?|in stock|remaining|件(?!套)|"
    r"(?:pairs?|bottles?|boxes?|bags?|sets?|packs?|tubes?|jars?) (?:left|remaining|in stock)|"
    r"(?:pairs?|bottles?|boxes?|bags?|sets?|packs?|tubes?|jars?) of (?:the|this|that) |"
    r"of (?:them|those|these) (?:left|rem|in s|avai)|"  # (the 14 characters read after it)
    r"个(?!月|小时|颜色|色|码|尺码|款|规格|选项)|台|盒|瓶)"
)
_COUNT_BEFORE = re.compile(r"(?:only|just|last|剩下?|还剩|仅剩|最后|还有)\s?$")
_DURATION_AFTER = re.compile(
    r"^\s?-?\s?(?:years?|months?|weeks?|hours?|minutes?|mins?|年|个?月|周|个?星期|个?小时|分钟)"
)
"""A length of time after a number ("1年保修", "只剩24分钟"): not a number of items left."""
_MEASURE_AFTER = re.compile(
    r"^\s?(?:(?:cm|mm|km|kg|ml|oz|lbs?|inch(?:es)?|m|g|l)(?![a-z])|厘米|毫米|公斤|千克|毫升|克|米|升|码)"
)
"""A size, weight or volume after a number ("还有3cm延长链", "还有38码"): not a number left."""
_DAYS_AFTER = re.compile(r"^\s?-?\s?(?:business |working )?(?:days?|天|个?工作日)")
TOTAL_WORDS_EN = "together|in total|total|altogether|all in|combined"
TOTAL_WORDS_ZH = "合计|一共|总共|加起来|共计"
"""Words that make an amount a total of others ("¥79 + ¥8 shipping, so ¥87 together")."""
_PRICE_CONTEXT = re.compile(
    r"(?:was|originally|original|list(?:ed)?|regular(?:ly)?|usually|normally|before|"
    r"spend|over|above|minimum|at least|threshold|off|save|saving|discount|coupon|worth|"
    r"up to|capped|max|short|under|below|封顶|最多|还差|%\s?of\b|"  # "8% of ¥1,399 is ¥111.92"
    r"less|minus|deduct|deal|promo|promotion|flash|直降|活动|原价|划线价|日常价|标价|吊牌价|满|减|省|优惠|便宜|"
    rf"立减|券|门槛|以上|起|{TOTAL_WORDS_EN}|{TOTAL_WORDS_ZH})"
)


_BREAK = re.compile(r"[.!?;,，。！？；]")


@dataclass(frozen=True)
class Number:
    """A number (or range) written in the answer, with what kind of quantity it reads as."""

    low: float
    high: float
    start: int
    end: int
    kind: str  # "price", "count", "days" or "plain"
    context: bool  # next to a word that makes a price a list price, threshold or discount


_SHORTER_BEFORE = re.compile(r"(?:\b(?:longer|more|over|beyond) than|比|超过)\s?$")
NO_REASON_AFTER = re.compile(
    r"\s?(?:days?|天)(?:内(?:可以|都可以|能|都能)?)?[- ]?(?:no[- ]reasons?|no[- ]questions?|无理由)"
)
"""A no-reason return standard named after its days ("7天无理由")."""


_BOUND_BEFORE = re.compile(
    r"(?:\b(?P<at_most>up to|at most|no (?:more|hotter|higher) than|(?:not|never) (?:exceed|above|"
    r"over|more than|hotter than|higher than))\s(?:about\s|around\s)?|"
    r"(?P<zh_at_most>(?:别|不要|不能|不可以|勿|不)(?:超过|高于|大于))|"
    r"\b(?P<under>under|below|shy of|less than)\s(?:a\s|an\s)?|"
    r"(?P<zh_under>不到|差.{0,4}(?:到|就是|就到)|差(?:1|一)?[分毛角]钱?就?)|"  # 差一分钱就一百块
    r"\b(?P<over>over|more than|above|upwards of)\s(?:a\s)?|(?P<zh_over>超过|(?<!不)上))"
    r"\s?(?:¥\s?|cny\s?|rmb\s?)?$"
)


def bound_before(text: str, start: int) -> str | None:
    """The side of a bound said just before the number at ``start``, or None.

    "under" ("just under a thousand", 不到), "over" ("well over a hundred", 超过) or "at most",
    a limit the number is ("up to ten days", "no hotter than 40°C", 水温别超过40°C).
    """
    m = _BOUND_BEFORE.search(text, max(0, start - 18), start)
    if m is None:
        return None
    if m.group("at_most") or m.group("zh_at_most"):
        return "at most"
    return "under" if m.group("under") or m.group("zh_under") else "over"


def rounds_to(said: float, value: float, kind: str) -> bool:
    """Whether a viewer takes ``said`` for ``value``: the same, or money to the whole yuan.

    "about ¥150" for ¥149.99, "about ¥217.5" for ¥217.49 and "about ¥630" for ¥629.99 are the
    same amount to a viewer, as
    is a round ten within half a percent ("2300左右" for ¥2,299); "about ¥140" is another.
    Counts and days round to nothing but themselves.
    """
    whole_yuan = kind == "price" and said == round(said) and abs(said - value) < 1.0
    to_the_jiao = kind == "price" and said == round(said, 1) and abs(said - value) < 0.05
    round_ten = (
        kind == "price"
        and said in (round(value, -1), round(value, -2))
        and abs(said - value) <= 0.005 * value
    )
    return abs(said - value) < 0.005 or whole_yuan or to_the_jiao or round_ten


def shorter_window_met(text: str, n: Number, window: float) -> bool:
    """Days shorter than the ``window``, only measured against or named as a standard met.

    "比7天还长", "longer than 7 days", "支持7天无理由退货" of a 15-day window: true of the
    window, no rival value.
    """
    return n.high < window and bool(
        _SHORTER_BEFORE.search(text, 0, n.start) or NO_REASON_AFTER.match(text, n.end)
    )


_NONE_LEFT = re.compile(r"\s?(?:件|个|双|套|瓶|盒|条|只|包)?(?:都|也)(?:不剩|没有|没了|没剩)")
"""Words after "1" that make it none (一件都不剩, prepared 1件都不剩): sold out, no count."""


def numbers(text: str) -> list[Number]:
    """Every number or range in prepared ``text``, classified by the words around it."""
    spans = []
    for m in _NUM.finditer(text):
        low = float(m.group(1))
        high = float(m.group(2)) if m.group(2) else low
        priced = _CURRENCY_BEFORE.search(text, max(0, m.start() - 8), m.start())
        if high < low or (  # "from ¥79.90 to ¥69.90": a change, two numbers, not a range
            m.group(2) and priced and text.startswith("%", m.end())  # "¥99～100%食品级": two
        ):
            spans += [(low, low, m.start(1), m.end(1)), (high, high, m.start(2), m.end(2))]
        else:
            spans.append((low, high, m.start(), m.end()))
    out = []
    for low, high, start, end in spans:
        before, after = text[max(0, start - 8) : start], text[end : end + 14]
        if (
            _CODE_BEFORE.search(before)
            and not _CURRENCY_BEFORE.search(before)
            and not _UNIT_BEFORE.search(before)  # "80克59.99元" (prepared 80 g59.99元): a price
        ):
            kind = "plain"  # "VIP8 CNY 80 off": the digit ends a coupon code
        elif _NONE_LEFT.match(text, end):
            kind = "plain"  # "1件都不剩了" (一件都不剩): not one left, no count
        elif after.lstrip().startswith("%"):
            kind = "plain"  # "还有8折优惠" (prepared 还有20% off): a share, not a number left
        elif _CURRENCY_BEFORE.search(before) or _CURRENCY_AFTER.search(after):
            kind = "price"
        elif _DAYS_AFTER.search(after):
            kind = "days"
        elif _DURATION_AFTER.search(after) or _MEASURE_AFTER.search(after):
            kind = "plain"  # "还有1年保修", "还有3cm延长链": not a number left
        elif _COUNT_AFTER.search(after) or _COUNT_BEFORE.search(before):
            kind = "count"
        else:
            kind = "plain"
        head = _BREAK.split(text[max(0, start - 24) : start])[-1]
        tail = _BREAK.split(text[end : end + 16])[0]
        near = head + " " + tail
        context = kind == "price" and (
            _PRICE_CONTEXT.search(near) is not None
            or re.search(r"[-=]\s?[¥$]?\s?$", head) is not None  # "¥79.90 + ¥15.00 = ¥94.90"
        )
        out.append(Number(low, high, start, end, kind, context))
    return out


_MAY_TAKE = re.compile(r"\b(?:could|might|may) (?:be|take)\b[^.!?]{0,12}$")
_USUALLY = re.compile(r"\b(?:usually|typically|normally|often|mostly)(?: just| only)? $")


def days_aside(text: str, n: Number) -> bool:
    """Days given beside the fact's as a possibility or as the usual, whatever the unit read.

    "could take 5", "2–4 days, usually just 1–2" (a range before "and shipping…" reads as a count).
    """
    if n.kind == "plain" and _MAY_TAKE.search(text, 0, n.start):
        return True
    usual = n.kind in ("plain", "count") and n.low < n.high
    return usual and _USUALLY.search(text, 0, n.start) is not None
