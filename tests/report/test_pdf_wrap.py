"""The listing's word wrap keeps the words in their order, also when a line measures wider than its words."""

from controlroom.report.pdf_listing import _wrap


class Metrics:
    """Made-up font metrics: each letter 1 wide, a space 1; a whole line of more than two words measures
    2 more than its words (kerning that makes a finished line wider than the sum)."""

    def horizontalAdvance(self, text: str) -> float:
        return len(text) + (2.0 if text.count(" ") >= 2 else 0.0)


def test_words_stay_in_order_when_a_line_is_moved_down():
    text = "one two six four three five seven eight"
    lines = _wrap(text, 12, Metrics())
    assert " ".join(lines).split() == text.split(), lines
    assert all(Metrics().horizontalAdvance(line) <= 12 for line in lines), lines


def test_plain_wrap_and_a_word_longer_than_the_line():
    assert _wrap("a bb ccc dddd", 6, Metrics()) == ["a bb", "ccc", "dddd"]
    lines = _wrap("x abcdefghij y", 4, Metrics())
    assert "".join(lines).replace(" ", "") == "xabcdefghijy" and all(len(line) <= 4 for line in lines), lines
