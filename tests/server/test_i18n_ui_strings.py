"""No user-visible English in the site's pages that does not go through the translations:
HTML text and visible attributes carry data-i18n / data-i18n-attr, JavaScript string
literals that read as words are keys of t() (or are not shown).

The JavaScript check is a heuristic over string literals (a tokenizer, not a parser): a
literal is shown text when it has two words, when it is a single word handed to a call as
its last argument (``el("a", {}, "play")``) or assigned to textContent. Keys, selectors,
URLs and identifiers (class names, ids in ternaries) do not look like that."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from qipan.server import i18n

WEB = Path(i18n.__file__).resolve().parent.parent / "web"
#: The pages of the site and the game page (analysis.html has its own test) and every
#: script of the site: a new page script is checked without being listed.
HTML_FILES = ["index.html", "account.html", "profile.html", "rules.html", "game.html"]
JS_FILES = sorted(p.name for p in WEB.glob("*.js"))
VISIBLE_ATTRIBUTES = ("placeholder", "title", "aria-label", "alt")
#: Words that are the same in every language: the brand.
NAMES = {"qipan"}
WORDS = re.compile(r"[A-Za-z][A-Za-z']+")


def is_words(text: str) -> bool:
    words = [w for w in WORDS.findall(text) if w.lower() not in NAMES]
    return bool(words)


class Untranslated(HTMLParser):
    """Text and visible attributes of elements that no data-i18n covers."""

    VOID = {"meta", "link", "input", "br", "img", "hr", "source"}

    def __init__(self):
        super().__init__()
        self.stack: list[tuple[str, bool]] = []  # (tag, its text is translated)
        self.found: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        translated_attrs = {p.split(":")[0].strip() for p in (a.get("data-i18n-attr") or "").split(";") if p}
        for name in VISIBLE_ATTRIBUTES:
            if a.get(name) and is_words(a[name]) and name not in translated_attrs:
                self.found.append(f"<{tag} {name}={a[name]!r}>")
        covered = "data-i18n" in a or any(c for _, c in self.stack if c)
        if tag not in self.VOID:
            self.stack.append((tag, covered))

    def handle_endtag(self, tag):
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data):
        if self.stack and self.stack[-1][0] in ("script", "style"):
            return
        covered = any(c for _, c in self.stack if c)
        if not covered and is_words(data.strip()):
            self.found.append(data.strip())


def untranslated_html(text: str) -> list[str]:
    parser = Untranslated()
    parser.feed(text)
    return parser.found


# -- JavaScript ------------------------------------------------------------------------------
def literals(source: str):
    """(text, before, after, is_template) for each string literal: the last and next
    non-blank characters around it. Template literals give their text parts joined by a
    space; comments and regular-expression literals are skipped."""
    i, n = 0, len(source)
    out = []
    while i < n:
        c = source[i]
        if source.startswith("//", i):
            i = source.find("\n", i)
            i = n if i < 0 else i
            continue
        if source.startswith("/*", i):
            i = source.find("*/", i) + 2
            continue
        if c == "/" and re.search(r"[(,=:!&|?{};]\s*$", source[max(0, i - 20) : i]):
            i += 1  # a regular expression literal: up to the closing slash, classes included
            in_class = False
            while i < n and (source[i] != "/" or in_class):
                if source[i] == "\\":
                    i += 1
                elif source[i] == "[":
                    in_class = True
                elif source[i] == "]":
                    in_class = False
                i += 1
            i += 1
            continue
        if c in "\"'":
            j = i + 1
            while source[j] != c:
                j += 2 if source[j] == "\\" else 1
            out.append((source[i + 1 : j], before(source, i), after(source, j + 1), False))
            i = j + 1
            continue
        if c == "`":
            j, parts, start, depth = i + 1, [], i + 1, 0
            while True:
                if source[j] == "\\":
                    j += 2
                    continue
                if source.startswith("${", j):
                    parts.append(source[start:j])
                    depth, j = 1, j + 2
                    while depth:  # the expression, possibly with strings and braces
                        depth += {"{": 1, "}": -1}.get(source[j], 0)
                        j += 1
                    start = j
                    continue
                if source[j] == "`":
                    parts.append(source[start:j])
                    break
                j += 1
            out.append((" ".join(parts), before(source, i), after(source, j + 1), True))
            i = j + 1
            continue
        i += 1
    return out


def before(source: str, i: int) -> str:
    text = source[:i].rstrip()
    return text[-16:]


def after(source: str, j: int) -> str:
    return source[j:].lstrip()[:1]


#: What comes before literals nobody reads on the page: messages for developers (thrown
#: errors, console), HTTP headers and class names.
UNSEEN_AFTER = re.compile(r"(console\.\w+\(|Error\(|super\(|Authorization\s*[:=]|class:|className =)$")


def shown(text: str, prior: str, following: str, template: bool) -> bool:
    """Does this literal read as text a person sees?"""
    if not is_words(text) or re.search(r"[/_=<>#\[\]]|^\.|\w\.\w|^\w+(-\w+)+$", text):
        return False  # URLs, selectors, keys ("lobby.play"), identifiers, markup
    if UNSEEN_AFTER.search(prior) or re.fullmatch(r"--[\w-]+|\(.*\)|[a-z]+(\s*,\s*[a-z]+)+", text):
        return False  # developers' messages, headers, CSS properties, media queries, tag lists
    words = [w for w in WORDS.findall(text) if w.lower() not in NAMES]
    if template:
        return (
            any(re.search(rf"(^|\s){re.escape(w)}(\s|$)", text) for w in words) and " " in text.strip() + " "
        )
    if len(words) >= 2 or " " in text.strip():
        return True
    if prior.endswith(",") and following == ")":
        return True  # the last argument of a call: a child of el(), a message
    return prior.endswith("textContent =")


def untranslated_js(source: str) -> list[str]:
    return [text for text, b, a, tpl in literals(source) if shown(text, b, a, tpl)]


@pytest.mark.parametrize("name", HTML_FILES)
def test_html_text_goes_through_the_translations(name):
    assert untranslated_html((WEB / name).read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("name", JS_FILES)
def test_javascript_text_goes_through_t(name):
    assert untranslated_js((WEB / name).read_text(encoding="utf-8")) == []


def test_the_keys_the_pages_use_exist():
    """Every literal key given to t() or data-i18n is in the catalogues (a typo shows the
    key itself on the page)."""
    english = i18n.own_messages("en")
    used = set()
    for name in HTML_FILES:
        text = (WEB / name).read_text(encoding="utf-8")
        used |= set(re.findall(r'data-i18n="([^"]+)"', text))
        for pairs in re.findall(r'data-i18n-attr="([^"]+)"', text):
            used |= {p.split(":")[1].strip() for p in pairs.split(";") if p}
    for name in JS_FILES:
        text = re.sub(r"^\s*//.*$", "", (WEB / name).read_text(encoding="utf-8"), flags=re.M)  # examples
        used |= set(re.findall(r'\bt\("([^"]+)"', text))
        for first, second in re.findall(r'\bt\(\w+(?:\.\w+)* \? "([^"]+)" : "([^"]+)"', text):
            used |= {first, second}
    assert sorted(used - set(english)) == []


@pytest.mark.parametrize(
    "source, found",
    [
        ('el("a", { href: "/x" }, "play")', ["play"]),
        ('el("li", {}, "No open seeks: post one.")', ["No open seeks: post one."]),
        ("node.textContent = `Waiting for ${name}`;", ["Waiting for  "]),
        ('x.textContent = "view";', ["view"]),
        ('el("li", { class: mine ? "yours" : "" })', []),
        ('{ "Content-Type": "application/json" }', []),
        ('el("a", {}, t("lobby.play"))', []),
        ('document.querySelector("select[name=seat_1]")', []),
        ('api("GET", "/api/specs")', []),
        ('el("input", { name: `seat_time_${i}`, type: "number" })', []),
        ('addEventListener("change", refresh)', []),
        ('const re = /["\']/g; el("b", {}, "ok now")', ["ok now"]),
        ("// a comment with words\nconst a = 1;", []),
        ("throw new Error(`unknown language ${x}`)", []),
        ('console.warn("no message for this")', []),
        ("headers: { Authorization: `Bearer ${token}` }", []),
        ("headers.Authorization = `Bearer ${token}`;", []),
        ('el("li", { class: `seat${a ? " to-move" : ""}` })', []),
        ('matchMedia("(pointer: coarse)"); style.setProperty("--my-fill", c)', []),
        ('node.querySelector("input, select, textarea")', []),
        ('el("h3", {}, "Chat")', ["Chat"]),
    ],
)
def test_the_javascript_check_finds_shown_english_and_only_that(source, found):
    assert untranslated_js(source) == found


def test_the_html_check_finds_untranslated_text_and_attributes():
    page = (
        '<p>Hello there</p><p data-i18n="k">Hello</p><span data-i18n="k"><b>inside</b></span>'
        '<input placeholder="your name"><input placeholder="x y" data-i18n-attr="placeholder:k">'
        "<script>const words = 'are ignored';</script>"
    )
    assert untranslated_html(page) == ["Hello there", "<input placeholder='your name'>"]
