//! Text that reaches a terminal is made inert here. GPU names, paths and
//! sources come from files gpucompat does not control (a `--card`, a pasted
//! report, an unpacked image); a raw ESC, OSC, BEL, CR, NUL or a bidirectional
//! override in them could rewrite the screen or hide what is printed. Every
//! such character is shown as a visible escape (`\x1b`, `\u{202e}`) instead.
//! JSON output is not passed through here: it stays exact (serde escapes
//! control characters itself).

use std::borrow::Cow;
use std::io::Write;

/// Characters that change how text is displayed rather than being text:
/// C0 and C1 controls, DEL, and the bidirectional formatting characters.
fn is_unsafe(c: char) -> bool {
    matches!(c,
        '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{9f}'
        | '\u{200e}' | '\u{200f}' | '\u{061c}'
        | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
        | '\u{feff}')
}

fn escape_into(out: &mut String, c: char) {
    if (c as u32) < 0x80 {
        out.push_str(&format!("\\x{:02x}", c as u32));
    } else {
        out.push_str(&format!("\\u{{{:x}}}", c as u32));
    }
}

fn escaped(s: &str, keep: impl Fn(char) -> bool) -> Cow<'_, str> {
    if !s.chars().any(|c| is_unsafe(c) && !keep(c)) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 16);
    for c in s.chars() {
        if is_unsafe(c) && !keep(c) {
            escape_into(&mut out, c);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Multi-line text for a terminal: newlines and tabs stay, every other
/// control or bidirectional character becomes a visible escape.
pub fn text(s: &str) -> Cow<'_, str> {
    escaped(s, |c| c == '\n' || c == '\t')
}

/// One value on one line: newlines are escaped too.
pub fn line(s: &str) -> Cow<'_, str> {
    escaped(s, |_| false)
}

/// At most `max` characters of `s` on one line, made inert, with `…` when cut:
/// what an error message may quote of an input.
pub fn excerpt(s: &str, max: usize) -> String {
    let mut cut: String = s.chars().take(max).collect();
    let more = s.chars().nth(max).is_some();
    cut = line(&cut).into_owned();
    if more {
        cut.push('…');
    }
    cut
}

/// Print text to stdout, made inert. A closed pipe (`| head -1`) ends the
/// output quietly.
pub fn print(s: &str) {
    write_quietly(&mut std::io::stdout().lock(), text(s).as_bytes());
}

/// Print JSON (or another exact format) to stdout as it is, with a newline.
pub fn print_exact(s: &str) {
    let mut out = std::io::stdout().lock();
    write_quietly(&mut out, s.as_bytes());
    write_quietly(&mut out, b"\n");
}

/// One diagnostic line on stderr, made inert.
pub fn eprint_line(s: &str) {
    let mut t = text(s).into_owned();
    t.push('\n');
    write_quietly(&mut std::io::stderr().lock(), t.as_bytes());
}

fn write_quietly(w: &mut impl Write, bytes: &[u8]) {
    // Nothing useful can be said when the reader went away or the disk is full.
    let _ = w.write_all(bytes).and_then(|_| w.flush());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_are_made_visible() {
        assert_eq!(
            text("NVIDIA \u{1b}]0;pwned\u{7}RTX\r\n\u{0}\t"),
            "NVIDIA \\x1b]0;pwned\\x07RTX\\x0d\n\\x00\t"
        );
        assert_eq!(text("evil\u{202e}txt.exe"), "evil\\u{202e}txt.exe");
        assert_eq!(text("\u{9b}31m"), "\\u{9b}31m");
        assert_eq!(line("a\nb"), "a\\x0ab");
    }

    #[test]
    fn plain_text_is_untouched() {
        assert!(matches!(
            text("NVIDIA GeForce RTX 4090 — 24 GiB\n"),
            Cow::Borrowed(_)
        ));
    }

    #[test]
    fn excerpts_are_short_and_inert() {
        assert_eq!(excerpt("abcdef", 3), "abc…");
        assert_eq!(excerpt("a\u{1b}b", 10), "a\\x1bb");
        assert_eq!(excerpt(&"x".repeat(200_000), 80).chars().count(), 81);
    }
}
