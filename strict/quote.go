package strict

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Quote quotes text that came from a user for a message: in double quotes,
// with control characters and line breaks escaped (so a message stays one
// line), cut to at most max runes of the text with "..." after the cut.
func Quote(text string, max int) string {
	return strconv.Quote(Clip(text, max))
}

// Clip cuts text to at most max runes, marking a cut with "...". Invalid
// UTF-8 is replaced, so a clipped message is always valid text.
func Clip(text string, max int) string {
	text = strings.ToValidUTF8(text, "\uFFFD")
	if max < 4 {
		max = 4
	}
	if utf8.RuneCountInString(text) <= max {
		return text
	}
	n := 0
	for i := range text {
		if n == max-3 {
			return text[:i] + "..."
		}
		n++
	}
	return text
}

// Line makes a message one line of at most max runes: line breaks and
// other control characters become spaces, runs of spaces one space.
func Line(msg string, max int) string {
	var b strings.Builder
	space := false
	for _, r := range strings.ToValidUTF8(msg, "\uFFFD") {
		if r < 0x20 || r == 0x7f || r == '\u2028' || r == '\u2029' {
			r = ' '
		}
		if unicode.Is(unicode.Bidi_Control, r) {
			continue // it would turn the text around it (a name that reads as another)
		}
		if r == ' ' {
			if space {
				continue
			}
			space = true
		} else {
			space = false
		}
		b.WriteRune(r)
	}
	return Clip(strings.TrimSpace(b.String()), max)
}
